/* SPDX-License-Identifier: MIT */
/* Calibrated mode's estimator: a counter-to-RAW line fitted to kernel sandwiches (the slewing is in calib_slew.c). */
#include "calib/calib_math.h"

/*
 * This runs inside the host process, possibly in a signal handler: integer arithmetic only, no
 * allocation, lock, system call or floating point.
 *
 * A sandwich is a hard fact: the kernel returned `ns` for some counter value between tsc_before
 * and tsc_after. Taken at its midpoint it is an interval, ns +- half the width (plus the kernel's
 * rounding), that holds RAW. Sandwiches are grouped into windows of one refresh period; the
 * tightest of each is committed when a sandwich arrives a full period after the window began.
 * That sandwich competes too, so the one a reader takes after a pause is committed at once.
 *
 * The committed estimate (the anchor) is the intersection of the new sandwich's interval with
 * the previous anchor carried forward at the rate, whose interval grows by the rate's error bound
 * and a drift allowance. Both hold RAW, so the intersection does too, and it is usually much
 * narrower than any one sandwich. An intersection that is empty by far, or twice in a short
 * while, means the counter no longer runs at the rate we believe (migration to another host, a
 * clocksource change): the rate is then measured afresh from this sandwich on instead of across
 * the step, and the estimate is not ready until that measurement is good enough.
 *
 * The rate is the slope from an old anchor (the base) to the newest. The base moves forward to a
 * tighter anchor as soon as that bounds the rate better, and once it is max_baseline behind, to
 * one at least half that old, so the rate follows the slow drift between the counter's crystal
 * and the kernel clocksource's. Long baselines matter: after a pause the first reading is the old
 * line carried across the whole pause, so the rate's error times the pause must fit the bound.
 */

#define ONE ((uint64_t)1 << FR_CAL_FRAC)

/* Before any rate is known, widths and the refresh period are converted at 1 ns per tick. */
#define DEFAULT_MULT ONE

/*
 * How fast the counter's rate relative to RAW may change, in ppb per second (0.3 ppm a minute;
 * two crystals in one box drift apart more slowly). The drift allowance bounds how far RAW bends
 * away from the rate measured over the baseline. Larger, it would keep the anchor loose and
 * predict errors no line has; faster drift only makes the anchor miss now and then, which costs
 * nothing but that commit's narrowing.
 */
#define DRIFT_PPB_PER_S 5

/*
 * Ready also needs the line to stay within the bound this many refresh periods ahead: a reader
 * may be served from it while only wide sandwiches come, one a period, and early in the warm-up
 * the rate's error, not the offset's, is what grows.
 */
#define READY_PERIODS 5

/*
 * Misses this many commits apart are one cause (a small frequency step: the rate is off a little,
 * again and again); rarer ones are drift a little faster than DRIFT_PPB_PER_S.
 */
#define MISS_MEMORY 8

/* The kernel's rounding and ours, where a counter span becomes nanoseconds. */
#define ROUND_NS 2

/* Uncertainties saturate here, far from any sum that could overflow an int64_t. */
#define BIG_NS ((int64_t)1 << 61)

void fr_cal_defaults(struct fr_cal_params *p)
{
	p->bound_ns = 2000;
	p->budget_ns = 1000;
	p->refresh_ns = 100 * 1000 * 1000;
	p->min_baseline_ns = 50 * 1000 * 1000;
	p->max_baseline_ns = 60LL * 1000 * 1000 * 1000;
	p->max_slew_ppm = 500;
	p->max_width_ns = 20 * 1000;
}

static int64_t sat(fr_u128 v)
{
	return fr_u128_gt64(v, (uint64_t)BIG_NS) ? BIG_NS : (int64_t)fr_u128_lo(v);
}

static int64_t ticks_ns(uint64_t ticks, uint64_t mult)
{
	return sat(fr_u128_shr(fr_u128_mul(ticks, mult), FR_CAL_FRAC));
}

static int64_t ticks_ns_up(uint64_t ticks, uint64_t mult)
{
	return sat(fr_u128_shr(fr_u128_add64(fr_u128_mul(ticks, mult), ONE - 1), FR_CAL_FRAC));
}

