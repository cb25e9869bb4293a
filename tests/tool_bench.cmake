# SPDX-License-Identifier: MIT
# fastraw-bench --quick, its goals table checked for shape and arithmetic against this machine
# (tools/bench_quick.sh); no timing is asserted. Not in sanitizer builds: their runtime must come
# first in LD_PRELOAD, and their timings mean nothing.
include(${CMAKE_CURRENT_LIST_DIR}/tool_env.cmake)
if(NOT FASTRAW_SANITIZE)
  # system: it starts target programs (tool_info.cmake).
  fr_add_script_test(tool_bench_quick LABELS tools bench system SKIP TIMEOUT 180
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/bench_quick.sh
      $<TARGET_FILE:fastraw-bench> $<TARGET_FILE:fastraw>
    ENV ${FR_TOOL_TARGET_ENV})
endif()
