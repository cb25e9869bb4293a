# SPDX-License-Identifier: MIT
# The toolchain for cross-building libfastraw for an ARM Linux on an x86-64 Debian/Ubuntu machine,
# included by the CPU's own toolchain file (aarch64-linux-gnu.cmake, arm-linux-gnueabihf.cmake),
# which sets first: CMAKE_SYSTEM_PROCESSOR (the folder under src/arch/), FR_CROSS_TRIPLE (the GNU
# triple of the compiler and of the cross libc under /usr/), FR_CROSS_DEB (Debian's architecture
# name) and FR_CROSS_QEMU (the user-mode emulator, without -static).
set(CMAKE_SYSTEM_NAME Linux)

find_program(CMAKE_C_COMPILER NAMES ${FR_CROSS_TRIPLE}-gcc ${FR_CROSS_TRIPLE}-gcc-12 REQUIRED)
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})

# The cross libc lives here; the extra sysroot (Check, libsubunit) is searched as well.
set(FASTRAW_SYSROOT "" CACHE PATH "Folder with Debian's ${FR_CROSS_DEB} check and libsubunit packages unpacked")
set(CMAKE_FIND_ROOT_PATH /usr/${FR_CROSS_TRIPLE} ${FASTRAW_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads only the target's .pc files of FASTRAW_SYSROOT (tests/CMakeLists.txt, where
# Check is looked up: set here, the environment is not yet in effect on a first configure).
set(FASTRAW_PKG_CONFIG_LIBDIR /usr/lib/${FR_CROSS_TRIPLE}/pkgconfig)

find_program(FR_CROSS_QEMU_PROGRAM NAMES ${FR_CROSS_QEMU}-static ${FR_CROSS_QEMU})
if(FR_CROSS_QEMU_PROGRAM)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FR_CROSS_QEMU_PROGRAM} -L /usr/${FR_CROSS_TRIPLE})
endif()
