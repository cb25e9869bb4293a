/* SPDX-License-Identifier: MIT */
/* The ARM CPUs' delta rule, lib/vdso's masked one in every era: the reader pairs generic code builds, and a vDSO-code question that never arises. */
#ifndef FR_ARMFAM_ABI_H
#define FR_ARMFAM_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * The generic vDSO masks cycles - cycle_last with the clocksource's mask (56 bits here): one
 * rule in every era, no max_cycles before the fields (field shift 0: neither CPU selects
 * GENERIC_VDSO_OVERFLOW_PROTECT). FR_ARCH_READERS: one reader pair per counter read, under the
 * names perf and gdb show (exact/fastpath.c defines them).
 */
#define FR_ARCH_DELTA_MASKED 1
#define FR_ARCH_READERS(X)                                                       \
	X(raw_masked_unordered, now_masked_unordered, FR_RULES_MASKED, 0, unordered) \
	X(raw_masked_fenced, now_masked_fenced, FR_RULES_MASKED, 0, fenced)          \
	X(raw_masked_ordered, now_masked_ordered, FR_RULES_MASKED, 0, ordered)

/* Whether vDSO code masks the counter with S64_MAX: the eras share one delta rule, never asked. */
static inline int fr_arch_code_masks_counter(const uint8_t *p, size_t n)
{
	(void)p;
	(void)n;
	return 0;
}

#pragma GCC visibility pop

#endif
