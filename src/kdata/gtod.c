/* SPDX-License-Identifier: MIT */
/* The pre-5.3 gtod page: the layout a kernel release implies, the one a page holds, and one seqcount-consistent read of it. */
#include "kdata/gtod.h"

#include <stddef.h>

#include "arch/arch.h"
#include "base/access.h"

/*
 * Known releases only: 3.10-3.19, 4.0-4.20, 5.0-5.2. The gtod layout changed from the 3.10 one
 * (seqcount_t, then a clock struct starting at +8) to the 3.16 one (unsigned seq, vclock_mode at
 * +4) at 3.15 or 3.16: docs/kernel-data.md §2.2 leaves that boundary unverified, so 3.15 is
 * given the 3.10 layout here and fr_gtod_read's plausibility checks must catch a wrong guess.
 * A release only suggests a layout: distribution kernels may carry later ones under older
 * numbers, and a 3.10 debug kernel moves every field by 32, which is why fr_gtod_read_any lets
 * the page decide.
 */
int fr_gtod_era_for_release(const char *release)
{
	unsigned v[2] = { 0, 0 };
	const char *p = release;

	/* vsyscall_gtod_data is x86's, vdso_data 32-bit ARM's: elsewhere no release has either. */
	if (!p || FR_ARCH_OLD_DATA == FR_OLD_DATA_NONE)
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
	if (FR_ARCH_OLD_DATA == FR_OLD_DATA_ARM)
		return (v[0] == 4 && v[1] >= 1 && v[1] <= 20) || (v[0] == 5 && v[1] <= 4) ? FR_GTOD_ARM_4_1 : -1;
	if (v[0] == 3 && v[1] >= 10 && v[1] <= 15)
		return FR_GTOD_3_10;
	if ((v[0] == 3 && v[1] >= 16 && v[1] <= 19) || (v[0] == 4 && v[1] <= 19))
		return FR_GTOD_4_X;
	if ((v[0] == 4 && v[1] == 20) || (v[0] == 5 && v[1] <= 2))
		return FR_GTOD_4_20;
	return -1;
}

/*
 * struct vsyscall_gtod_data (arch/x86/include/asm/vgtod.h) at vvar+128, the fields a seed needs
 * and those that tell the layouts apart:
 *   3.10 (upstream 3.10.25, and RHEL 7's 3.10.0-*.el7): seqcount_t seq (4 bytes there), then a
 *     clock struct whose u64 members align it to 8: vclock_mode 8, cycle_last 16, mask 24,
 *     mult 32, shift 36; then wall_time_sec 40, wall_time_snsec 48, the monotonic pair, sys_tz 72,
 *     wall_time_coarse {sec 80, nsec 88}, monotonic_time_coarse 96; 112 bytes.
 *   3.10-debug: the same under CONFIG_DEBUG_LOCK_ALLOC, where seqcount_t carries a lockdep map
 *     and is 40 bytes: every field after seq moves by 32 (vclock_mode 40, ..., wall_time_coarse
 *     {sec 112, nsec 120}).
 *   3.16-4.19: unsigned seq 0, int vclock_mode 4, cycle_last 8, mask 16, mult 24, shift 28,
 *     wall_time_snsec 32, wall_time_sec 40, the monotonic pair 48, wall_time_coarse_sec 64,
 *     wall_time_coarse_nsec 72.
 *   4.20-5.2: the same up to shift, then basetime[clock id] {sec, nsec} from 32: REALTIME at
 *     32/40, REALTIME_COARSE (5) at 112/120.
 * Each update writes the realtime base (xtime_sec, xtime_nsec) and its coarse copy (xtime_sec,
 * xtime_nsec >> shift) in one seqcount window, so within one read they agree at the right
 * offsets and almost never at another layout's (docs/kernel-data.md §2.8).
 * Clock modes (VCLOCK_*): NONE 0 and TSC 1 in every era; 2 and 3 were HPET and PVCLOCK up to 4.6,
 * PVCLOCK and HVCLOCK (from 4.11) after the HPET mode went in 4.7 (4.4.190 stable too). RHEL 7
 * keeps HPET 2 and PVCLOCK 3 and adds HVCLOCK 4 (Hyper-V), so its layouts allow 4. Only the TSC
 * test depends on the number.
 */
struct gtod_layout {
	uint8_t mode, cycle_last, mask, mult, shift;
	uint8_t rt_sec, rt_snsec, coarse_sec, coarse_nsec;
	uint32_t max_mode;
	const char *name;
};

