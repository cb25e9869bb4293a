# SPDX-License-Identifier: MIT
# Cross-building libfastraw for 32-bit ARM Linux (armhf: ARMv7-A, hard float, Thumb-2 by default)
# on an x86-64 Debian/Ubuntu machine:
#   cmake -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/arm-linux-gnueabihf.cmake
# needs gcc-arm-linux-gnueabihf and libc6-dev-armhf-cross (scripts/armhf.sh installs them). The
# test suite also needs Check for armhf: FASTRAW_SYSROOT names a folder holding Debian's armhf
# check and libsubunit packages unpacked (dpkg -x), which scripts/armhf.sh fetches; programs
# built here run under qemu-arm-static (CMAKE_CROSSCOMPILING_EMULATOR), which has no vDSO.
# The folder src/arch/arm/ (a native armhf CMake says armv7l; the top-level CMakeLists.txt maps it).
set(CMAKE_SYSTEM_PROCESSOR arm)
set(FR_CROSS_TRIPLE arm-linux-gnueabihf)
set(FR_CROSS_DEB armhf)
set(FR_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
