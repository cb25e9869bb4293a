# SPDX-License-Identifier: MIT
# fastraw-bench: the benchmark (included by tools/CMakeLists.txt).
add_executable(fastraw-bench
  ${CMAKE_CURRENT_LIST_DIR}/fastraw-bench.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_child.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_loops.c)
target_include_directories(fastraw-bench PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(fastraw-bench PRIVATE fastraw_core fastraw_tool_common fastraw_warnings ${CMAKE_DL_LIBS})
set_target_properties(fastraw-bench PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
# The benchmark preloads the library; build it along with the benchmark.
add_dependencies(fastraw-bench fastraw)
