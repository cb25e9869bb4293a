# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-check (tools/check/check.cmake): usage errors, clean runs plain and under
# LD_PRELOAD, and a preloaded faulty clock_gettime (tests/tools/check_shim.c) for every check.
include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)
add_library(check_shim SHARED tools/check_shim.c)
target_link_libraries(check_shim PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)

set(fr_check_sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_tool.sh)
# fr_add_check_tool_test(CASE ARG...): tool_check_CASE, check_tool.sh CASE ARG....
function(fr_add_check_tool_test case)
  fr_add_script_test(tool_check_${case} LABELS tools TIMEOUT 60
    COMMAND sh ${fr_check_sh} ${ARGN}
    ENV "FR_PRELOAD_FIRST=${FR_SANITIZER_RUNTIME}" ${FR_TOOL_TARGET_ENV})
endfunction()
fr_add_check_tool_test(usage usage $<TARGET_FILE:fastraw-check>)
fr_add_check_tool_test(plain plain $<TARGET_FILE:fastraw-check>)
fr_add_check_tool_test(preload preload $<TARGET_FILE:fastraw-check> $<TARGET_FILE:fastraw>)
fr_add_check_tool_test(cputime cputime $<TARGET_FILE:fastraw-check>)
foreach(mode backwards cross nsec error ahead behind)
  fr_add_check_tool_test(detect_${mode} detect $<TARGET_FILE:fastraw-check> $<TARGET_FILE:check_shim> ${mode})
endforeach()
