/* SPDX-License-Identifier: MIT */
/* The pre-5.3 gtod page: which layout a kernel release has, and one seqcount-consistent read of it. */
#include "kdata/gtod.h"

#include <stddef.h>

#include "arch/arch.h"
#include "base/access.h"

/*
 * Known releases only: 3.10-3.19, 4.0-4.20, 5.0-5.2. The gtod layout changed from the 3.10 one
 * (seqcount_t, then a clock struct starting at +8) to the 3.16 one (unsigned seq, vclock_mode at
 * +4) at 3.15 or 3.16: docs/kernel-data.md §2.2 leaves that boundary unverified, so 3.15 is
 * given the 3.10 layout here and fr_gtod_read's plausibility checks must catch a wrong guess.
 * Distribution kernels ("3.10.0-*.el7") may carry later vDSO backports (unverified): a
 * 3.16-layout page read as 3.10 is rejected (its "mode" is half of cycle_last), so a caller can
 * try FR_GTOD_4_X.
 */
int fr_gtod_era_for_release(const char *release)
{
	unsigned v[2] = { 0, 0 };
	const char *p = release;

	/* vsyscall_gtod_data is x86's: elsewhere no release has it (FR_ARCH_HAS_GTOD). */
	if (!p || !FR_ARCH_HAS_GTOD)
		return -1;
	for (int i = 0; i < 2; i++) {
		int digits = 0;

		if (i && *p++ != '.')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (++digits > 3)
				return -1;
			v[i] = v[i] * 10 + (unsigned)(*p - '0');
		}
		if (!digits)
			return -1;
	}
	if (v[0] == 3 && v[1] >= 10 && v[1] <= 15)
		return FR_GTOD_3_10;
	if ((v[0] == 3 && v[1] >= 16 && v[1] <= 19) || (v[0] == 4 && v[1] <= 19))
		return FR_GTOD_4_X;
	if ((v[0] == 4 && v[1] == 20) || (v[0] == 5 && v[1] <= 2))
		return FR_GTOD_4_20;
	return -1;
}

/*
 * struct vsyscall_gtod_data (arch/x86/include/asm/vgtod.h) at vvar+128, the fields a seed needs:
 *   3.10 (upstream 3.10.25): seqcount_t seq (4 bytes there), then a clock struct whose u64
 *     members align it to 8: vclock_mode 8, cycle_last 16, mask 24, mult 32, shift 36. Later
 *     seqcount_t grew a lockdep map under CONFIG_DEBUG_LOCK_ALLOC: a debug kernel still on this
 *     layout would move every field, and the checks below are what catch it.
 *   3.16-4.19 and 4.20-5.2: unsigned seq 0, int vclock_mode 4, cycle_last 8, mask 16, mult 24,
 *     shift 28 (4.20 replaced the time fields after shift with basetime[]).
 * Clock modes (VCLOCK_*): NONE 0 and TSC 1 in every era; 2 and 3 were HPET and PVCLOCK up to 4.6,
 * PVCLOCK and HVCLOCK (from 4.11) after the HPET mode went in 4.7 (4.4.190 stable too). Nothing
 * above 3 exists before 5.3, so only the TSC test depends on the number.
 */
struct gtod_layout {
	uint8_t mode, cycle_last, mask, mult, shift;
	uint32_t max_mode;
};

static const struct gtod_layout gtod_layouts[] = {
	[FR_GTOD_3_10] = { .mode = 8, .cycle_last = 16, .mask = 24, .mult = 32, .shift = 36, .max_mode = 3 },
	[FR_GTOD_4_X] = { .mode = 4, .cycle_last = 8, .mask = 16, .mult = 24, .shift = 28, .max_mode = 3 },
	[FR_GTOD_4_20] = { .mode = 4, .cycle_last = 8, .mask = 16, .mult = 24, .shift = 28, .max_mode = 3 },
};

#define GTOD_OFFSET 128
#define GTOD_MODE_TSC 1
/*
 * A writer holds seq odd for well under a microsecond: this bound is never reached but by a
 * stuck page. Each round waits up to FR_SEQ_SPINS looks while seq is odd.
 */
#define GTOD_ROUNDS (4096 / FR_SEQ_SPINS)

const char *fr_gtod_read(const volatile uint8_t *page, enum fr_gtod_era era, struct fr_gtod *out)
{
	const struct gtod_layout *l;
	const volatile uint8_t *g;
	struct fr_gtod v = { 0 };
	int settled = 0;

	*out = v;
	if (!page)
		return "no gtod page";
	if ((unsigned)era >= sizeof(gtod_layouts) / sizeof(gtod_layouts[0]))
		return "unknown gtod era";
	l = &gtod_layouts[era];
	g = page + GTOD_OFFSET;
	for (int i = 0; i < GTOD_ROUNDS && !settled; i++) {
		uint32_t seq = fr_seq_begin(g);

		if (seq & 1)
			continue;
		v.mode = FR_LD32(g + l->mode);
		v.cycle_last = FR_LD64(g + l->cycle_last);
		v.mask = FR_LD64(g + l->mask);
		v.mult = FR_LD32(g + l->mult);
		v.shift = FR_LD32(g + l->shift);
		settled = !fr_seq_retry(g, seq);
	}
	if (!settled)
		return "gtod seq never settled (odd or changing)";
	/* The values read are kept for diagnostics even when rejected; tsc is set only when accepted. */
	*out = v;
	if (v.mode > l->max_mode)
		return "unknown clock mode in the gtod page for this kernel era";
	if (v.shift >= 64)
		return "implausible shift in the gtod page (>= 64)";
	if (v.mode == GTOD_MODE_TSC && v.mult == 0)
		return "implausible mult in the gtod page (0 with clock mode TSC)";
	/* The TSC clocksource's mask is CLOCKSOURCE_MASK(64) in every kernel. */
	if (v.mode == GTOD_MODE_TSC && v.mask != ~0ULL)
		return "implausible mask in the gtod page (not ~0 with clock mode TSC)";
	out->tsc = v.mode == GTOD_MODE_TSC;
	return NULL;
}
