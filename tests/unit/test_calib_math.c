/* SPDX-License-Identifier: MIT */
/* Unit tests of calib_math.c: the estimator, alone and driving the simulated runtime of calsim.c. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calsim.h"
#include "calib/calib_math.h"
#include "run_suite.h"

static const struct scenario scenarios[] = {
	{ .name = "2.1 GHz, pauses 10 s and 100 s", .ghz = 2.1, .gap_max_us = 400, .run_s = 70,
	  .pauses = { { 20, 10 }, { 40, 100 } }, .npauses = 2, .rng = 0x9e3779b97f4a7c15 },
	{ .name = "3.7 GHz, +37 ppm, pauses 100 s and 10 s", .ghz = 3.7, .drift = { { 0, 37 } }, .ndrift = 1,
	  .gap_max_us = 400, .run_s = 70, .pauses = { { 25, 100 }, { 50, 10 } }, .npauses = 2,
	  .rng = 0xd1b54a32d192ed03 },
	{ .name = "2.1 GHz, drift 17-23 ppb/s, pauses 1 s", .ghz = 2.1,
	  .drift = { { 0, -12 }, { 15, -12 }, { 45, -11.5 }, { 75, -12.2 } }, .ndrift = 4, .gap_max_us = 400,
	  .run_s = 90, .pauses = { { 30, 1 }, { 60, 1 } }, .npauses = 2, .rng = 0x2545f4914f6cdd1d },
	{ .name = "3.7 GHz, calls every 2-5 ms, pauses", .ghz = 3.7, .drift = { { 0, -3 } }, .ndrift = 1,
	  .gap_min_us = 2000, .gap_max_us = 5000, .run_s = 80, .pauses = { { 30, 10 }, { 50, 100 } },
	  .npauses = 2, .rng = 0x94d049bb133111eb },
	{ .name = "2.1 GHz, +50 ppm step at 30 s", .ghz = 2.1, .step_ppm = 50, .step_s = 30, .gap_max_us = 400,
	  .run_s = 70, .rng = 0xbf58476d1ce4e5b9 },
	{ .name = "3.7 GHz, +5 ppm, -200 ppm step at 20 s", .ghz = 3.7, .step_ppm = -200, .step_s = 20,
	  .drift = { { 0, 5 } }, .ndrift = 1, .gap_max_us = 400, .run_s = 65, .rng = 0x632be59bd9b4e019 },
	{ .name = "3.7 GHz, +10 ppm step at 30 s", .ghz = 3.7, .step_ppm = 10, .step_s = 30, .gap_max_us = 400,
	  .run_s = 70, .rng = 0x94d049bb133111eb },
	{ .name = "lazy: 2.1 GHz, pauses 10 s and 100 s", .ghz = 2.1, .gap_max_us = 400, .run_s = 70,
	  .pauses = { { 20, 10 }, { 40, 100 } }, .npauses = 2, .lazy = 1, .rng = 0x2545f4914f6cdd1d },
	{ .name = "lazy: 2.1 GHz, drift, +50 ppm step", .ghz = 2.1, .step_ppm = 50, .step_s = 40,
	  .drift = { { 0, -12 }, { 15, -12 }, { 45, -11.5 } }, .ndrift = 3, .gap_max_us = 400, .run_s = 70,
	  .lazy = 1, .rng = 0xd1b54a32d192ed03 },
	{ .name = "lazy, 4 a period: 3.7 GHz, pauses", .ghz = 3.7, .drift = { { 0, 20 } }, .ndrift = 1,
	  .gap_max_us = 400, .run_s = 70, .pauses = { { 20, 10 }, { 40, 100 } }, .npauses = 2, .lazy = 1,
	  .per_period = 4, .rng = 0x94d049bb133111eb },
	{ .name = "lazy, 4 a period: 2.1 GHz, drift 17 ppb/s", .ghz = 2.1,
	  .drift = { { 0, 20 }, { 20, 20 }, { 80, 21 } }, .ndrift = 3, .gap_max_us = 400, .run_s = 90,
	  .pauses = { { 30, 1 } }, .npauses = 1, .lazy = 1, .per_period = 4, .rng = 0xbf58476d1ce4e5b9 },
	{ .name = "lazy, 4 a period: 3.7 GHz, -200 ppm step", .ghz = 3.7, .step_ppm = -200, .step_s = 20,
	  .gap_max_us = 400, .run_s = 65, .lazy = 1, .per_period = 4, .rng = 0x632be59bd9b4e019 },
};

/*
 * Warm-up within 2 s, never backwards, within the bound once published (but for the 2 s after a
 * frequency step, by which the estimate has restarted and is ready again), no restart at a
 * constant rate. FR_CALIB_SEEDS=N runs each scenario with N seeds instead of one, to look at the
 * tails (and prints what each run saw).
 */
