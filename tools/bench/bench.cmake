# SPDX-License-Identifier: MIT
# fastraw-bench: the benchmark (included by tools/CMakeLists.txt).
add_executable(fastraw-bench
  ${CMAKE_CURRENT_LIST_DIR}/fastraw-bench.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_child.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_env.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_goals.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_loops.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_machine.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_modes.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_pool.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_startup.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_table.c)
target_include_directories(fastraw-bench PRIVATE ${PROJECT_SOURCE_DIR}/tools ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(fastraw-bench PRIVATE fastraw_core fastraw_tool_common fastraw_warnings ${CMAKE_DL_LIBS})
set_target_properties(fastraw-bench PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})

# The empty preload, start-up's baseline: built beside fastraw-bench, where it looks first.
add_library(bench_empty SHARED ${CMAKE_CURRENT_LIST_DIR}/bench_empty.c)
target_link_libraries(bench_empty PRIVATE fastraw_warnings)
set_target_properties(bench_empty PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})

# The benchmark preloads the library; build both along with it.
add_dependencies(fastraw-bench fastraw bench_empty)

# Where start-up goes, for scripts/startup-breakdown.sh: each constructor step timed in a fresh
# process, and fastraw-bench's start-up measurement run alone. Built beside fastraw-bench, not
# installed.
add_executable(bench_startup_stages
  ${CMAKE_CURRENT_LIST_DIR}/bench_startup_stages.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_startup.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_env.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_loops.c)
target_include_directories(bench_startup_stages PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(bench_startup_stages PRIVATE fastraw_core fastraw_warnings ${CMAKE_DL_LIBS})
set_target_properties(bench_startup_stages PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
add_dependencies(bench_startup_stages fastraw bench_empty)
