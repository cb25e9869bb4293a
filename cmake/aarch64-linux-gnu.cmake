# SPDX-License-Identifier: MIT
# Cross-building libfastraw for aarch64 Linux on an x86-64 Debian/Ubuntu machine:
#   cmake -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# needs gcc-aarch64-linux-gnu and libc6-dev-arm64-cross (scripts/aarch64.sh installs them). The
# test suite also needs Check for arm64: FASTRAW_SYSROOT names a folder holding Debian's arm64
# check and libsubunit packages unpacked (dpkg -x), which scripts/aarch64.sh fetches; programs
# built here run under qemu-aarch64-static (CMAKE_CROSSCOMPILING_EMULATOR), which has no vDSO.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(FR_CROSS_TRIPLE aarch64-linux-gnu)
find_program(CMAKE_C_COMPILER NAMES ${FR_CROSS_TRIPLE}-gcc ${FR_CROSS_TRIPLE}-gcc-12 REQUIRED)
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})

# The cross libc lives here; the extra sysroot (Check, libsubunit) is searched as well.
set(FASTRAW_SYSROOT "" CACHE PATH "Folder with Debian's arm64 check and libsubunit packages unpacked")
set(CMAKE_FIND_ROOT_PATH /usr/${FR_CROSS_TRIPLE} ${FASTRAW_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads only the arm64 .pc files of FASTRAW_SYSROOT (tests/CMakeLists.txt, where
# Check is looked up: set here, the environment is not yet in effect on a first configure).
set(FASTRAW_PKG_CONFIG_LIBDIR /usr/lib/${FR_CROSS_TRIPLE}/pkgconfig)

find_program(FR_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(FR_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FR_QEMU_AARCH64} -L /usr/${FR_CROSS_TRIPLE})
endif()