START_TEST(simulated_runtime)
{
	const struct scenario *sc = &scenarios[_i];
	const char *env = getenv("FR_CALIB_SEEDS");
	int seeds = env && atoi(env) > 0 ? atoi(env) : 1;
	struct fr_cal_params p;
	struct outcome o;

	fr_cal_defaults(&p);
	for (int k = 0; k < seeds; k++) {
		sim_run(sc, sc->rng + 0x9e3779b97f4a7c15ULL * (uint64_t)k, &o);
		printf("calib: %-42s seed %d: warm-up %.3f s, worst %4.0f ns (%4.0f after pauses), step: worst "
		       "%5.0f ns, ready again after %.3f s; %ld readings, %ld sandwiches, %u restarts\n",
		       sc->name, k, o.warmup_s, o.worst_ns, o.worst_pause_ns, o.worst_step_ns, o.ready_again_s,
		       o.readings, o.sandwiches, o.restarts);
		ck_assert_msg(o.warmup_s > 0 && o.warmup_s <= 2.0, "%s: warm-up took %.3f s", sc->name, o.warmup_s);
		ck_assert_msg(o.backwards == 0, "%s: %ld readings went backwards", sc->name, o.backwards);
		ck_assert_msg(o.worst_ns <= p.bound_ns, "%s: worst error %.0f ns", sc->name, o.worst_ns);
		ck_assert_msg(o.checked >= (sc->gap_max_us <= 400 ? 300000 : 15000), "%s: %ld readings", sc->name,
			      o.checked);
		if (sc->step_s > 0)
			ck_assert_msg(o.restarts >= 1 && o.ready_again_s > 0 && o.ready_again_s <= 2.0,
				      "%s: %u restarts, ready again after %.3f s", sc->name, o.restarts,
				      o.ready_again_s);
		else if (sc->ndrift <= 1) /* drift faster than the allowance may restart: harmless */
			ck_assert_msg(o.restarts == 0, "%s: %u restarts without a step", sc->name, o.restarts);
	}
	fflush(stdout);
}
END_TEST

