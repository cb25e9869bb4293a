# SPDX-License-Identifier: MIT
# The 32-bit ARM (armhf) port, tested from the x86-64 build: a cross build of the whole tree
# (scripts/armhf.sh), its unit suites under qemu-arm-static, and its kernel matrix (armhf guests
# under qemu-system-arm -M virt, the end-to-end suites and the oracle inside). Each entry runs the
# cross build's own CTest entries; it skips (77) with the reason when the cross tools, Debian's
# armhf packages or the cross build cannot be had.
if(CMAKE_CROSSCOMPILING OR NOT FR_ARCH STREQUAL "x86_64" OR FASTRAW_SANITIZE)
  return()
endif()

set(fr_armhf ${CMAKE_BINARY_DIR}/armhf)
fr_add_script_test(armhf_build LABELS armhf SKIP TIMEOUT 1800
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/armhf.sh ${fr_armhf})

# The cross build's CTest, with one label or test; 77 when there is no cross build.
fr_add_script_test(armhf_unit LABELS armhf SKIP TIMEOUT 1800
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/armhf.sh --ctest ${fr_armhf} -L ^unit$ -j2)
fr_add_script_test(armhf_matrix LABELS armhf matrix SKIP TIMEOUT 3600 SERIAL
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/armhf.sh --ctest ${fr_armhf} -R ^kernel_matrix$)
# The armhf .deb: the cross build's install_deb (cpack's package, its files and control data,
# Architecture: armhf and a libc6 dependency, unpacked, a program preloaded from it under
# qemu-arm-static).
fr_add_script_test(armhf_deb LABELS armhf install SKIP TIMEOUT 600
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/armhf.sh --ctest ${fr_armhf} -R ^install_deb$)
set_tests_properties(armhf_unit armhf_matrix armhf_deb PROPERTIES DEPENDS armhf_build)
