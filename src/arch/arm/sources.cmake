# SPDX-License-Identifier: MIT
# 32-bit ARM's files, named relative to src/: C for fastraw_core, the exported stubs for the shared library; its Debian architecture.
set(FR_ARCH_CORE_SOURCES arch/arm/cpu.c arch/arm/cpu_name.c)
# aeabi.c is an object of the shared library itself: from an archive it would come too late to
# stand in for libgcc's hooks (nothing before libgcc refers to them).
set(FR_ARCH_LIB_SOURCES arch/arm/dl_stub.S arch/arm/syscall_stub.S arch/arm/aeabi.c)
# The Debian package architecture.
set(FR_ARCH_DEB armhf)
# Compiler options of the library's code: Thumb-2, the stubs' own state too, so that their tail
# branches into C need no interworking. The architecture is armhf's own, ARMv7-A with VFP (the
# generic timer's mrrc, dmb, ldrexd are ARMv7's).
set(FR_ARCH_COMPILE_OPTIONS -mthumb)
# The oldest compilers it accepts: GNU C11 and -fno-plt as everywhere; built here with Debian 12's GCC only.
set(FR_ARCH_CC_MIN_GNU 8)
set(FR_ARCH_CC_MIN_Clang 11)
# Every file of the tree, the library, its tools and its tests, is built with 64-bit time_t and
# off_t, as Debian's armhf is from trixie: the library computes and carries 64-bit seconds, its
# 64-bit-time entry (__clock_gettime64) is its main one, and the 32-bit-time clock_gettime is a
# conversion of it (interpose/interpose_time32.c), EOVERFLOW past 2038 as glibc's. The library
# imports no libc function that has a 64-bit-time twin, so it loads under glibc 2.31 too.
add_compile_definitions(_TIME_BITS=64 _FILE_OFFSET_BITS=64)
# FR_ARCH_TIME64: the export list with __clock_gettime64 (src/CMakeLists.txt), and the exports
# test's (tests/unit.cmake). arch/arm/abi.h's FR_ARCH_HAS_TIME64 says the same to the C code.
set(FR_ARCH_TIME64 ON)
