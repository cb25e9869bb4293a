# SPDX-License-Identifier: MIT
# Cross-building libfastraw for aarch64 Linux on an x86-64 Debian/Ubuntu machine:
#   cmake -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# needs gcc-aarch64-linux-gnu and libc6-dev-arm64-cross (scripts/aarch64.sh installs them). The
# test suite also needs Check for arm64: FASTRAW_SYSROOT names a folder holding Debian's arm64
# check and libsubunit packages unpacked (dpkg -x), which scripts/aarch64.sh fetches; programs
# built here run under qemu-aarch64-static (CMAKE_CROSSCOMPILING_EMULATOR), which has no vDSO.
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(FR_CROSS_TRIPLE aarch64-linux-gnu)
set(FR_CROSS_DEB arm64)
set(FR_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
