# SPDX-License-Identifier: MIT
# fastraw-check: the multi-threaded clock consistency checker (included by tools/CMakeLists.txt).
find_package(Threads REQUIRED)
add_executable(fastraw-check
  ${CMAKE_CURRENT_LIST_DIR}/fastraw-check.c
  ${CMAKE_CURRENT_LIST_DIR}/check_report.c
  ${CMAKE_CURRENT_LIST_DIR}/check_run.c)
target_include_directories(fastraw-check PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(fastraw-check PRIVATE fastraw_core fastraw_tool_common fastraw_warnings Threads::Threads)
set_target_properties(fastraw-check PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
