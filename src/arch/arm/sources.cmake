# SPDX-License-Identifier: MIT
# 32-bit ARM's files, named relative to src/: C for fastraw_core, the exported stubs and the EABI's division hooks (*.S) for the shared library.
set(FR_ARCH_SOURCES arch/armfam/cpu.c arch/armfam/cpu_name.c arch/arm/midr.c
  arch/arm/dl_stub.S arch/arm/syscall_stub.S arch/arm/aeabi.S)
# The Debian package architecture.
set(FR_ARCH_DEB armhf)
# Compiler options of the library's code: Thumb-2, the stubs' own state too, so that their tail
# branches into C need no interworking. The architecture is armhf's own, ARMv7-A with VFP (the
# generic timer's mrrc, dmb, ldrexd are ARMv7's). The default compiler floor; built here with
# Debian 12's GCC only.
set(FR_ARCH_COMPILE_OPTIONS -mthumb)