/* A relative bound (32.32) applied to a span of nanoseconds, rounded up; span is sign-extended. */
static int64_t scale_up(int64_t span, uint64_t rel)
{
	return sat(fr_u128_shr(fr_u128_add64(fr_u128_mul_w(fr_u128_of_s(span), rel), ONE - 1), FR_CAL_FRAC));
}

/*
 * How far RAW can bend away from a line whose slope was measured over `baseline` ns, `span` ns
 * past its end: the slope at any instant is within DRIFT * (baseline + span) of the measured one.
 */
static int64_t drift_ns(int64_t baseline, int64_t span)
{
	const uint64_t per = (uint64_t)1000000000 * 1000000000; /* 1e18 < 2^60 */
	fr_u128 v;

	if (baseline < 0)
		baseline = 0;
	if (span <= 0)
		return 0;
	if (baseline > BIG_NS / 2 || span > BIG_NS / 2 || baseline + span > 1000000000000000LL)
		return BIG_NS;
	v = fr_u128_mul_w(fr_u128_mul_w(fr_u128_of_s(baseline + span), (uint64_t)span), DRIFT_PPB_PER_S);
	return sat(fr_u128_div64(fr_u128_add64(v, per - 1), per));
}

static uint64_t width(const struct fr_cal_point *pt)
{
	return pt->tsc_after - pt->tsc_before;
}

static uint64_t midpoint(const struct fr_cal_point *pt)
{
	return pt->tsc_before + width(pt) / 2;
}

/* The counter-to-ns conversion for widths and the refresh period. */
static uint64_t conv_mult(const struct fr_cal_est *e)
{
	if (e->mult)
		return e->mult;
	return e->seed_mult ? e->seed_mult : DEFAULT_MULT;
}

static struct fr_cal_mark mark_of(const struct fr_cal_point *pt, uint64_t mult)
{
	struct fr_cal_mark m;
	uint64_t w = width(pt);

	m.tsc = midpoint(pt);
	m.ns = pt->ns;
	m.hw = w - w / 2; /* the midpoint's distance to the farther end */
	m.unc_ns = ticks_ns_up(m.hw, mult) + ROUND_NS;
	return m;
}

/* A sandwich's own uncertainty, converted again once a measured rate replaces the guess. */
static void reconvert(struct fr_cal_mark *m, uint64_t mult)
{
	if (m->hw)
		m->unc_ns = ticks_ns_up(m->hw, mult) + ROUND_NS;
}

void fr_cal_est_init(struct fr_cal_est *e, const struct fr_cal_params *p, uint64_t seed_mult)
{
	*e = (struct fr_cal_est){ .seed_mult = seed_mult, .err_ns = -1 };
	if (p)
		e->p = *p;
	else
		fr_cal_defaults(&e->p);
}

uint64_t fr_cal_est_refresh_ticks(const struct fr_cal_est *e)
{
	int64_t r = e->p.refresh_ns > 0 ? e->p.refresh_ns : 1;
	fr_u128 t = fr_u128_div64(fr_u128_shl(fr_u128_of_s(r), FR_CAL_FRAC), conv_mult(e));

	if (fr_u128_is0(t))
		return 1;
	return fr_u128_gt64(t, UINT64_MAX) ? UINT64_MAX : fr_u128_lo(t);
}

/* Forget the rate's measurement (not its value) and start again from m. */
static void restart(struct fr_cal_est *e, const struct fr_cal_mark *m, int keep_rate)
{
	e->base = *m;
	e->anchor = *m;
	e->have_anchor = 1;
	e->have_next_base = 0;
	e->rate_measured = 0;
	e->rate_unc = 0;
	e->err_ns = -1;
	e->ready = 0;
	e->missed = 0;
	e->recovering = keep_rate && e->mult != 0;
	e->restarts++;
}

static fr_s128 clamp128(fr_s128 v, fr_s128 lo, fr_s128 hi)
{
	return fr_s128_lt(v, lo) ? lo : fr_s128_lt(hi, v) ? hi : v;
}