/* Feeds one sandwich every 150 ms of a 2.1 GHz clock into estimators seeded differently. */
START_TEST(seed_sets_only_the_refresh_period)
{
	const uint64_t exact = sim_mult_of_ghz(2.1);
	const uint64_t seeds[] = { 0, exact, exact + exact / 10, exact - exact / 5 };
	struct fr_cal_est e[4];
	struct fr_cal_params p;
	struct sim s = { .f1 = 2.1, .f2 = 2.1, .step_ns = 1e30, .tsc0 = 1e12, .raw0 = 4e11 };
	uint64_t rng = 77;
	int ready_at = -1;

	fr_cal_defaults(&p);
	for (int i = 0; i < 4; i++) {
		fr_cal_est_init(&e[i], &p, seeds[i]);
		ck_assert_uint_eq(fr_cal_est_refresh_ticks(&e[i]),
				  i == 0 ? (uint64_t)p.refresh_ns
					 : fr_u128_lo(fr_u128_div64(fr_u128_shl(fr_u128_of((uint64_t)p.refresh_ns), FR_CAL_FRAC), seeds[i])));
		ck_assert_int_eq(fr_cal_est_error_ns(&e[i]), -1);
	}
	ck_assert_uint_ne(fr_cal_est_refresh_ticks(&e[0]), fr_cal_est_refresh_ticks(&e[2]));
	for (int n = 0; n < 40; n++) {
		double T = 150e6 * n;
		struct fr_cal_point pt;
		struct fr_cal_line t0, ti;
		int r0;

		pt.tsc_before = sim_tsc(&s, T);
		pt.tsc_after = sim_tsc(&s, T + 1000 + 2000 * sim_unif(&rng));
		pt.ns = (int64_t)sim_raw(&s, T + 1000 * sim_unif(&rng));
		r0 = fr_cal_est_add(&e[0], &pt);
		fr_cal_est_target(&e[0], &t0);
		for (int i = 1; i < 4; i++) {
			ck_assert_int_eq(fr_cal_est_add(&e[i], &pt), r0);
			ck_assert_int_eq(fr_cal_est_ready(&e[i]), fr_cal_est_ready(&e[0]));
			ck_assert_int_eq(fr_cal_est_error_ns(&e[i]), fr_cal_est_error_ns(&e[0]));
			if (r0) {
				fr_cal_est_target(&e[i], &ti);
				ck_assert(memcmp(&ti, &t0, sizeof(ti)) == 0);
			}
			if (fr_cal_est_error_ns(&e[0]) >= 0)
				ck_assert_uint_eq(fr_cal_est_refresh_ticks(&e[i]), fr_cal_est_refresh_ticks(&e[0]));
		}
		if (ready_at < 0 && fr_cal_est_ready(&e[0]))
			ready_at = n;
	}
	/* Once measured, the period is the measured rate's, near 2.1 GHz. */
	ck_assert_int_ge(ready_at, 2);
	ck_assert_uint_ge(fr_cal_est_refresh_ticks(&e[0]), 209990000);
	ck_assert_uint_le(fr_cal_est_refresh_ticks(&e[0]), 210010000);
}
END_TEST

/* An estimator warmed on an exact 3 GHz clock, one 1 us sandwich every 110 ms; returns the counter. */
static uint64_t warm(struct fr_cal_est *e, uint64_t t, int n)
{
	for (int i = 0; i < n; i++, t += 330000000) {
		struct fr_cal_point pt = sim_read_at(t, 3000, 0.5);

		fr_cal_est_add(e, &pt);
	}
	return t;
}

START_TEST(bad_sandwiches_change_nothing)
{
	struct fr_cal_est e, before;
	struct fr_cal_point bad, good, newest;
	uint64_t t;

	fr_cal_est_init(&e, NULL, 0);
	t = warm(&e, 3000000000000ULL, 30);
	newest = sim_read_at(t - 330000000, 3000, 0.5);
	ck_assert(fr_cal_est_ready(&e));
	before = e;
	good = sim_read_at(t, 3000, 0.5);

	bad = good; /* the counter read after the call is below the one before */
	bad.tsc_after = bad.tsc_before - 1;
	ck_assert_int_eq(fr_cal_est_add(&e, &bad), 0);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);

	bad = sim_read_at(t, 60001, 0.5); /* 20.0003 us: preempted */
	ck_assert_int_eq(fr_cal_est_add(&e, &bad), 0);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);

	bad = good; /* RAW before the newest committed sandwich's */
	bad.ns = newest.ns - 1;
	ck_assert_int_eq(fr_cal_est_add(&e, &bad), 0);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);

	/* An earlier counter value (a racing thread's stale sandwich), RAW barely later. */
	bad = sim_read_at(newest.tsc_before - 10, 3000, 0.5);
	bad.ns = newest.ns + 500;
	ck_assert_int_eq(fr_cal_est_add(&e, &bad), 0);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);

	/* Just under the width limit, and the same good sandwich: both would commit. */
	bad = sim_read_at(t, 59997, 0.5);
	ck_assert_int_eq(fr_cal_est_add(&e, &bad), 1);
	e = before;
	ck_assert_int_eq(fr_cal_est_add(&e, &good), 1);
	ck_assert(memcmp(&e, &before, sizeof(e)) != 0);
	ck_assert(fr_cal_est_ready(&e));
}
END_TEST