static const struct gtod_layout gtod_layouts[FR_GTOD_ERAS] = {
	[FR_GTOD_3_10] = { .mode = 8, .cycle_last = 16, .mask = 24, .mult = 32, .shift = 36, .rt_sec = 40,
			   .rt_snsec = 48, .coarse_sec = 80, .coarse_nsec = 88, .max_mode = 4, .name = "3.10" },
	[FR_GTOD_4_X] = { .mode = 4, .cycle_last = 8, .mask = 16, .mult = 24, .shift = 28, .rt_sec = 40,
			  .rt_snsec = 32, .coarse_sec = 64, .coarse_nsec = 72, .max_mode = 3, .name = "3.16-4.19" },
	[FR_GTOD_4_20] = { .mode = 4, .cycle_last = 8, .mask = 16, .mult = 24, .shift = 28, .rt_sec = 32,
			   .rt_snsec = 40, .coarse_sec = 112, .coarse_nsec = 120, .max_mode = 3, .name = "4.20-5.2" },
	[FR_GTOD_3_10_DEBUG] = { .mode = 40, .cycle_last = 48, .mask = 56, .mult = 64, .shift = 68, .rt_sec = 72,
				 .rt_snsec = 80, .coarse_sec = 112, .coarse_nsec = 120, .max_mode = 4,
				 .name = "3.10-debug" },
};

#define GTOD_OFFSET 128
#define GTOD_MODE_TSC 1
#define GTOD_NSEC_PER_SEC 1000000000ULL
/*
 * A writer holds seq odd for well under a microsecond: this bound is never reached but by a
 * stuck page. Each round waits up to FR_SEQ_SPINS looks while seq is odd.
 */
#define GTOD_ROUNDS (4096 / FR_SEQ_SPINS)

const char *fr_gtod_era_name(int era)
{
	if (era == FR_GTOD_ARM_4_1)
		return "arm-4.1-5.4";
	return era >= 0 && era < FR_GTOD_ERAS ? gtod_layouts[era].name : "?";
}

const char *fr_gtod_read(const volatile uint8_t *page, enum fr_gtod_era era, struct fr_gtod *out)
{
	const struct gtod_layout *l;
	const volatile uint8_t *g;
	struct fr_gtod v = { 0 };
	int settled = 0;

	*out = v;
	if (!page)
		return "no gtod page";
	if ((unsigned)era >= FR_GTOD_ERAS)
		return "unknown gtod era";
	l = &gtod_layouts[era];
	g = page + GTOD_OFFSET;
	v.era = (int)era;
	for (int i = 0; i < GTOD_ROUNDS && !settled; i++) {
		uint32_t seq = fr_seq_begin(g);

		if (seq & 1)
			continue;
		v.mode = FR_LD32(g + l->mode);
		v.cycle_last = FR_LD64(g + l->cycle_last);
		v.mask = FR_LD64(g + l->mask);
		v.mult = FR_LD32(g + l->mult);
		v.shift = FR_LD32(g + l->shift);
		v.rt_sec = FR_LD64(g + l->rt_sec);
		v.rt_snsec = FR_LD64(g + l->rt_snsec);
		v.coarse_sec = FR_LD64(g + l->coarse_sec);
		v.coarse_nsec = FR_LD64(g + l->coarse_nsec);
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
	/* The kernel keeps xtime_nsec below a second, so the coarse copy is under 10^9 too. */
	if (v.coarse_sec != v.rt_sec || v.coarse_nsec != v.rt_snsec >> v.shift || v.coarse_nsec >= GTOD_NSEC_PER_SEC)
		return "the gtod page is not of this layout (its realtime base and coarse copy disagree)";
	out->tsc = v.mode == GTOD_MODE_TSC;
	return NULL;
}

const char *fr_gtod_read_any(const volatile uint8_t *page, int release_era, struct fr_gtod *out)
{
	return fr_gtod_read_among(page, release_era, FR_GTOD_ALL_LAYOUTS, out);
}

const char *fr_gtod_read_among(const volatile uint8_t *page, int release_era, unsigned eras, struct fr_gtod *out)
{
	struct fr_gtod v, first = { 0 };
	const char *why, *release_why = NULL;
	int fits = 0, release_fits = 0;

	for (int era = 0; era < FR_GTOD_ERAS; era++) {
		if (!(eras >> era & 1))
			continue;
		why = fr_gtod_read(page, (enum fr_gtod_era)era, &v);
		if (era == release_era)
			release_why = why;
		if (why)
			continue;
		if (!fits++)
			first = v;
		if (era == release_era) {
			release_fits = 1;
			*out = v;
		}
	}
	if (release_fits)
		return NULL;
	if (fits == 1) {
		*out = first;
		return NULL;
	}
	/* Nothing (or several layouts, none the release's) fits: report what the release's read saw. */
	if (release_era >= 0 && release_era < FR_GTOD_ERAS)
		fr_gtod_read(page, (enum fr_gtod_era)release_era, out);
	else
		*out = (struct fr_gtod){ .era = -1 };
	out->tsc = 0;
	if (fits)
		return "the gtod page fits more than one layout, none its release's";
	return release_why ? release_why : "the gtod page fits no known layout";
}

int fr_gtod_layout_differs(int release_era, const struct fr_gtod *g)
{
	return release_era >= 0 && g->era >= 0 && g->era != release_era;
}
