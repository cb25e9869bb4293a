/* SPDX-License-Identifier: MIT */
/* 32-bit ARM's data page of 4.1-5.4 (struct vdso_data): whether a page holds it, and one seqcount-consistent read. */
#include "kdata/armdata.h"

#include "arch/arch.h"
#include "base/access.h"

/*
 * struct vdso_data of arch/arm/include/asm/vdso_datapage.h, 4.1 to 5.4 (the generic vDSO
 * replaced it in 5.5), at +0 of the one [vvar] page directly below [vdso]; EABI aligns u64 to 8:
 *   u32 seq_count 0, u16 tk_is_cntvct 4, u16 cs_shift 6, u32 xtime_coarse_sec 8,
 *   u32 xtime_coarse_nsec 12, u32 wtm_clock_sec 16, u32 wtm_clock_nsec 20,
 *   u32 xtime_clock_sec 24, u32 cs_mult 28, u64 cs_cycle_last 32, u64 cs_mask 40,
 *   u64 xtime_clock_snsec 48, u32 tz_minuteswest 56, u32 tz_dsttime 60; 64 bytes.
 * update_vsyscall (arch/arm/kernel/vdso.c) writes tk_is_cntvct, the coarse pair and
 * wall-to-monotonic in every update, and the clock fields (cycle_last, xtime_clock_sec and
 * _snsec, mult, shift, mask) only while tk_is_cntvct is 1, from the same timekeeper fields as
 * the coarse pair: then xtime_coarse_sec == xtime_clock_sec and xtime_coarse_nsec ==
 * xtime_clock_snsec >> cs_shift within one read. cs_mult is tkr_mono.mult, the NTP-adjusted
 * one: a seed, not RAW's mult. There is no RAW data at all.
 */
#define AD_SEQ 0
#define AD_CNTVCT 4
#define AD_SHIFT 6
#define AD_COARSE_SEC 8
#define AD_COARSE_NSEC 12
#define AD_WTM_NSEC 20
#define AD_CLOCK_SEC 24
#define AD_MULT 28
#define AD_CYCLE_LAST 32
#define AD_MASK 40
#define AD_SNSEC 48

#define AD_NSEC_PER_SEC 1000000000u
/*
 * The arch timer's clocksource mask is CLOCKSOURCE_MASK(56) in 4.x (drivers/clocksource/
 * arm_arch_timer.c); later kernels widen it with the counter: any 2^n - 1 with n from 56 to 64.
 */
#define AD_MASK_MIN_BITS 56
/* A writer holds seq odd for well under a microsecond: only a stuck page reaches this bound. */
#define AD_ROUNDS (4096 / FR_SEQ_SPINS)

static int mask_plausible(uint64_t mask)
{
	return (mask & (mask + 1)) == 0 && mask >> (AD_MASK_MIN_BITS - 1) != 0;
}

const char *fr_armdata_read(const volatile uint8_t *page, struct fr_gtod *out)
{
	struct fr_gtod v = { .era = FR_GTOD_ARM_4_1 };
	uint32_t wtm_nsec = 0;
	int settled = 0;

	*out = (struct fr_gtod){ .era = -1 };
	if (!page)
		return "no [vvar] page";
	for (int i = 0; i < AD_ROUNDS && !settled; i++) {
		uint32_t seq = fr_seq_begin(page + AD_SEQ);

		if (seq & 1)
			continue;
		v.mode = FR_LD16(page + AD_CNTVCT);
		v.shift = FR_LD16(page + AD_SHIFT);
		v.coarse_sec = FR_LD32(page + AD_COARSE_SEC);
		v.coarse_nsec = FR_LD32(page + AD_COARSE_NSEC);
		wtm_nsec = FR_LD32(page + AD_WTM_NSEC);
		v.rt_sec = FR_LD32(page + AD_CLOCK_SEC);
		v.mult = FR_LD32(page + AD_MULT);
		v.cycle_last = FR_LD64(page + AD_CYCLE_LAST);
		v.mask = FR_LD64(page + AD_MASK);
		v.rt_snsec = FR_LD64(page + AD_SNSEC);
		settled = !fr_seq_retry(page + AD_SEQ, seq);
	}
	if (!settled)
		return "the [vvar] seq never settled (odd or changing)";
	/* The values read are kept for diagnostics even when rejected; tsc is set only when accepted. */
	*out = v;
	if (v.mode > 1)
		return "the [vvar] page is not 32-bit ARM's vdso_data (tk_is_cntvct neither 0 nor 1)";
	if (v.coarse_nsec >= AD_NSEC_PER_SEC || wtm_nsec >= AD_NSEC_PER_SEC)
		return "the [vvar] page is not 32-bit ARM's vdso_data (a nanosecond field of a second or more)";
	/* tk_is_cntvct 0: the clock fields are stale or never written, and the kernel has said no. */
	if (!v.mode)
		return NULL;
	if (v.shift == 0 || v.shift >= 64 || v.mult == 0)
		return "implausible mult or shift in the [vvar] page";
	if (!mask_plausible(v.mask))
		return "implausible mask in the [vvar] page (not 2^n - 1 with n of 56 or more)";
	if (v.coarse_sec != v.rt_sec || v.coarse_nsec != v.rt_snsec >> v.shift)
		return "the [vvar] page is not 32-bit ARM's vdso_data (its clock base and coarse copy disagree)";
	out->tsc = 1;
	return NULL;
}