/* The larger and the smaller of two. */
static fr_s128 max128(fr_s128 a, fr_s128 b)
{
	return fr_s128_lt(b, a) ? a : b;
}

static fr_s128 min128(fr_s128 a, fr_s128 b)
{
	return fr_s128_lt(a, b) ? a : b;
}

/*
 * Intersects m's interval with the anchor carried forward to m's counter value and makes the
 * result the anchor; returns 1. Where they miss, the anchor was held too tightly (the clocks
 * drifted faster than allowed for) and m alone is taken. A miss by far more than the intervals'
 * widths is a step: returns 0. A second miss within MISS_MEMORY commits is a small step or
 * faster drift, which cannot be told apart: returns -1. In both the anchor is then m alone.
 *
 * The anchor is the middle of what remains, except where that is still wider than the budget
 * (one wide sandwich after a pause, or at a step): then it moves from the carried-forward line
 * only as far as the sandwich forces, as a good line is likely much better than its worst case.
 */
static int narrow(struct fr_cal_est *e, const struct fr_cal_mark *m)
{
	const struct fr_cal_mark *a = &e->anchor;
	int64_t span = ticks_ns(m->tsc - a->tsc, e->mult);
	fr_s128 pred = fr_s128_add(fr_s128_of(a->ns), fr_s128_of(span));
	fr_s128 unc = fr_s128_add(fr_s128_add(fr_s128_of(a->unc_ns), fr_s128_of(scale_up(span, e->rate_unc))),
				  fr_s128_add(fr_s128_of(drift_ns(a->ns - e->base.ns, span)), fr_s128_of(ROUND_NS)));
	fr_s128 mns = fr_s128_of(m->ns), munc = fr_s128_of(m->unc_ns);
	fr_s128 mlo = fr_s128_sub(mns, munc), mhi = fr_s128_add(mns, munc);
	fr_s128 lo = max128(fr_s128_sub(pred, unc), mlo);
	fr_s128 hi = min128(fr_s128_add(pred, unc), mhi);
	fr_s128 dist = fr_s128_lt(mns, pred) ? fr_s128_sub(pred, mns) : fr_s128_sub(mns, pred), mid, both;
	int ret = 1;

	if (fr_s128_lt(hi, lo)) {
		both = fr_s128_add(unc, munc);
		ret = fr_s128_lt(fr_s128_add(both, both), dist) ? 0 : e->missed ? -1 : 1;
		e->missed = MISS_MEMORY;
		lo = mlo;
		hi = mhi;
	} else if (e->missed) {
		e->missed--;
	}
	mid = fr_s128_lt(fr_s128_mul(2, e->p.budget_ns), fr_s128_sub(hi, lo))
		      ? clamp128(pred, lo, hi)
		      : fr_s128_add(lo, fr_s128_half(fr_s128_sub(hi, lo)));
	e->anchor.tsc = m->tsc;
	e->anchor.ns = fr_s128_lo(mid);
	e->anchor.unc_ns = fr_s128_lo(max128(fr_s128_sub(hi, mid), fr_s128_sub(mid, lo)));
	e->anchor.hw = fr_s128_eq(mid, mns) && fr_s128_eq(lo, mlo) && fr_s128_eq(hi, mhi) ? m->hw : 0;
	return ret;
}

/*
 * The rate from the base to the anchor, and its bound. After a restart on repeated small misses
 * the rate changes only as far as the fresh measurement forces, until ready again: the old rate
 * is then likely much better than a short baseline's worst case (drift, not a step), and a pause
 * right after such a restart must not carry a short baseline's error far.
 */
