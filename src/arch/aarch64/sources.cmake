# SPDX-License-Identifier: MIT
# AArch64's files, named relative to src/: C for fastraw_core, the exported stubs (*.S) for the shared library.
set(FR_ARCH_SOURCES arch/armfam/cpu.c arch/armfam/cpu_name.c arch/aarch64/midr.c
  arch/aarch64/dl_stub.S arch/aarch64/syscall_stub.S)
# The Debian package architecture.
set(FR_ARCH_DEB arm64)
# Compiler options of the library's code: atomics inline (LL/SC or LSE as the target allows),
# never libgcc's outline helpers, whose constructor calls getauxval through the PLT, which this
# library interposes, before the library's own start-up.
set(FR_ARCH_COMPILE_OPTIONS -mno-outline-atomics)
# The oldest compilers it accepts: -mno-outline-atomics's floor (GCC 10, Clang 12), above the
# default; built here with Debian 12's GCC only.
set(FR_ARCH_CC_MIN GNU 10 Clang 12)
