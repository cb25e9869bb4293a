/* SPDX-License-Identifier: MIT */
/* AArch64's ABI facts generic code needs: the vDSO's names and clock modes, how IFUNC resolvers are called, the read barrier. */
#ifndef FR_AARCH64_ABI_H
#define FR_AARCH64_ABI_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/auxv.h>

#include "arch/aarch64/cpu.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* The vDSO's clock_gettime and its symbol version (arch/arm64/kernel/vdso/vdso.lds.S). */
#define FR_ARCH_VDSO_CLOCK_GETTIME "__kernel_clock_gettime"
#define FR_ARCH_VDSO_VERSION "LINUX_2.6.39"

/*
 * The vDSO data page's clock_mode values (the kernel's VDSO_CLOCKMODE_ARCHTIMER and
 * VDSO_CLOCKMODE_ARCHTIMER_NOCOMPAT, arch/arm64/include/asm/vdso/clocksource.h, 5.7+; NOCOMPAT
 * only tells 32-bit tasks to take the system call, a 64-bit task reads the counter in both;
 * 5.3-5.6 numbered the field otherwise, 0 for the counter). arm64 has no paravirtual clock
 * modes, and no vclock pages below the data page.
 */
#define FR_ARCH_CLOCK_MODES(X, a) X(a, COUNTER, 1, "archtimer") X(a, COUNTER_ALT, 2, "archtimer_nocompat")
/*
 * arm64's vDSO reads the counter in every clock mode but none (its __arch_get_hw_counter and
 * lib/vdso's vdso_clocksource_ok test VDSO_CLOCKMODE_NONE only): one test, as the kernel's.
 * Start-up still refuses a page whose mode is above the last listed (kdata/kdata.c).
 */
#define FR_ARCH_MODE_ANY_COUNTER 1
/* The masked delta, FR_ARCH_DELTA_MASKED and FR_ARCH_READERS: arch/armfam/abi.h, included below. */

/*
 * Every clock but RAW in interpose.c: out of line, since inline the compiler keeps clk and ts in
 * other registers for it on entry, moves the RAW path pays too (measured by single-stepping,
 * docs/performance.md).
 */
#define FR_ARCH_OTHER_CLOCK_INLINE __attribute__((noinline))

/*
 * What glibc's aarch64 loader passes an IFUNC resolver (sysdeps/aarch64/dl-irel.h): the hwcaps
 * with bit 62 (_IFUNC_ARG_HWCAP) set, saying the second argument points to this struct; _size
 * lets a resolver tell how many fields follow (newer glibc appends hwcap3, hwcap4: a resolver
 * reads only what _size covers). The same layout as <sys/ifunc.h>'s __ifunc_arg_t, spelled
 * here so that older headers, and other libcs, need not have it.
 */
struct fr_arch_ifunc_arg {
	uint64_t size;
	uint64_t hwcap;
	uint64_t hwcap2;
};
/* glibc's _IFUNC_ARG_HWCAP: the second argument is the struct above. Local to this file, not a hook. */
#define FR_A64_IFUNC_ARG_HWCAP (1ULL << 62)

/*
 * What an IFUNC symbol binds to, the resolver called as glibc's loader calls it. The chain walk
 * may resolve one before this object is relocated, so the hwcaps the loader used come from the
 * auxiliary vector by raw system calls (arch/auxv.h), never through libc's GOT entry.
 */
static inline void *fr_arch_ifunc_call(void *resolver)
{
	struct fr_arch_ifunc_arg arg = { sizeof(arg), fr_auxval_raw(AT_HWCAP), fr_auxval_raw(AT_HWCAP2) };

	return ((void *(*)(uint64_t, const struct fr_arch_ifunc_arg *))resolver)(arg.hwcap | FR_A64_IFUNC_ARG_HWCAP,
										   &arg);
}

/*
 * The seqcount protocol's read barrier (the kernel's smp_rmb on arm64): earlier loads complete
 * before later ones, inner-shareable domain, loads only.
 */
#define fr_arch_rmb() __asm__ volatile("dmb ishld" ::: "memory")

#pragma GCC visibility pop

#include "arch/armfam/abi.h"

#endif
