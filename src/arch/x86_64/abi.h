/* SPDX-License-Identifier: MIT */
/* x86-64's ABI facts generic code needs: the vDSO's names, how IFUNC resolvers are called, the read barrier. */
#ifndef FR_X86_64_ABI_H
#define FR_X86_64_ABI_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* The vDSO's clock_gettime and its symbol version (arch/x86/entry/vdso/vdso.lds.S). */
#define FR_ARCH_VDSO_CLOCK_GETTIME "__vdso_clock_gettime"
#define FR_ARCH_VDSO_VERSION "LINUX_2.6"

/*
 * The data page's clock_mode values (arch/x86/include/asm/vdso/clocksource.h, 4.11+ values): the
 * counter itself (TSC), then the two paravirtual clocks read from their own pages, with the
 * names FASTRAW_DEBUG and the tools print. x86's vDSO dispatches on the mode: only TSC's value
 * reads the counter (FR_ARCH_MODE_ANY_COUNTER's default).
 */
#define FR_ARCH_CLOCK_MODES(X, a) X(a, COUNTER, 1, "tsc") X(a, PVCLOCK, 2, "pvclock") X(a, HVCLOCK, 3, "hvclock")

/*
 * The vDSO's delta rules: x86 has its own (no clocksource mask: every vDSO clocksource of x86
 * has mask ~0), so the eras' FR_RULES_5_3/6_5/6_10 apply, not the generic masked delta.
 * FR_ARCH_READERS lists one reader pair per rule and counter read, X(raw name, now name, rules,
 * field shift, counter read), the field shift that of the rule's eras (8 where max_cycles precedes
 * the fields, from 6.10); exact/fastpath.c defines them under these names, which perf and gdb show.
 */
#define FR_ARCH_DELTA_MASKED 0
#define FR_ARCH_READERS(X)                                                      \
	X(raw_53_unordered, now_53_unordered, FR_RULES_5_3, 0, unordered)       \
	X(raw_53_fenced, now_53_fenced, FR_RULES_5_3, 0, fenced)                \
	X(raw_53_ordered, now_53_ordered, FR_RULES_5_3, 0, ordered)             \
	X(raw_65_unordered, now_65_unordered, FR_RULES_6_5, 0, unordered)       \
	X(raw_65_fenced, now_65_fenced, FR_RULES_6_5, 0, fenced)                \
	X(raw_65_ordered, now_65_ordered, FR_RULES_6_5, 0, ordered)             \
	X(raw_610_unordered, now_610_unordered, FR_RULES_6_10, 8, unordered)    \
	X(raw_610_fenced, now_610_fenced, FR_RULES_6_10, 8, fenced)             \
	X(raw_610_ordered, now_610_ordered, FR_RULES_6_10, 8, ordered)

/*
 * Whether the n bytes of vDSO code at p mask a 64-bit value with S64_MAX, as 6.5's vDSO does the
 * counter (commit 77750f78b0b3, "x86/vdso: Fix gettimeofday masking", and 6.10's after it) and
 * 5.3-6.4's does nowhere: 1 or 0. GCC writes the mask as "btr $63, r64" (REX.W, 0f ba, ModRM
 * reg 6, 3f: so in Debian's 6.12 and 7.3) or with the constant itself, "movabs
 * $0x7fffffffffffffff, r64" (REX.W b8+r and 8 bytes). The two eras that read the same page,
 * 5.7-6.4 and 6.5-6.9, differ in that alone: a vendor kernel whose release names neither is told
 * by its code (startup/locate.c).
 */
static inline int fr_arch_code_masks_counter(const uint8_t *p, size_t n)
{
	static const uint8_t s64_max[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };

	for (size_t i = 0; i + 5 <= n; i++) {
		if ((p[i] & 0xf8) != 0x48)
			continue;
		if (p[i + 1] == 0x0f && p[i + 2] == 0xba && (p[i + 3] & 0xf8) == 0xf0 && p[i + 4] == 0x3f)
			return 1;
		if ((p[i + 1] & 0xf8) == 0xb8 && i + 10 <= n && __builtin_memcmp(p + i + 2, s64_max, 8) == 0)
			return 1;
	}
	return 0;
}

/*
 * Kernels before 5.3 keep vsyscall_gtod_data (kdata/gtod.h), calibrated mode's seed there; 3.10's
 * vDSO addresses it at a fixed page with absolute operands (fr_arch_abs_refs).
 */
#define FR_ARCH_OLD_DATA FR_OLD_DATA_GTOD

/*
 * Every clock but RAW in interpose.c: inline, its pass-through keeps its shortest form, and
 * x86-64's code for it needs no register moves on the RAW path (docs/performance.md).
 */
#define FR_ARCH_OTHER_CLOCK_INLINE inline __attribute__((always_inline))

/*
 * The section of a static page buffer (base/pages.h): .lbss, the large data model's zeroed
 * section, placed after .bss, so that the buffers leave .bss and the state start-up writes
 * shares the .data page.
 */
#define FR_ARCH_PAGE_SECTION(name) ".lbss." #name

/* glibc's x86-64 loader applies IRELATIVE in every release the library supports (2.17 on). */
#define FR_ARCH_MUSL_GUARD 1

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

#pragma GCC visibility pop

#endif