static void measure(struct fr_cal_est *e, int64_t baseline)
{
	uint64_t dt = e->anchor.tsc - e->base.tsc;
	fr_u128 m = fr_u128_div64(fr_u128_add64(fr_u128_shl(fr_u128_of_s(baseline), FR_CAL_FRAC), dt / 2), dt);
	fr_u128 u, dev = fr_u128_of(0);
	uint64_t center;

	center = fr_u128_is0(m) ? 1 : fr_u128_gt64(m, UINT64_MAX / 2) ? UINT64_MAX / 2 : fr_u128_lo(m);
	if (!e->rate_measured) {
		reconvert(&e->base, center);
		reconvert(&e->anchor, center);
		reconvert(&e->next_base, center);
	}
	u = fr_u128_shl(fr_u128_of_s(e->anchor.unc_ns + e->base.unc_ns), FR_CAL_FRAC);
	u = fr_u128_div64(fr_u128_add64(u, (uint64_t)baseline - 1), (uint64_t)baseline);
	if (fr_u128_gt64(u, UINT64_MAX))
		u = fr_u128_of(UINT64_MAX);
	if (e->recovering && e->mult) {
		/* u fits 64 bits here, so the product is exact in 128. */
		fr_s128 w = fr_s128_of_u(fr_u128_shr(fr_u128_mul(center, fr_u128_lo(u)), FR_CAL_FRAC));
		fr_s128 c = fr_s128_of_u(fr_u128_of(center));
		fr_s128 r = clamp128(fr_s128_of_u(fr_u128_of(e->mult)), fr_s128_sub(c, w), fr_s128_add(c, w));

		e->mult = fr_s128_lt(r, fr_s128_of(1)) ? 1 : (uint64_t)fr_s128_lo(r);
		dev = fr_u128_of(e->mult > center ? e->mult - center : center - e->mult);
		dev = fr_u128_div64(fr_u128_add64(fr_u128_shl(dev, FR_CAL_FRAC), center - 1), center);
	} else {
		e->mult = center;
	}
	u = fr_u128_add(u, dev);
	e->rate_unc = fr_u128_gt64(u, UINT64_MAX) ? UINT64_MAX : fr_u128_lo(u);
	e->rate_measured = 1;
}

/*
 * The predicted error of the target line `periods` refresh periods after `closing`, the counter
 * value of the sandwich that committed it (the anchor may be older: the window's tightest).
 */
static int64_t predict(const struct fr_cal_est *e, uint64_t closing, unsigned int periods)
{
	int64_t lag = closing > e->anchor.tsc ? ticks_ns(closing - e->anchor.tsc, e->mult) : 0;
	int64_t h = sat(fr_u128_add(fr_u128_of_s(lag), fr_u128_mul((uint64_t)e->p.refresh_ns, periods)));

	return sat(fr_u128_add64(fr_u128_add64(fr_u128_of_s(e->anchor.unc_ns), (uint64_t)scale_up(h, e->rate_unc)),
				 (uint64_t)drift_ns(e->anchor.ns - e->base.ns, h)));
}

/* Whether the rate from x to the anchor has at most the error bound of the rate from y. */
static int rate_bound_le(const struct fr_cal_est *e, const struct fr_cal_mark *x, const struct fr_cal_mark *y)
{
	int64_t bx = e->anchor.ns - x->ns, by = e->anchor.ns - y->ns;

	if (bx < e->p.min_baseline_ns || bx <= 0)
		return 0;
	if (by < e->p.min_baseline_ns || by <= 0)
		return 1;
	return !fr_s128_lt(fr_s128_mul(e->anchor.unc_ns + y->unc_ns, bx), fr_s128_mul(e->anchor.unc_ns + x->unc_ns, by));
}

/*
 * The base moves to the candidate when that bounds the rate at least as well (a tight anchor
 * soon beats the warm-up's first sandwich), or when the base is max_baseline behind and the
 * candidate half that. The candidate is the tightest anchor of the base's first half span, so
 * the baseline stays between half and all of max_baseline once warm.
 */
