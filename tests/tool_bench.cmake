# SPDX-License-Identifier: MIT
# fastraw-bench --quick, its goals table checked for shape and arithmetic against this machine
# (tools/bench_quick.sh); no timing is asserted. Not in sanitizer builds: their runtime must come
# first in LD_PRELOAD, and their timings mean nothing.
if(NOT FASTRAW_SANITIZE)
  add_test(NAME tool_bench_quick
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/bench_quick.sh
      $<TARGET_FILE:fastraw-bench> $<TARGET_FILE:fastraw>)
  set_tests_properties(tool_bench_quick PROPERTIES LABELS "tools;bench" TIMEOUT 180)
endif()
