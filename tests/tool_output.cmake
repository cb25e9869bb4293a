# SPDX-License-Identifier: MIT
# Every tool's lost output (tools/common/tool_output.h): stdout closed, on /dev/full and a dead pipe.
include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)
set(fr_output_env ${FR_TOOL_TARGET_ENV})
if(FASTRAW_SANITIZE)
  list(APPEND fr_output_env ASAN_OPTIONS=verify_asan_link_order=0)
endif()
fr_add_script_test(tool_output_errors LABELS tools SKIP TIMEOUT 120
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/output_errors.sh ${PROJECT_BINARY_DIR} $<TARGET_FILE:fastraw>
  ENV ${fr_output_env})
