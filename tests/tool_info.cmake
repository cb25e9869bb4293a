# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-info: one CTest entry per case of tools/info_transcript.sh.
include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)
set(fr_info_env ${FR_TOOL_TARGET_ENV})
if(FASTRAW_SANITIZE)
  # The tool is built with ASan; libfastraw.so preloaded ahead of its runtime is expected here.
  list(APPEND fr_info_env "ASAN_OPTIONS=verify_asan_link_order=0")
endif()
# Label system: the case needs a real kernel of the target (a vDSO's pages), and skips under
# qemu-user in a cross build (tests/tools/arch_facts.sh); the others also run there.
foreach(case plain preload env clocks json usage timens release)
  set(fr_info_labels tools)
  if(case MATCHES "^(timens|release)$")
    list(APPEND fr_info_labels system)
  endif()
  fr_add_script_test(tool_info_${case} LABELS ${fr_info_labels} SKIP TIMEOUT 120
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/info_transcript.sh ${case}
      $<TARGET_FILE:fastraw-info> $<TARGET_FILE:fastraw>
    ENV ${fr_info_env})
endforeach()
