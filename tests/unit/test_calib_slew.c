/* SPDX-License-Identifier: MIT */
/* Unit tests of calib_slew.c: fr_cal_slew, the published line's way from where it is to a new target. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "calsim.h"
#include "calib/calib_math.h"
#include "run_suite.h"

/* A published line in the middle of its own slewing segment, at mult (+300 ppm there). */
static struct fr_cal_published cur_line(uint64_t now, uint64_t mult)
{
	struct fr_cal_published c;

	c.slew = (struct fr_cal_line){ now - 1000000, 500000000000LL, mult + mult / 3333 };
	c.tsc_end = now + 500000;
	c.after = (struct fr_cal_line){ c.tsc_end, fr_cal_line_at(&c.slew, c.tsc_end), mult };
	return c;
}

/* A line of slope mult through (tsc0, .) that is at v at counter value `at`. */
static struct fr_cal_line line_through(uint64_t tsc0, uint64_t mult, uint64_t at, int64_t v)
{
	struct fr_cal_line l = { tsc0, 0, mult };

	l.ns0 = v - fr_cal_line_at(&l, at);
	return l;
}

static int64_t max_step(uint64_t mult)
{
	return (int64_t)((mult + (1ULL << FR_CAL_FRAC) - 1) >> FR_CAL_FRAC);
}

static const double slew_ghz[] = { 2.1, 3.7, 1.0, 0.5 };
static const int64_t slew_e[] = { 1, 2, 7, 499, 1999, 123457, 5000000, 3000000000LL };
static const uint32_t slew_ppm[] = { 500, 1000, 1, 100000, 2000000 };

/*
 * Every combination of counter rate, gap (both signs) and slew limit: the new function starts at
 * cur's value, never steps (tick by tick around tsc_now and tsc_end, where `after` must continue
 * the slewing segment's own sequence), keeps its slopes positive and within the limit, takes no
 * longer than the limit requires, and then follows target within the 1 ns of their rounding.
 */
START_TEST(slew_meets_target_without_a_step)
{
	const uint64_t now = 987654321012345ULL;
	int n = 0;

	for (size_t g = 0; g < sizeof(slew_ghz) / sizeof(slew_ghz[0]); g++)
	for (size_t i = 0; i < 2 * sizeof(slew_e) / sizeof(slew_e[0]); i++)
	for (size_t k = 0; k < sizeof(slew_ppm) / sizeof(slew_ppm[0]); k++) {
		uint64_t m = sim_mult_of_ghz(slew_ghz[g]);
		uint64_t dm = fr_u128_lo(fr_u128_div64(fr_u128_mul(m, slew_ppm[k]), 1000000));
		int64_t e = (i & 1) ? -slew_e[i / 2] : slew_e[i / 2];
		struct fr_cal_published c = cur_line(now, m), out;
		int64_t v0 = fr_cal_at(&c, now), prev, step, tol;
		/* Target's own origin on either side of tsc_now. */
		struct fr_cal_line tg = line_through(i % 4 < 2 ? now - 12345 : now + 777, m, now, v0 + e);
		uint64_t end, lo, t;

		if (e < 0 && dm >= m)
			dm = m - 1;
		step = max_step(e > 0 && m + dm > c.slew.mult ? m + dm : c.slew.mult);
		ck_assert_int_eq(fr_cal_line_at(&tg, now) - v0, e);
		fr_cal_slew(&c, &tg, now, slew_ppm[k], &out);
		end = out.tsc_end;
		/* While both slopes are at most 1 ns a tick the gap closes exactly: 0, then target's rounding. */
		tol = m <= (1ULL << FR_CAL_FRAC) && out.slew.mult <= (1ULL << FR_CAL_FRAC) ? 1 : step;

		ck_assert_int_eq(fr_cal_at(&out, now), v0);
		ck_assert_uint_eq(out.slew.tsc0, now);
		ck_assert_uint_eq(out.after.mult, m);
		ck_assert_uint_gt(out.slew.mult, 0);
		if (e > 0)
			ck_assert_uint_eq(out.slew.mult, m + dm);
		else
			ck_assert_uint_eq(out.slew.mult, m - dm);
		ck_assert_uint_gt(end, now);
		ck_assert_msg((double)(end - now) <= ((double)llabs(e) + 3) * TWO32 / (double)dm + 1 &&
				      (double)(end - now) >= ((double)llabs(e) - 3) * TWO32 / (double)dm,
			      "%.1f GHz e=%lld ppm=%u: slews for %llu ticks", slew_ghz[g], (long long)e, slew_ppm[k],
			      (unsigned long long)(end - now));

		/* Tick by tick across tsc_now (cur before it) and tsc_end. */
		prev = fr_cal_at(&c, now - 3000);
		for (t = now - 2999; t < now + 3000; t++) {
			int64_t v = t < now ? fr_cal_at(&c, t) : fr_cal_at(&out, t);

			CHECK(v >= prev && v - prev <= step, "at now%+lld: %lld after %lld", (long long)(t - now),
			      (long long)v, (long long)prev);
			prev = v;
		}
		lo = end - 3000 > now ? end - 3000 : now;
		prev = fr_cal_at(&out, lo);
		for (t = lo + 1; t < end + 3000; t++) {
			int64_t v = fr_cal_at(&out, t), d = fr_cal_line_at(&tg, t) - v;
			const struct fr_cal_line *own = t <= end ? &out.slew : &out.after;

			CHECK(v >= prev && v - prev <= step, "at end%+lld: %lld after %lld", (long long)(t - end),
			      (long long)v, (long long)prev);
			/* The increment is the segment's own: no extra nanosecond at the switch. */
			CHECK(v - prev == fr_cal_line_at(own, t) - fr_cal_line_at(own, t - 1), "at end%+lld: step of %lld",
			      (long long)(t - end), (long long)(v - prev));
			if (t < end)
				CHECK((e > 0 ? d : -d) >= -2, "at end%+lld: past target by %lld", (long long)(t - end),
				      (long long)d);
			else
				CHECK(llabs(d) <= tol, "at end%+lld: %lld from target", (long long)(t - end), (long long)d);
			prev = v;
		}
		ck_assert_int_eq(out.after.ns0, fr_cal_line_at(&out.slew, end));
		if (tol == 1)
			ck_assert_int_eq(fr_cal_at(&out, end), fr_cal_line_at(&tg, end));
		/* Far beyond: still target, within its rounding. */
		for (t = end; t < end + (1ULL << 50); t += (1ULL << 44) + 12345)
			CHECK(llabs(fr_cal_line_at(&tg, t) - fr_cal_at(&out, t)) <= tol, "far from target at end+%llu",
			      (unsigned long long)(t - end));
		n++;
	}
	ck_assert_int_eq(n, 4 * 16 * 5);
}
END_TEST

