# SPDX-License-Identifier: MIT
# fastraw-latency: the mean delta between consecutive clock_gettime calls, and any backward steps.
add_executable(fastraw-latency ${CMAKE_CURRENT_LIST_DIR}/fastraw-latency.c)
target_include_directories(fastraw-latency PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(fastraw-latency PRIVATE fastraw_core fastraw_tool_common fastraw_warnings)
set_target_properties(fastraw-latency PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