/*
 * A 100 ppm step after 30 s: the rate is measured afresh (not ready for a while), and within 2 s
 * the target's slope is the new rate, not an average across the step.
 */
START_TEST(step_restarts_the_rate)
{
	const double new_mult = TWO32 / 3.0 * (1 + 100e-6);
	struct fr_cal_est e;
	struct fr_cal_line tg;
	uint64_t t0 = 3000000000000ULL, t;
	int lost = 0, again = -1;

	fr_cal_est_init(&e, NULL, 0);
	t = warm(&e, t0, 91);
	ck_assert(fr_cal_est_ready(&e));
	for (int i = 0; i < 2000 && again < 0; i++, t += 3000000) { /* a sandwich every 1 ms */
		struct fr_cal_point pt = sim_read_at(t, 3000, 0.5);

		/* RAW gains 100 ppm from t (counter units) on. */
		pt.ns += (int64_t)((double)(t + 1500 - (t0 + 91 * 330000000ULL)) / 3.0 * 100e-6);
		fr_cal_est_add(&e, &pt);
		lost |= !fr_cal_est_ready(&e);
		if (lost && fr_cal_est_ready(&e))
			again = i;
	}
	ck_assert_int_eq(lost, 1);
	ck_assert_msg(again > 0 && again < 2000, "ready again after %d ms", again);
	fr_cal_est_target(&e, &tg);
	ck_assert_msg(tg.mult > new_mult * (1 - 3e-6) && tg.mult < new_mult * (1 + 3e-6), "mult %llu, want %.0f",
		      (unsigned long long)tg.mult, new_mult);
}
END_TEST

/*
 * A wide sandwich (15 us) that is the first after a 100 s pause, read at its very start: it must
 * not pull a good line 7.5 us away, only as far as it forces.
 */
START_TEST(wide_sandwich_after_a_pause)
{
	struct fr_cal_est e;
	struct fr_cal_point pt;
	struct fr_cal_line tg;
	uint64_t t = 3000000000000ULL, rng = 99;

	fr_cal_est_init(&e, NULL, 0);
	for (int i = 0; i < 600; i++, t += 330000000) {
		pt = sim_read_at(t, 3000 + sim_xs(&rng) % 6000, sim_unif(&rng));
		fr_cal_est_add(&e, &pt);
	}
	ck_assert(fr_cal_est_ready(&e));
	t += 300000000000ULL;
	pt = sim_read_at(t, 45000, 0);
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 1);
	fr_cal_est_target(&e, &tg);
	ck_assert_msg(llabs(fr_cal_line_at(&tg, t + 22500) - sim_exact_ns(t + 22500)) < 1500, "%lld ns off",
		      (long long)(fr_cal_line_at(&tg, t + 22500) - sim_exact_ns(t + 22500)));
	/* The next tight sandwich makes it ready again. */
	t += 330000000;
	pt = sim_read_at(t, 3000, 0.3);
	fr_cal_est_add(&e, &pt);
	ck_assert(fr_cal_est_ready(&e));
}
END_TEST

/*
 * The first window's sandwiches all read at their ends (0.5 us late at their midpoints): once
 * later sandwiches have narrowed the anchor, the base moves off that first one, so the rate after
 * 20 s is good to a few ppb (not 500 ns / 20 s = 25 ppb).
 */
