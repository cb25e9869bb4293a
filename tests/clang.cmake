# SPDX-License-Identifier: MIT
# The tree built with clang (label clang): scripts/clang.sh configures a second build of the
# whole tree with CC=clang and -DFASTRAW_WERROR=ON, so one warning fails it, then runs that
# build's unit suites. Skipped (77) with the reason where clang cannot be had; not run from a
# clang, cross or sanitizer build itself.
if(CMAKE_CROSSCOMPILING OR FASTRAW_SANITIZE OR CMAKE_C_COMPILER_ID STREQUAL "Clang")
  return()
endif()
fr_add_script_test(clang_build LABELS clang SKIP TIMEOUT 1800
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/clang.sh ${CMAKE_BINARY_DIR}/clang)
