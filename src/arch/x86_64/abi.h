/* SPDX-License-Identifier: MIT */
/* x86-64's ABI facts generic code needs: the vDSO's names, how IFUNC resolvers are called, the ELF machine, the read barrier. */
#ifndef FR_X86_64_ABI_H
#define FR_X86_64_ABI_H

#include <elf.h>

/* The vDSO's clock_gettime and its symbol version (arch/x86/entry/vdso/vdso.lds.S). */
#define FR_ARCH_VDSO_CLOCK_GETTIME "__vdso_clock_gettime"
#define FR_ARCH_VDSO_VERSION "LINUX_2.6"

/* The architecture as uname and the launcher's messages name it, and its ELF e_machine. */
#define FR_ARCH_NAME "x86_64"
#define FR_ARCH_ELF_MACHINE EM_X86_64

/* What an IFUNC symbol binds to: glibc's loader calls an x86-64 resolver with no arguments. */
static inline void *fr_arch_ifunc_call(void *resolver)
{
	return ((void *(*)(void))resolver)();
}

/*
 * The seqcount protocol's read barrier (the kernel's smp_rmb): x86-64 never reorders a load
 * with an earlier load, so only the compiler must be kept from it. An empty asm rather than
 * __atomic_signal_fence: the fence lets the compiler move the counter read's own instructions
 * across it, which changes the fast path's code.
 */
#define fr_arch_rmb() __asm__ volatile("" ::: "memory")

#endif