START_TEST(rate_leaves_a_poor_first_base)
{
	struct fr_cal_est e;
	struct fr_cal_point pt;
	struct fr_cal_line tg;
	uint64_t t = 3000000000000ULL, rng = 5;
	double err;

	fr_cal_est_init(&e, NULL, 0);
	for (int i = 0; i < 100; i++, t += 3000000) {
		pt = sim_read_at(t, 3000, 1);
		fr_cal_est_add(&e, &pt);
	}
	for (int i = 0; i < 180; i++, t += 330000000) {
		pt = sim_read_at(t, 3000, sim_unif(&rng));
		fr_cal_est_add(&e, &pt);
	}
	ck_assert(fr_cal_est_ready(&e));
	fr_cal_est_target(&e, &tg);
	err = ((double)tg.mult / (TWO32 / 3.0) - 1) * 1e9;
	ck_assert_msg(err > -8 && err < 8, "rate off by %.1f ppb", err);
}
END_TEST

/* A window's tightest sandwich is the one committed, not the one that closes the window. */
START_TEST(window_keeps_its_tightest)
{
	const uint64_t t = 3000000000000ULL;
	struct fr_cal_est e;
	struct fr_cal_point pt, tight = sim_read_at(t + 500000000, 2400, 0.5);
	struct fr_cal_line tg;

	/* Seeded with the rate: windows of 3e8 ticks from the start. */
	fr_cal_est_init(&e, NULL, sim_mult_of_ghz(3.0));
	/* The first window, committed (as the base) by the first sandwich a period after it began. */
	pt = sim_read_at(t, 6000, 0.5);
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 0);
	pt = sim_read_at(t + 100000000, 6000, 0.5);
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 0);
	pt = sim_read_at(t + 300000000, 6000, 0.5);
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 0);
	/* The second: a tight sandwich among wider ones; a wide one read at its start closes it. */
	pt = sim_read_at(t + 330000000, 4000, 0.5);
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 0);
	ck_assert_int_eq(fr_cal_est_add(&e, &tight), 0);
	pt = sim_read_at(t + 550000000, 5000, 0.5);
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 0);
	pt = sim_read_at(t + 610000000, 30000, 0);
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 1);
	fr_cal_est_target(&e, &tg);
	ck_assert_uint_eq(tg.tsc0, tight.tsc_before + 1200);
	ck_assert_int_eq(tg.ns0, tight.ns);
}
END_TEST

/*
 * A 2 ppm step (220 ns a commit): too small to miss by far at one commit, so found by misses
 * coming back soon. Ten seconds on, the rate is the new one, not a 40 s average 1.5 ppm off.
 */
START_TEST(small_step_is_found)
{
	const uint64_t t0 = 3000000000000ULL, ts = t0 + 270 * 330000000ULL;
	struct fr_cal_est e;
	struct fr_cal_line tg;
	uint64_t t = t0, rng = 4;
	int lost = 0;
	double err;

	fr_cal_est_init(&e, NULL, 0);
	for (int i = 0; i < 360; i++, t += 330000000) {
		struct fr_cal_point pt = sim_read_at(t, 3000 + sim_xs(&rng) % 6000, sim_unif(&rng));

		if (t > ts)
			pt.ns += (int64_t)((double)(t - ts) / 3.0 * 2e-6);
		fr_cal_est_add(&e, &pt);
		lost |= t > ts && !fr_cal_est_ready(&e);
	}
	ck_assert_int_eq(lost, 1);
	ck_assert(fr_cal_est_ready(&e));
	fr_cal_est_target(&e, &tg);
	err = ((double)tg.mult / (TWO32 / 3.0 * (1 + 2e-6)) - 1) * 1e9;
	ck_assert_msg(err > -300 && err < 300, "rate off the new one by %.0f ppb", err);
}
END_TEST

/* The counter jumps back (a reset) while RAW goes on: start again there rather than refuse forever. */
START_TEST(counter_going_back_restarts)
{
	struct fr_cal_est e;
	struct fr_cal_point pt;
	struct fr_cal_line tg;
	uint64_t t;

	fr_cal_est_init(&e, NULL, 0);
	t = warm(&e, 3000000000000ULL, 30);
	ck_assert(fr_cal_est_ready(&e));
	pt = sim_read_at(1000000, 3000, 0.5);
	pt.ns = sim_read_at(t - 330000000, 3000, 0.5).ns + 1000000000;
	ck_assert_int_eq(fr_cal_est_add(&e, &pt), 1);
	ck_assert(!fr_cal_est_ready(&e));
	fr_cal_est_target(&e, &tg);
	ck_assert_int_eq(tg.ns0, pt.ns);
	ck_assert_uint_eq(tg.tsc0, 1000000 + 1500);
}
END_TEST

