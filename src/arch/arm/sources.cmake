# SPDX-License-Identifier: MIT
# 32-bit ARM's files, named relative to src/: C for fastraw_core, the exported stubs for the shared library; its Debian architecture.
set(FR_ARCH_CORE_SOURCES arch/arm/cpu.c arch/arm/cpu_name.c)
set(FR_ARCH_LIB_SOURCES arch/arm/dl_stub.S arch/arm/syscall_stub.S)
# The Debian package architecture.
set(FR_ARCH_DEB armhf)
# Compiler options of the library's code: Thumb-2, the stubs' own state too, so that their tail
# branches into C need no interworking. The architecture is armhf's own, ARMv7-A with VFP (the
# generic timer's mrrc, dmb, ldrexd are ARMv7's).
set(FR_ARCH_COMPILE_OPTIONS -mthumb)
# The oldest compilers it accepts: GNU C11 and -fno-plt as everywhere; built here with Debian 12's GCC only.
set(FR_ARCH_CC_MIN_GNU 8)
set(FR_ARCH_CC_MIN_Clang 11)
