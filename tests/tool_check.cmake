# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-check (tools/check.cmake): usage errors, clean runs plain and under
# LD_PRELOAD, and a preloaded faulty clock_gettime (tests/tools/check_shim.c) for every check.
add_library(check_shim SHARED tools/check_shim.c)
target_link_libraries(check_shim PRIVATE ${CMAKE_DL_LIBS} fastraw_warnings)

# With FASTRAW_SANITIZE a preloaded library needs the ASan runtime loaded before it.
set(fr_check_env "")
if(FASTRAW_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE fr_check_asan OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(fr_check_env "FR_PRELOAD_FIRST=${fr_check_asan}")
endif()

set(fr_check_sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_tool.sh)
add_test(NAME tool_check_usage COMMAND sh ${fr_check_sh} usage $<TARGET_FILE:fastraw-check>)
add_test(NAME tool_check_plain COMMAND sh ${fr_check_sh} plain $<TARGET_FILE:fastraw-check>)
add_test(NAME tool_check_preload
  COMMAND sh ${fr_check_sh} preload $<TARGET_FILE:fastraw-check> $<TARGET_FILE:fastraw>)
set(fr_check_tests tool_check_usage tool_check_plain tool_check_preload)
foreach(mode backwards cross nsec error ahead behind)
  add_test(NAME tool_check_detect_${mode}
    COMMAND sh ${fr_check_sh} detect $<TARGET_FILE:fastraw-check> $<TARGET_FILE:check_shim> ${mode})
  list(APPEND fr_check_tests tool_check_detect_${mode})
endforeach()
set_tests_properties(${fr_check_tests} PROPERTIES
  LABELS tools TIMEOUT 60 ENVIRONMENT "${fr_check_env}")
