# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-check (tools/check/check.cmake): usage errors, clean runs plain and under
# LD_PRELOAD, and a preloaded faulty clock_gettime (tests/tools/check_shim.c) for every check.
add_library(check_shim SHARED tools/check_shim.c)
target_link_libraries(check_shim PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)

set(fr_check_sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_tool.sh)
add_test(NAME tool_check_usage COMMAND sh ${fr_check_sh} usage $<TARGET_FILE:fastraw-check>)
add_test(NAME tool_check_plain COMMAND sh ${fr_check_sh} plain $<TARGET_FILE:fastraw-check>)
add_test(NAME tool_check_preload
  COMMAND sh ${fr_check_sh} preload $<TARGET_FILE:fastraw-check> $<TARGET_FILE:fastraw>)
add_test(NAME tool_check_cputime COMMAND sh ${fr_check_sh} cputime $<TARGET_FILE:fastraw-check>)
set(fr_check_tests tool_check_usage tool_check_plain tool_check_preload tool_check_cputime)
foreach(mode backwards cross nsec error ahead behind)
  add_test(NAME tool_check_detect_${mode}
    COMMAND sh ${fr_check_sh} detect $<TARGET_FILE:fastraw-check> $<TARGET_FILE:check_shim> ${mode})
  list(APPEND fr_check_tests tool_check_detect_${mode})
endforeach()
set_tests_properties(${fr_check_tests} PROPERTIES
  LABELS tools TIMEOUT 60 ENVIRONMENT "FR_PRELOAD_FIRST=${FR_SANITIZER_RUNTIME}")
