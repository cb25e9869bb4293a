# SPDX-License-Identifier: MIT
# fastraw-check: the multi-threaded clock consistency checker (included by tools/CMakeLists.txt).
find_package(Threads REQUIRED)
add_executable(fastraw-check
  fastraw-check.c
  check_report.c
  check_run.c)
target_link_libraries(fastraw-check PRIVATE fastraw_core fastraw_warnings Threads::Threads)
set_target_properties(fastraw-check PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
