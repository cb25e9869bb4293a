# SPDX-License-Identifier: MIT
# Every tool's lost output (tools/common/tool_output.h): stdout closed, on /dev/full and a dead pipe.
set(fr_output_env "")
if(FASTRAW_SANITIZE)
  list(APPEND fr_output_env ASAN_OPTIONS=verify_asan_link_order=0)
endif()
add_test(NAME tool_output_errors
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/output_errors.sh ${PROJECT_BINARY_DIR} $<TARGET_FILE:fastraw>)
set_tests_properties(tool_output_errors PROPERTIES
  LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 120 ENVIRONMENT "${fr_output_env}")