START_TEST(defaults_fit_the_bound)
{
	struct fr_cal_params p;
	struct fr_cal_est e;

	fr_cal_defaults(&p);
	ck_assert_int_eq(p.bound_ns, 2000);
	ck_assert_int_le(p.budget_ns, p.bound_ns / 2);
	ck_assert_int_le(p.min_baseline_ns, p.refresh_ns);
	ck_assert_int_ge(p.max_baseline_ns, 100 * p.refresh_ns);
	ck_assert_uint_le(p.max_slew_ppm, 1000);
	ck_assert_int_ge(p.max_width_ns, 10000);
	fr_cal_est_init(&e, NULL, 0);
	ck_assert(e.p.bound_ns == p.bound_ns && e.p.budget_ns == p.budget_ns && e.p.refresh_ns == p.refresh_ns &&
		  e.p.min_baseline_ns == p.min_baseline_ns && e.p.max_baseline_ns == p.max_baseline_ns &&
		  e.p.max_slew_ppm == p.max_slew_ppm && e.p.max_width_ns == p.max_width_ns);
	ck_assert(!fr_cal_est_ready(&e));
	ck_assert_int_eq(fr_cal_est_error_ns(&e), -1);
}
END_TEST

/*
 * Nanoseconds split as the kernel normalises a timespec, negative ones included (a time
 * namespace can put RAW before zero): the kernel's {-1, 845602970} for -154397030 ns, never a
 * negative tv_nsec, and sec * 1e9 + nsec is the value again, over the whole int64 range.
 */
/*
 * The ARM generic timer of the matrix's 32-bit guests: 24 MHz, a tick of 41.67 ns, the kernel's
 * RAW exact at 125/3 ns a tick. Under 64-bit and 32-bit arithmetic alike (math/wide.h).
 */
static int64_t raw_24mhz(uint64_t t)
{
	return 5000000000LL + (int64_t)(t * 125 / 3);
}

/* A sandwich from counter value t, w ticks wide, the kernel's read at `at` of it (0: start, 1: end). */
static struct fr_cal_point read_24mhz(uint64_t t, uint64_t w, double at)
{
	struct fr_cal_point pt = { t, t + w, raw_24mhz(t + (uint64_t)((double)w * at)) };

	return pt;
}

/*
 * Sandwiches of 1-3 us (24-72 ticks), one a millisecond, the kernel's read anywhere inside,
 * seeded as on 32-bit ARM (the vdso_data's mult 699050667, shift 24): ready within 2 s, and then
 * within the bound. The tick is 40 times a GHz counter's, so the widths' rounding is coarse.
 */
START_TEST(arm_timer_rate)
{
	struct fr_cal_est e;
	struct fr_cal_line tg;
	uint64_t t = 24000000ULL * 100, rng = 7;
	int ready_at = -1;

	fr_cal_est_init(&e, NULL, 699050667ULL << 8);
	for (int i = 0; i < 4000; i++, t += 24000) {
		struct fr_cal_point pt = read_24mhz(t, 24 + sim_xs(&rng) % 49, sim_unif(&rng));

		if (fr_cal_est_add(&e, &pt) && fr_cal_est_ready(&e) && ready_at < 0)
			ready_at = i;
		if (ready_at >= 0) {
			fr_cal_est_target(&e, &tg);
			CHECK(llabs(fr_cal_line_at(&tg, t) - raw_24mhz(t)) <= 2000, "%d ms: %lld ns off", i,
			      (long long)(fr_cal_line_at(&tg, t) - raw_24mhz(t)));
		}
	}
	ck_assert_msg(ready_at >= 0 && ready_at < 2000, "ready after %d ms", ready_at);
	ck_assert(fr_cal_est_ready(&e));
}
END_TEST