START_TEST(slew_edge_cases)
{
	const uint64_t now = 5000000000000ULL, m = sim_mult_of_ghz(2.1);
	struct fr_cal_published c = cur_line(now, m), out;
	struct fr_cal_line tg = line_through(now - 999, m, now, 123);
	int64_t v0;

	/* First publication: the target itself, everywhere. */
	fr_cal_slew(NULL, &tg, now, 500, &out);
	ck_assert_uint_eq(out.tsc_end, tg.tsc0);
	ck_assert(memcmp(&out.slew, &tg, sizeof(tg)) == 0 && memcmp(&out.after, &tg, sizeof(tg)) == 0);
	for (uint64_t t = now - 5000; t < now + 5000; t += 7)
		CHECK(fr_cal_at(&out, t) == fr_cal_line_at(&tg, t), "differs from target at now%+lld", (long long)(t - now));

	/* Already met (cur past its own slewing segment): target's slope from cur's value, no segment. */
	v0 = fr_cal_at(&c, now + 900000);
	tg = line_through(now - 4321, m, now + 900000, v0);
	fr_cal_slew(&c, &tg, now + 900000, 500, &out);
	ck_assert_uint_eq(out.tsc_end, now + 900000);
	ck_assert_int_eq(fr_cal_at(&out, now + 900000), v0);
	ck_assert_uint_eq(out.slew.mult, m);
	ck_assert_uint_eq(out.after.mult, m);

	/* No slewing allowed: target's slope from cur's value, the gap stays, nothing steps. */
	v0 = fr_cal_at(&c, now);
	tg = line_through(now, m, now, v0 + 800);
	fr_cal_slew(&c, &tg, now, 0, &out);
	ck_assert_int_eq(fr_cal_at(&out, now), v0);
	for (uint64_t t = now; t < now + (1ULL << 40); t += (1ULL << 33) + 1) {
		struct fr_cal_line own = { now, v0, m };

		ck_assert_int_eq(fr_cal_at(&out, t), fr_cal_line_at(&own, t));
		ck_assert_int_eq(fr_cal_line_at(&tg, t) - fr_cal_at(&out, t), 800);
	}

	/* Slowing down by more than the slope itself: the slope floors at 1, never 0. */
	tg = line_through(now, 10, now, v0 - 1000);
	fr_cal_slew(&c, &tg, now, 2000000, &out);
	ck_assert_uint_eq(out.slew.mult, 1);
	ck_assert_uint_eq(out.after.mult, 10);
	ck_assert_uint_gt(out.tsc_end, now);
	ck_assert_int_eq(fr_cal_at(&out, out.tsc_end), fr_cal_line_at(&tg, out.tsc_end));
}
END_TEST

static Suite *calib_slew_suite(void)
{
	Suite *s = suite_create("calib_slew");
	TCase *tc = tcase_create("slew");

	tcase_add_test(tc, slew_meets_target_without_a_step);
	tcase_add_test(tc, slew_edge_cases);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(calib_slew_suite());
}
