# SPDX-License-Identifier: MIT
# Cross-building libfastraw for 32-bit ARM Linux (armhf: ARMv7-A, hard float, Thumb-2 by default)
# on an x86-64 Debian/Ubuntu machine:
#   cmake -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/arm-linux-gnueabihf.cmake
# needs gcc-arm-linux-gnueabihf and libc6-dev-armhf-cross (scripts/armhf.sh installs them). The
# test suite also needs Check for armhf: FASTRAW_SYSROOT names a folder holding Debian's armhf
# check and libsubunit packages unpacked (dpkg -x), which scripts/armhf.sh fetches; programs
# built here run under qemu-arm-static (CMAKE_CROSSCOMPILING_EMULATOR), which has no vDSO.
set(CMAKE_SYSTEM_NAME Linux)
# The folder src/arch/arm/ (a native armhf CMake says armv7l; the top-level CMakeLists.txt maps it).
set(CMAKE_SYSTEM_PROCESSOR arm)

set(FR_CROSS_TRIPLE arm-linux-gnueabihf)
find_program(CMAKE_C_COMPILER NAMES ${FR_CROSS_TRIPLE}-gcc ${FR_CROSS_TRIPLE}-gcc-12 REQUIRED)
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})

# The cross libc lives here; the extra sysroot (Check, libsubunit) is searched as well.
set(FASTRAW_SYSROOT "" CACHE PATH "Folder with Debian's armhf check and libsubunit packages unpacked")
set(CMAKE_FIND_ROOT_PATH /usr/${FR_CROSS_TRIPLE} ${FASTRAW_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads only the armhf .pc files of FASTRAW_SYSROOT (tests/CMakeLists.txt, where
# Check is looked up: set here, the environment is not yet in effect on a first configure).
set(FASTRAW_PKG_CONFIG_LIBDIR /usr/lib/${FR_CROSS_TRIPLE}/pkgconfig)

find_program(FR_QEMU_ARM NAMES qemu-arm-static qemu-arm)
if(FR_QEMU_ARM)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FR_QEMU_ARM} -L /usr/${FR_CROSS_TRIPLE})
endif()
