# SPDX-License-Identifier: MIT
# The aarch64 port, tested from the x86-64 build: a cross build of the whole tree
# (scripts/aarch64.sh), its unit suites under qemu-aarch64-static, and its kernel matrix (arm64
# guests under qemu-system-aarch64, the end-to-end suites and the oracle inside). Each entry runs
# the cross build's own CTest entries; it skips (77) with the reason when the cross tools,
# Debian's arm64 packages or the cross build cannot be had.
if(CMAKE_CROSSCOMPILING OR NOT FR_ARCH STREQUAL "x86_64" OR FASTRAW_SANITIZE)
  return()
endif()

set(fr_a64 ${CMAKE_BINARY_DIR}/aarch64)
fr_add_script_test(aarch64_build LABELS aarch64 SKIP TIMEOUT 1800
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/aarch64.sh ${fr_a64})

# The cross build's CTest, with one label or test; 77 when there is no cross build.
fr_add_script_test(aarch64_unit LABELS aarch64 SKIP TIMEOUT 1800
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/aarch64.sh --ctest ${fr_a64} -L ^unit$ -j2)
fr_add_script_test(aarch64_matrix LABELS aarch64 matrix SKIP TIMEOUT 3600 SERIAL
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/aarch64.sh --ctest ${fr_a64} -R ^kernel_matrix$)
set_tests_properties(aarch64_unit aarch64_matrix PROPERTIES DEPENDS aarch64_build)
