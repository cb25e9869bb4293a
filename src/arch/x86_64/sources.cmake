# SPDX-License-Identifier: MIT
# x86-64's files, named relative to src/: C for fastraw_core, the exported stubs for the shared library; its Debian architecture.
set(FR_ARCH_CORE_SOURCES arch/x86_64/cpu.c arch/x86_64/cpu_name.c)
set(FR_ARCH_LIB_SOURCES arch/x86_64/dl_stub.S arch/x86_64/syscall_stub.S)
# The Debian package architecture.
set(FR_ARCH_DEB amd64)
# Compiler options of the library's code: none of its own.
set(FR_ARCH_COMPILE_OPTIONS)
