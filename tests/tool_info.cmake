# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-info: one CTest entry per case of tools/info_transcript.sh.
set(fr_info_env "")
if(FASTRAW_SANITIZE)
  # The tool is built with ASan; libfastraw.so preloaded ahead of its runtime is expected here.
  set(fr_info_env "ASAN_OPTIONS=verify_asan_link_order=0")
endif()
foreach(case plain preload env json usage timens release)
  add_test(NAME tool_info_${case}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/info_transcript.sh ${case}
      $<TARGET_FILE:fastraw-info> $<TARGET_FILE:fastraw>)
  set_tests_properties(tool_info_${case} PROPERTIES
    LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 120 ENVIRONMENT "${fr_info_env}")
endforeach()
