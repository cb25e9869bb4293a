/* SPDX-License-Identifier: MIT */
/* AArch64's ABI facts generic code needs: the vDSO's names and clock modes, how IFUNC resolvers are called, the ELF machine, the read barrier. */
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

/* The architecture as uname and the launcher's messages name it, and its ELF e_machine. */
#define FR_ARCH_NAME "aarch64"
#define FR_ARCH_ELF_MACHINE EM_AARCH64

/*
 * The vDSO data page's clock_mode values that mean "read the counter" (the kernel's
 * VDSO_CLOCKMODE_ARCHTIMER and VDSO_CLOCKMODE_ARCHTIMER_NOCOMPAT, arch/arm64/include/asm/
 * vdso/clocksource.h, 5.7+; NOCOMPAT only tells 32-bit tasks to take the system call, a
 * 64-bit task reads the counter in both; 5.3-5.6 numbered the field otherwise, 0 for the
 * counter). arm64 has no paravirtual clock modes: the two pvclock/hvclock numbers are ones no
 * clock_mode ever holds.
 */
#define FR_ARCH_MODE_COUNTER 1
#define FR_ARCH_MODE_COUNTER_ALT 2
#define FR_ARCH_MODE_PVCLOCK (-1)
#define FR_ARCH_MODE_HVCLOCK (-1)
#define FR_ARCH_MODE_LAST 2
#define FR_ARCH_MODE_NAMES [1] = "archtimer", [2] = "archtimer_nocompat"
/*
 * arm64's vDSO reads the counter in every clock mode but none (its __arch_get_hw_counter and
 * lib/vdso's vdso_clocksource_ok test VDSO_CLOCKMODE_NONE only): one test, as the kernel's.
 * Start-up still refuses a page whose mode is above FR_ARCH_MODE_LAST (kdata/kdata.c).
 */
#define FR_ARCH_MODE_ANY_COUNTER 1
/* No vclock pages below the data page (x86's pvclock and Hyper-V pages have no arm64 kin). */
#define FR_ARCH_HAS_VCLOCK 0
/*
 * The generic vDSO masks cycles - cycle_last with the clocksource's mask (56 bits here): one
 * rule in every era, no max_cycles before the fields (field shift 0). FR_ARCH_READERS: one reader
 * pair per counter read, under the names perf and gdb show (exact/fastpath.c defines them).
 */
#define FR_ARCH_DELTA_MASKED 1
#define FR_ARCH_READERS(X)                                                       \
	X(raw_masked_unordered, now_masked_unordered, FR_RULES_MASKED, 0, unordered) \
	X(raw_masked_fenced, now_masked_fenced, FR_RULES_MASKED, 0, fenced)          \
	X(raw_masked_ordered, now_masked_ordered, FR_RULES_MASKED, 0, ordered)
/* arm64 never had the pre-generic x86 vsyscall_gtod_data layout, nor its fixed-address page. */
/* One clock_gettime, with a 64-bit time_t: no second, 64-bit-time entry to interpose. */
#define FR_ARCH_HAS_TIME64 0
#define FR_ARCH_HAS_GTOD 0
/* 32-bit ARM's pre-5.5 vdso_data (kdata/armdata.h) is no kernel's of this CPU. */
#define FR_ARCH_HAS_ARMDATA 0
#define FR_ARCH_GTOD_FIXED_PAGE 0ULL

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
#define FR_ARCH_IFUNC_ARG_HWCAP (1ULL << 62)

/*
 * What an IFUNC symbol binds to, the resolver called as glibc's loader calls it. The chain walk
 * may resolve one before this object is relocated, so the hwcaps the loader used come from the
 * auxiliary vector by raw system calls (arch/auxv.h), never through libc's GOT entry.
 */
static inline void *fr_arch_ifunc_call(void *resolver)
{
	struct fr_arch_ifunc_arg arg = { sizeof(arg), fr_auxval_raw(AT_HWCAP), fr_auxval_raw(AT_HWCAP2) };

	return ((void *(*)(uint64_t, const struct fr_arch_ifunc_arg *))resolver)(arg.hwcap | FR_ARCH_IFUNC_ARG_HWCAP,
										   &arg);
}

/*
 * The seqcount protocol's read barrier (the kernel's smp_rmb on arm64): earlier loads complete
 * before later ones, inner-shareable domain, loads only.
 */
#define fr_arch_rmb() __asm__ volatile("dmb ishld" ::: "memory")

/* Whether vDSO code masks the counter with S64_MAX: arm64's eras share one delta rule, never asked. */
static inline int fr_arch_code_masks_counter(const uint8_t *p, size_t n)
{
	(void)p;
	(void)n;
	return 0;
}

#pragma GCC visibility pop

#endif
