# SPDX-License-Identifier: MIT
# Transcript tests of fastraw-latency (tools/latency/latency.cmake): output shape, flags and exit
# codes, one CTest entry per case of tools/latency_cases.sh.
include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)

# A preloadable clock_gettime that repeats one reading and steps back once, for exit status 1.
add_library(latency_backstep SHARED tools/latency_backstep.c)
target_link_libraries(latency_backstep PRIVATE fastraw_warnings)

foreach(case help badflag badvalue badclock badid shape dump repeat
    clock_name clock_number monotonic json zero backwards preload)
  fr_add_script_test(tool_latency_${case} LABELS tools TIMEOUT 60
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/latency_cases.sh ${case}
      $<TARGET_FILE:fastraw-latency> $<TARGET_FILE:fastraw> $<TARGET_FILE:latency_backstep>
    ENV "FR_PRELOAD_FIRST=${FR_SANITIZER_RUNTIME}" ${FR_TOOL_TARGET_ENV})
endforeach()
