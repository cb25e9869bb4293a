# SPDX-License-Identifier: MIT
# AArch64's files, named relative to src/: C for fastraw_core, the exported stubs for the shared library; its Debian architecture.
set(FR_ARCH_CORE_SOURCES arch/aarch64/cpu.c arch/aarch64/cpu_name.c)
set(FR_ARCH_LIB_SOURCES arch/aarch64/dl_stub.S arch/aarch64/syscall_stub.S)
# The Debian package architecture.
set(FR_ARCH_DEB arm64)
# Compiler options of the library's code: atomics inline (LL/SC or LSE as the target allows),
# never libgcc's outline helpers, whose constructor calls getauxval through the PLT, which this
# library interposes, before the library's own start-up.
set(FR_ARCH_COMPILE_OPTIONS -mno-outline-atomics)
# The oldest compilers it accepts: GNU C11 and -fno-plt as everywhere, and -mno-outline-atomics
# (GCC 10, Clang 12): its flag's floor, built here with Debian 12's GCC only.
set(FR_ARCH_CC_MIN_GNU 10)
set(FR_ARCH_CC_MIN_Clang 12)
