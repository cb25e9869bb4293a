# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-info: one CTest entry per case of tools/info_transcript.sh.
include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)
set(fr_info_env ${FR_TOOL_TARGET_ENV})
if(FASTRAW_SANITIZE)
  # The tool is built with ASan; libfastraw.so preloaded ahead of its runtime is expected here.
  list(APPEND fr_info_env "ASAN_OPTIONS=verify_asan_link_order=0")
endif()
foreach(case plain preload env json usage timens release)
  fr_add_script_test(tool_info_${case} LABELS tools SKIP TIMEOUT 120
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/info_transcript.sh ${case}
      $<TARGET_FILE:fastraw-info> $<TARGET_FILE:fastraw>
    ENV ${fr_info_env})
endforeach()
