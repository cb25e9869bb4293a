/* SPDX-License-Identifier: MIT */
/* Calibrated mode's pure core: a counter-to-RAW estimate from kernel sandwiches, and the slewed line readers use. */
#ifndef FR_CALIB_MATH_H
#define FR_CALIB_MATH_H

#include <stdint.h>

#include "math/wide.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Where the kernel exports no RAW base (before 5.3, or a clocksource the vDSO cannot read) the
 * library estimates RAW from the counter: a line ns = ns0 + (tsc - tsc0) * mult / 2^32, fitted
 * to "sandwiches" (counter, CLOCK_MONOTONIC_RAW system call, counter). Nothing here touches a
 * CPU, a page or a system call: the caller feeds points and counter values, so the unit tests
 * drive it with a simulated clock (noise, drift, frequency steps, pauses).
 *
 * Units: counter ticks (u64) and RAW nanoseconds since boot (i64). mult is nanoseconds per tick
 * in 32.32 fixed point (a 3 GHz counter gives mult ~ 1.43e9).
 */

#define FR_CAL_FRAC 32

/* One sandwich: the counter before and after a RAW system call that returned ns. */
struct fr_cal_point {
	uint64_t tsc_before, tsc_after;
	int64_t ns;
};

/* A straight line through (tsc0, ns0) with slope mult (ns per tick, 32.32). */
struct fr_cal_line {
	uint64_t tsc0;
	int64_t ns0;
	uint64_t mult;
};

/*
 * What readers use: the slewing segment `slew` up to tsc_end, then `after` (which passes
 * exactly through the end of the slewing segment, so the whole is continuous and, with both
 * slopes positive, increasing).
 */
struct fr_cal_published {
	struct fr_cal_line slew;
	uint64_t tsc_end;
	struct fr_cal_line after;
};

/* Tunables, in nanoseconds of RAW time unless named otherwise. fr_cal_defaults fills them. */
struct fr_cal_params {
	int64_t bound_ns;        /* promised |ours - kernel| after warm-up: 2000 */
	int64_t budget_ns;       /* the estimate must predict at most this error to leave warm-up */
	int64_t refresh_ns;      /* a reader takes a new sandwich when the newest is this old */
	int64_t min_baseline_ns; /* no rate from points closer together than this */
	int64_t max_baseline_ns; /* the rate's oldest point is replaced once this far behind */
	uint32_t max_slew_ppm;   /* the slewing segment's slope differs from the rate by at most this */
	int64_t max_width_ns;    /* sandwiches wider than this are thrown away (preempted) */
};

void fr_cal_defaults(struct fr_cal_params *p);

/*
 * An estimate of RAW at one counter value: |RAW(tsc) - ns| <= unc_ns. hw is the sandwich's
 * half-width in ticks while unc_ns is still that sandwich's own (0 once narrowed by other points).
 * Part of fr_cal_est's implementation.
 */
struct fr_cal_mark {
	uint64_t tsc;
	int64_t ns;
	int64_t unc_ns;
	uint64_t hw;
};

/* The estimator's whole state: plain data, no pointers, so a forked child keeps a valid copy. */
struct fr_cal_est {
	struct fr_cal_params p;
	uint64_t seed_mult;         /* 0: none */
	/* implementation-defined fields follow; callers only use the functions below */
	struct fr_cal_point best;   /* tightest sandwich of the open window */
	struct fr_cal_point newest; /* the last committed sandwich: later ones may not go back */
	struct fr_cal_mark base;    /* the rate's old end */
	struct fr_cal_mark next_base; /* becomes base once base is max_baseline behind */
	struct fr_cal_mark anchor;  /* the newest committed estimate: the target goes through it */
	uint64_t window_start;      /* midpoint counter value at which the open window began */
	uint64_t mult;              /* the rate, 0 before one (kept, unmeasured, after a restart) */
	uint64_t rate_unc;          /* bound on the rate's relative error, 32.32 */
	int64_t err_ns;             /* predicted error over one refresh period, < 0 while unknown */
	uint8_t have_window, have_best, have_anchor, have_next_base, rate_measured, ready;
	uint8_t missed;             /* commits left during which another miss means a step */
	uint8_t recovering;         /* after a restart, until ready: the rate changes minimally */
	uint32_t points, commits, restarts;
};

/* Starts an estimate. seed_mult (32.32 ns per tick, 0 for none) only shortens the warm-up. */
void fr_cal_est_init(struct fr_cal_est *e, const struct fr_cal_params *p, uint64_t seed_mult);

/*
 * Adds a sandwich. Returns 1 when it changed the target line (fr_cal_est_target then gives the
 * new one), 0 when it was only kept or thrown away.
 */
int fr_cal_est_add(struct fr_cal_est *e, const struct fr_cal_point *pt);

/* 1 once the predicted error fits the budget and the line stays within the bound five refresh
   periods ahead: readers may be served from the line. */
int fr_cal_est_ready(const struct fr_cal_est *e);

/* The line the estimate currently believes (valid after fr_cal_est_add returned 1). */
void fr_cal_est_target(const struct fr_cal_est *e, struct fr_cal_line *out);

/* The predicted error, in ns, of the target line from the sandwich that closed the window to one
   refresh period later; -1 if unknown. */
int64_t fr_cal_est_error_ns(const struct fr_cal_est *e);

/* Refresh period in counter ticks at the current rate (or the seed's; a default before either). */
uint64_t fr_cal_est_refresh_ticks(const struct fr_cal_est *e);

/*
 * The published line that starts at tsc_now from where `cur` is (so no reader sees a step),
 * slews toward `target` with a slope at most max_slew_ppm away from target's, and follows
 * target (within 1 ns of rounding) once it meets it. cur == NULL (first publication, or a step
 * forward the caller chose): `target` itself.
 */
void fr_cal_slew(const struct fr_cal_published *cur, const struct fr_cal_line *target,
		 uint64_t tsc_now, uint32_t max_slew_ppm, struct fr_cal_published *out);

/* The value of a line at tsc (tsc before tsc0 extrapolates backwards). */
static inline int64_t fr_cal_line_at(const struct fr_cal_line *l, uint64_t tsc)
{
	if (tsc >= l->tsc0)
		return l->ns0 + (int64_t)fr_u128_lo(fr_u128_shr(fr_u128_mul(tsc - l->tsc0, l->mult), FR_CAL_FRAC));
	return l->ns0 - (int64_t)fr_u128_lo(fr_u128_shr(fr_u128_mul(l->tsc0 - tsc, l->mult), FR_CAL_FRAC));
}

/* The value readers compute. */
static inline int64_t fr_cal_at(const struct fr_cal_published *p, uint64_t tsc)
{
	return tsc < p->tsc_end ? fr_cal_line_at(&p->slew, tsc) : fr_cal_line_at(&p->after, tsc);
}

/*
 * ns split as the kernel normalises a timespec: nsec in [0, 1e9) whatever the sign, so a
 * negative time (a time namespace's offset can put RAW before zero) has sec < 0, floor(ns / 1e9).
 * C's division truncates toward zero instead.
 */
static inline void fr_cal_split(int64_t ns, int64_t *sec, int64_t *nsec)
{
	int64_t s = ns / 1000000000, r = ns % 1000000000;

	if (r < 0) {
		r += 1000000000;
		s--;
	}
	*sec = s;
	*nsec = r;
}

#pragma GCC visibility pop

#endif
