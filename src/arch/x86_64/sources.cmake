# SPDX-License-Identifier: MIT
# x86-64's files, named relative to src/: C for fastraw_core, the exported stubs for the shared library; its Debian architecture.
set(FR_ARCH_CORE_SOURCES arch/x86_64/absref.c arch/x86_64/cpu.c arch/x86_64/cpu_name.c)
set(FR_ARCH_LIB_SOURCES arch/x86_64/dl_stub.S arch/x86_64/syscall_stub.S)
# The Debian package architecture.
set(FR_ARCH_DEB amd64)
# Compiler options of the library's code: none of its own.
set(FR_ARCH_COMPILE_OPTIONS)
# The oldest compilers it accepts: the code needs GNU C11 (__atomic builtins, ifunc, asm, the
# visibility pragma) and -fno-plt (GCC 6, Clang 3.9); proven on x86-64 with Debian 11's GCC 9.3
# and Clang 11 (tests/install/oldtools.sh), so those are the floor.
set(FR_ARCH_CC_MIN_GNU 9)
set(FR_ARCH_CC_MIN_Clang 11)
