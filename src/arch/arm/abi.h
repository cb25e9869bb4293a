/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's ABI facts generic code needs: the vDSO's names and clock modes, how IFUNC resolvers are called, the ELF machine, the read barrier. */
#ifndef FR_ARM_ABI_H
#define FR_ARM_ABI_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/auxv.h>

#include "arch/arm/cpu.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * The vDSO's clock_gettime and its symbol version (arch/arm/vdso/vdso.lds.S). The library is
 * built with 64-bit time_t (sources.cmake), so its vDSO function is the 64-bit-time
 * __vdso_clock_gettime64 (5.5+, the generic vDSO); the 32-bit-time __vdso_clock_gettime (4.1+)
 * is looked up only to be intercepted. The kernel removes both names from the vDSO's symbol
 * table at boot when the virtual counter is unusable (arch/arm/kernel/vdso.c, patch_vdso): no
 * name, no fast path. Before 5.5 there is no __vdso_clock_gettime64 at all.
 */
#define FR_ARCH_VDSO_CLOCK_GETTIME "__vdso_clock_gettime64"
#define FR_ARCH_VDSO_CLOCK_GETTIME32 "__vdso_clock_gettime"
#define FR_ARCH_VDSO_VERSION "LINUX_2.6"

/*
 * The vDSO data page's clock_mode value that means "read the counter": 1 from 5.5 on, first as
 * the clocksource's vdso_direct flag (5.5-5.6), then VDSO_CLOCKMODE_ARCHTIMER (arch/arm/include/
 * asm/vdso/clocksource.h, 5.7+). 0 (none) makes the vDSO take the system call, ARM11 and
 * timers that firmware did not set up among them. No NOCOMPAT mode, no paravirtual modes, no
 * vclock pages. 32-bit ARM's vDSO reads the counter only in mode 1 (its __arch_get_hw_counter
 * refuses every other: FR_ARCH_MODE_ANY_COUNTER's default): the counter is never read unless the
 * page says the kernel's own vDSO reads it.
 */
#define FR_ARCH_CLOCK_MODES(X, a) X(a, COUNTER, 1, "archtimer")
/* The masked delta, FR_ARCH_DELTA_MASKED and FR_ARCH_READERS: arch/armfam/abi.h, included below. */

/*
 * 4.1-5.4 kernels kept struct vdso_data in [vvar] (kdata/armdata.h): calibrated mode's seed and
 * the kernel's word (tk_is_cntvct) that its vDSO reads the counter, without which calibrated mode
 * never reads it (a CPU may have no generic timer).
 */
#define FR_ARCH_OLD_DATA FR_OLD_DATA_ARM

/* Every clock but RAW in interpose.c: out of line, as on arm64 (not measured here yet). */
#define FR_ARCH_OTHER_CLOCK_INLINE __attribute__((noinline))

/*
 * 32-bit glibc keeps a 64-bit-time clock_gettime beside the 32-bit one (__clock_gettime64,
 * GLIBC_2.34), and the vDSO a 64-bit one beside its 32-bit one: the interposers export and
 * look up both (interpose/interpose_time32.c): FR_ARCH_VDSO_CLOCK_GETTIME32 above says so
 * (arch.h's FR_HAS_TIME64).
 */

/*
 * What glibc's arm loader passes an IFUNC resolver (sysdeps/arm/dl-irel.h): AT_HWCAP alone.
 * The chain walk may resolve one before this object is relocated, so the hwcaps come from the
 * auxiliary vector by raw system calls (arch/auxv.h), never through libc's GOT entry.
 */
static inline void *fr_arch_ifunc_call(void *resolver)
{
	return ((void *(*)(unsigned long))resolver)(fr_auxval_raw(AT_HWCAP));
}

/* The seqcount protocol's read barrier: the kernel's smp_rmb on 32-bit ARM SMP is dmb ish. */
#define fr_arch_rmb() __asm__ volatile("dmb ish" ::: "memory")

#pragma GCC visibility pop

#include "arch/armfam/abi.h"

#endif
