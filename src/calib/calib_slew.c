/* SPDX-License-Identifier: MIT */
/* Calibrated mode's slewing: the published line readers follow from where it is toward a new target, without a step. */
#include "calib/calib_math.h"

/* Integer arithmetic only, as in calib_math.c: this runs inside the host process, possibly in a signal handler. */

/* How far the slewing line still is from target at t, positive until they meet. */
static fr_s128 gap(const struct fr_cal_line *target, const struct fr_cal_line *slew, uint64_t t, int neg)
{
	fr_s128 g = fr_s128_sub(fr_s128_of(fr_cal_line_at(target, t)), fr_s128_of(fr_cal_line_at(slew, t)));

	return neg ? fr_s128_neg(g) : g;
}

/*
 * The slewing segment runs at the full max_slew_ppm, so it meets target as early as allowed.
 * tsc_end is where it meets: a counter value at which the gap is still open one tick before and
 * closed at it. While both slopes are at most one nanosecond a tick, values move by 0 or 1 ns a
 * tick, so the gap closes to exactly 0 there and `after`, which starts at the slewing segment's
 * own value at tsc_end, then follows target to within the 1 ns of their different rounding.
 *
 * A huge e (a suspend the counter ran through, a clocksource change) is slewed like a small one.
 * Stepping forward would not be a backward step, but every interval a reader measured across it
 * would contain the jump, and a jump cannot be told from a mistake; slewing keeps every interval
 * within max_slew_ppm of the rate. A caller that knows no reader can have seen cur near tsc_now
 * (it was left unused for much longer than its refresh period) may start afresh with cur == NULL.
 */
void fr_cal_slew(const struct fr_cal_published *cur, const struct fr_cal_line *target,
		 uint64_t tsc_now, uint32_t max_slew_ppm, struct fr_cal_published *out)
{
	uint64_t mt = target->mult ? target->mult : 1, dm, lo, hi;
	fr_u128 span;
	fr_s128 e;
	int neg;

	if (!cur) {
		out->slew = *target;
		out->after = *target;
		out->tsc_end = target->tsc0;
		return;
	}
	out->slew.tsc0 = tsc_now;
	out->slew.ns0 = fr_cal_at(cur, tsc_now);
	out->slew.mult = mt;
	e = fr_s128_sub(fr_s128_of(fr_cal_line_at(target, tsc_now)), fr_s128_of(out->slew.ns0));
	neg = fr_s128_lt(e, fr_s128_of(0));
	dm = fr_u128_lo(fr_u128_div64(fr_u128_mul(mt, max_slew_ppm), 1000000));
	if (neg && dm >= mt)
		dm = mt - 1; /* the slope stays positive */
	if (!neg && dm > UINT64_MAX - mt)
		dm = UINT64_MAX - mt;
	if (fr_s128_eq(e, fr_s128_of(0)) || dm == 0) {
		/* Met already, or no slewing allowed: follow target's slope from here. */
		out->tsc_end = tsc_now;
		out->after = out->slew;
		return;
	}
	out->slew.mult = neg ? mt - dm : mt + dm;

	/*
	 * After n ticks the slewing line has gained n * dm / 2^32 ns on target; the two lines'
	 * rounding moves the gap by less than 3 ns. So the gap is closed after the span below.
	 */
	span = fr_u128_add64(
		fr_u128_div64(fr_u128_shl(fr_u128_add64(fr_s128_to_u(neg ? fr_s128_neg(e) : e), 3), FR_CAL_FRAC), dm), 1);
	if (fr_u128_gt64(span, UINT64_MAX - tsc_now)) {
		out->tsc_end = UINT64_MAX;
		out->after = out->slew;
		return;
	}
	lo = tsc_now;
	hi = tsc_now + fr_u128_lo(span);
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (fr_s128_lt(fr_s128_of(0), gap(target, &out->slew, mid, neg)))
			lo = mid;
		else
			hi = mid;
	}
	out->tsc_end = hi;
	out->after.tsc0 = hi;
	out->after.ns0 = fr_cal_line_at(&out->slew, hi);
	out->after.mult = mt;
}