static void move_base(struct fr_cal_est *e)
{
	int64_t half = e->p.max_baseline_ns / 2;

	if (e->have_next_base && (rate_bound_le(e, &e->next_base, &e->base) ||
				  (e->anchor.ns - e->base.ns > e->p.max_baseline_ns &&
				   e->anchor.ns - e->next_base.ns >= half))) {
		e->base = e->next_base;
		e->have_next_base = 0;
	}
	if (e->anchor.tsc == e->base.tsc)
		return;
	if (!e->have_next_base ||
	    (e->anchor.unc_ns < e->next_base.unc_ns && e->anchor.ns - e->base.ns <= half)) {
		e->next_base = e->anchor;
		e->have_next_base = 1;
	}
}

static int commit(struct fr_cal_est *e, const struct fr_cal_point *c, uint64_t closing)
{
	struct fr_cal_mark m = mark_of(c, conv_mult(e));
	int64_t baseline;
	int r;

	e->newest = *c;
	e->commits++;
	if (!e->have_anchor) {
		e->base = m;
		e->anchor = m;
		e->have_anchor = 1;
		return 0;
	}
	if (!e->rate_measured) {
		e->anchor = m;
	} else if ((r = narrow(e, &m)) <= 0) {
		restart(e, &e->anchor, r < 0);
		return 1;
	}

	move_base(e);
	baseline = e->anchor.ns - e->base.ns;
	if (baseline >= e->p.min_baseline_ns && baseline > 0 && e->anchor.tsc > e->base.tsc)
		measure(e, baseline);
	if (!e->mult)
		return 0;
	e->err_ns = e->rate_measured ? predict(e, closing, 1) : -1;
	e->ready = e->rate_measured && e->err_ns <= e->p.budget_ns &&
		   predict(e, closing, READY_PERIODS) <= e->p.bound_ns;
	if (e->ready)
		e->recovering = 0;
	return 1;
}

/* Start again from pt, whose counter value is behind the newest committed sandwich's. */
static int restart_at(struct fr_cal_est *e, const struct fr_cal_point *pt)
{
	struct fr_cal_mark m = mark_of(pt, conv_mult(e));

	e->points++;
	e->newest = *pt;
	e->have_window = 1;
	e->window_start = m.tsc;
	e->have_best = 0;
	restart(e, &m, 0);
	return e->mult != 0;
}

int fr_cal_est_add(struct fr_cal_est *e, const struct fr_cal_point *pt)
{
	struct fr_cal_point c;
	uint64_t w, m;

	if (pt->tsc_after < pt->tsc_before)
		return 0;
	w = width(pt);
	if (ticks_ns_up(w, conv_mult(e)) > e->p.max_width_ns)
		return 0;
	m = midpoint(pt);
	if (e->have_anchor) {
		if (m <= midpoint(&e->newest)) {
			/*
			 * An earlier counter value with a clearly later RAW (more than two sandwiches
			 * can overlap): the counter went back. Start again from here, or every later
			 * sandwich would be thrown away and the line never corrected.
			 */
			if (!fr_s128_lt(fr_s128_mul(2, e->p.max_width_ns),
					fr_s128_sub(fr_s128_of(pt->ns), fr_s128_of(e->newest.ns))))
				return 0;
			return restart_at(e, pt);
		}
		if (pt->ns < e->newest.ns)
			return 0;
	}
	e->points++;
	if (!e->have_window) {
		e->have_window = 1;
		e->window_start = m;
		e->best = *pt;
		e->have_best = 1;
		return 0;
	}
	if (m < e->window_start || m - e->window_start < fr_cal_est_refresh_ticks(e)) {
		if (!e->have_best || w <= width(&e->best)) {
			e->best = *pt;
			e->have_best = 1;
		}
		return 0;
	}
	c = e->have_best && width(&e->best) < w ? e->best : *pt;
	e->window_start = m;
	e->have_best = 0;
	return commit(e, &c, m);
}

int fr_cal_est_ready(const struct fr_cal_est *e)
{
	return e->ready;
}

void fr_cal_est_target(const struct fr_cal_est *e, struct fr_cal_line *out)
{
	out->tsc0 = e->anchor.tsc;
	out->ns0 = e->anchor.ns;
	out->mult = e->mult;
}

int64_t fr_cal_est_error_ns(const struct fr_cal_est *e)
{
	return e->rate_measured ? e->err_ns : -1;
}