/*
 * The same timer where the kernel's RAW call takes 10 us (242-251 ticks, as 32-bit ARM's under
 * QEMU's TCG), the read always 40% in: the sandwiches bound RAW no tighter than one of them, the
 * predicted error never fits the 1 us budget, and the estimate is never ready (every call stays
 * the kernel's) however long it runs.
 */
START_TEST(arm_slow_call_never_ready)
{
	struct fr_cal_est e;
	uint64_t t = 24000000ULL * 100, rng = 11;
	int commits = 0;

	fr_cal_est_init(&e, NULL, 699050667ULL << 8);
	for (int i = 0; i < 30000; i++, t += 24000) {
		struct fr_cal_point pt = read_24mhz(t, 242 + sim_xs(&rng) % 10, 0.4);

		commits += fr_cal_est_add(&e, &pt);
		CHECK(!fr_cal_est_ready(&e), "ready after %d ms with 10 us sandwiches", i);
	}
	ck_assert_int_gt(commits, 250);
	ck_assert_int_gt(fr_cal_est_error_ns(&e), 4000);
}
END_TEST

START_TEST(split_like_the_kernel)
{
	static const struct {
		int64_t ns, sec, nsec;
	} cases[] = {
		{ 0, 0, 0 },
		{ 1, 0, 1 },
		{ 999999999, 0, 999999999 },
		{ 1000000000, 1, 0 },
		{ 1999999999, 1, 999999999 },
		{ -1, -1, 999999999 },
		{ -154397030, -1, 845602970 },
		{ -999999999, -1, 1 },
		{ -1000000000, -1, 0 },
		{ -1000000001, -2, 999999999 },
		{ -86400000000001, -86401, 999999999 },
		{ INT64_MAX, 9223372036, 854775807 },
		{ INT64_MIN, -9223372037, 145224192 },
	};
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int64_t sec, nsec;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fr_cal_split(cases[i].ns, &sec, &nsec);
		ck_assert_msg(sec == cases[i].sec && nsec == cases[i].nsec, "%lld: %lld.%09lld, want %lld.%09lld",
			      (long long)cases[i].ns, (long long)sec, (long long)nsec, (long long)cases[i].sec,
			      (long long)cases[i].nsec);
	}
	for (int i = 0; i < 200000; i++) {
		int64_t ns;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Every magnitude, both signs. */
		ns = (int64_t)(x >> (x % 64));
		ns = (x & 1) ? ns : -ns;
		fr_cal_split(ns, &sec, &nsec);
		if (nsec < 0 || nsec >= 1000000000 ||
		    !fr_s128_eq(fr_s128_add(fr_s128_mul(sec, 1000000000), fr_s128_of(nsec)), fr_s128_of(ns)))
			ck_abort_msg("%lld: %lld.%09lld", (long long)ns, (long long)sec, (long long)nsec);
	}
}
END_TEST

static Suite *calib_math_suite(void)
{
	Suite *s = suite_create("calib_math");
	TCase *tc = tcase_create("estimator");

	tcase_add_test(tc, seed_sets_only_the_refresh_period);
	tcase_add_test(tc, bad_sandwiches_change_nothing);
	tcase_add_test(tc, step_restarts_the_rate);
	tcase_add_test(tc, counter_going_back_restarts);
	tcase_add_test(tc, window_keeps_its_tightest);
	tcase_add_test(tc, small_step_is_found);
	tcase_add_test(tc, wide_sandwich_after_a_pause);
	tcase_add_test(tc, rate_leaves_a_poor_first_base);
	tcase_add_test(tc, defaults_fit_the_bound);
	tcase_add_test(tc, split_like_the_kernel);
	tcase_add_test(tc, arm_timer_rate);
	tcase_add_test(tc, arm_slow_call_never_ready);
	suite_add_tcase(s, tc);
	tc = tcase_create("simulated");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, simulated_runtime, 0, (int)(sizeof(scenarios) / sizeof(scenarios[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(calib_math_suite());
}
