# SPDX-License-Identifier: MIT
# x86-64's files, named relative to src/: C for fastraw_core, the exported stubs (*.S) for the shared library.
set(FR_ARCH_SOURCES arch/x86_64/absref.c arch/x86_64/cpu.c arch/x86_64/cpu_name.c
  arch/x86_64/dl_stub.S arch/x86_64/syscall_stub.S)
# The Debian package architecture.
set(FR_ARCH_DEB amd64)
# No compiler options of its own, and the default compiler floor (the top-level CMakeLists.txt).
