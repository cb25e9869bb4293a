/* SPDX-License-Identifier: MIT */
/* Unit tests of gtod.c: release eras and the pre-5.3 gtod page, on synthetic pages and a racing writer. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch/arch.h"
#include "kdata/gtod.h"
#include "run_suite.h"
#include "calib/calib_seed.h"
#include "gtod_pages.h"

static const char *const era_name[] = { "3.10", "4.x", "4.20", "3.10-debug" };

static uint8_t page[4096] __attribute__((aligned(4096)));

/* One gtod copy of a layout at +128 of pg, at a realistic time (gtod_pages.c). */
static void build(uint8_t *pg, enum fr_gtod_era era, const struct gv *v)
{
	gtod_build_at(pg, era, v, &gtod_time_now);
}

/* A TSC clocksource of about 2.096 GHz (the synthetic TSC of docs/kernel-data.md §1.3). */
static const struct gv tsc_vals = { 42, 1, 0x0001234567890abcULL, ~0ULL, 8004479, 24 };

START_TEST(era_for_release)
{
	static const struct {
		const char *release;
		int era;
	} cases[] = {
		{ "3.10.0-1160.el7.x86_64", FR_GTOD_3_10 },
		{ "3.10", FR_GTOD_3_10 },
		{ "3.10.108", FR_GTOD_3_10 },
		{ "3.14.79", FR_GTOD_3_10 },
		{ "3.15.10", FR_GTOD_3_10 },
		{ "3.16.0-4-amd64", FR_GTOD_4_X },
		{ "3.19.8", FR_GTOD_4_X },
		{ "4.0.0", FR_GTOD_4_X },
		{ "4.4.0-210-generic", FR_GTOD_4_X },
		{ "4.9.337", FR_GTOD_4_X },
		{ "4.14.355-275.570.amzn2.x86_64", FR_GTOD_4_X },
		{ "4.18.0-553.el8_10.x86_64", FR_GTOD_4_X },
		{ "4.19.0", FR_GTOD_4_X },
		{ "4.20.17", FR_GTOD_4_20 },
		{ "4.20", FR_GTOD_4_20 },
		{ "5.0.0-23-generic", FR_GTOD_4_20 },
		{ "5.1.21", FR_GTOD_4_20 },
		{ "5.2.21+", FR_GTOD_4_20 },
		{ "5.3.0", -1 },
		{ "5.10.0-35-amd64", -1 },
		{ "6.18.44-fc-v782", -1 },
		{ "3.9.11", -1 },
		{ "3.1", -1 },
		{ "3.1.10", -1 },
		{ "3.100", -1 },
		{ "3.20", -1 },
		{ "4.21", -1 },
		{ "4.190", -1 },
		{ "2.6.32-754.el6.x86_64", -1 },
		{ "13.10", -1 },
		{ "", -1 },
		{ "3", -1 },
		{ "3.", -1 },
		{ ".10", -1 },
		{ "x3.10", -1 },
		{ " 3.10", -1 },
		{ "3,10", -1 },
		{ "99999999999999999999.10", -1 },
	};

	/*
	 * vsyscall_gtod_data is x86's: elsewhere no release has a page of its layouts. 32-bit ARM's
	 * 4.1-5.4 releases have their own (test_armdata.c checks which).
	 */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int want = FR_ARCH_OLD_DATA == FR_OLD_DATA_GTOD ? cases[i].era : -1;
		int era = fr_gtod_era_for_release(cases[i].release);

		if (FR_ARCH_OLD_DATA == FR_OLD_DATA_ARM && era == FR_GTOD_ARM_4_1)
			continue;
		ck_assert_msg(era == want, "\"%s\": %d, want %d", cases[i].release, era, want);
	}
	ck_assert_int_eq(fr_gtod_era_for_release(NULL), -1);
}
END_TEST

static void expect_gtod(const struct fr_gtod *g, const struct gv *v, int tsc, const char *what)
{
	ck_assert_msg(g->mode == v->mode && g->cycle_last == v->cycle_last && g->mask == v->mask &&
			      g->mult == v->mult && g->shift == v->shift && g->tsc == tsc,
		      "%s: mode %u cycle_last %#llx mask %#llx mult %u shift %u tsc %d", what, g->mode,
		      (unsigned long long)g->cycle_last, (unsigned long long)g->mask, g->mult, g->shift, g->tsc);
}

static void expect_ppm(uint64_t got, uint64_t ref, const char *what)
{
	long double rel = fabsl(((long double)got - (long double)ref) / (long double)ref);

	ck_assert_msg(ref != 0 && rel <= 1e-6L, "%s: %llu vs %llu (%.3Lf ppm)", what, (unsigned long long)got,
		      (unsigned long long)ref, rel * 1e6L);
}

START_TEST(gtod_tsc_each_era)
{
	enum fr_gtod_era era = (enum fr_gtod_era)_i;
	struct fr_gtod g;
	const char *why;

	build(page, era, &tsc_vals);
	why = fr_gtod_read(page, era, &g);
	ck_assert_msg(why == NULL, "%s: %s", era_name[era], why);
	expect_gtod(&g, &tsc_vals, 1, era_name[era]);
	/* The seed the page gives: ~2.096 GHz. */
	expect_ppm(fr_cal_seed_mult_from_shift(g.mult, g.shift), fr_cal_seed_mult_from_khz(2095979), era_name[era]);
}
END_TEST

START_TEST(gtod_odd_seq)
{
	enum fr_gtod_era era = (enum fr_gtod_era)_i;
	struct gv v = tsc_vals;
	struct fr_gtod g;
	const char *why;

	v.seq = 43;
	build(page, era, &v);
	memset(&g, 0x77, sizeof(g));
	why = fr_gtod_read(page, era, &g);
	ck_assert_msg(why && strstr(why, "never settled"), "%s: %s", era_name[era], why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
	ck_assert_uint_eq(g.mult, 0);
	/* seq 0 is even, as after boot before the first update: read normally. */
	v.seq = 0;
	build(page, era, &v);
	ck_assert_ptr_null(fr_gtod_read(page, era, &g));
}
END_TEST

START_TEST(gtod_mode_numbering)
{
	/*
	 * TSC is 1 everywhere and 2 and 3 are never TSC: 3.10 (and 3.16-4.6) HPET 2, PVCLOCK 3;
	 * 4.7+ PVCLOCK 2, HVCLOCK 3 (4.11+); RHEL 7's 3.10 adds HVCLOCK 4. Those are accepted, as
	 * not TSC; anything above, and the later time-namespace markers, never existed before 5.3.
	 */
	static const struct {
		enum fr_gtod_era era;
		uint32_t mode;
		uint64_t mask;
		uint32_t mult, shift;
		int ok;
	} cases[] = {
		{ FR_GTOD_3_10, 0, 0xffffff, 2343484437u, 23, 1 },  /* NONE: acpi_pm */
		{ FR_GTOD_3_10, 2, 0xffffffff, 2796202667u, 26, 1 }, /* HPET */
		{ FR_GTOD_3_10, 3, ~0ULL, 1u << 22, 22, 1 },         /* PVCLOCK */
		{ FR_GTOD_3_10, 4, ~0ULL, 2147483648u, 24, 1 },      /* HVCLOCK: RHEL 7's Hyper-V TSC page */
		{ FR_GTOD_3_10_DEBUG, 3, ~0ULL, 1u << 22, 22, 1 },
		{ FR_GTOD_3_10_DEBUG, 4, ~0ULL, 2147483648u, 24, 1 },
		{ FR_GTOD_3_10_DEBUG, 5, ~0ULL, 8004479, 24, 0 },
		{ FR_GTOD_4_X, 0, 0xffffff, 2343484437u, 23, 1 },
		{ FR_GTOD_4_X, 2, ~0ULL, 1u << 22, 22, 1 }, /* HPET up to 4.6, PVCLOCK from 4.7 */
		{ FR_GTOD_4_X, 3, ~0ULL, 1u << 22, 22, 1 }, /* PVCLOCK up to 4.6, HVCLOCK from 4.11 */
		{ FR_GTOD_4_20, 2, ~0ULL, 1u << 22, 22, 1 }, /* PVCLOCK */
		{ FR_GTOD_4_20, 3, ~0ULL, 2147483648u, 24, 1 }, /* HVCLOCK: 10 MHz */
		{ FR_GTOD_3_10, 5, ~0ULL, 8004479, 24, 0 },
		{ FR_GTOD_4_X, 4, ~0ULL, 8004479, 24, 0 },
		{ FR_GTOD_4_20, 4, ~0ULL, 8004479, 24, 0 },
		{ FR_GTOD_4_20, 0x7fffffffu, ~0ULL, 8004479, 24, 0 },
		{ FR_GTOD_4_X, 0xffffffffu, ~0ULL, 8004479, 24, 0 },
		{ FR_GTOD_3_10, 0xffffffffu, ~0ULL, 8004479, 24, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gv v = { 1000, cases[i].mode, 0xfedcba9876ULL, cases[i].mask, cases[i].mult, cases[i].shift };
		struct fr_gtod g;
		const char *why;

		build(page, cases[i].era, &v);
		why = fr_gtod_read(page, cases[i].era, &g);
		if (cases[i].ok) {
			ck_assert_msg(why == NULL, "case %zu (%s, mode %u): %s", i, era_name[cases[i].era],
				      cases[i].mode, why);
		} else {
			ck_assert_msg(why && strstr(why, "clock mode"), "case %zu (%s, mode %#x): %s", i,
				      era_name[cases[i].era], cases[i].mode, why ? why : "accepted");
		}
		/* The values read are reported either way; tsc never. */
		expect_gtod(&g, &v, 0, era_name[cases[i].era]);
	}
}
END_TEST

START_TEST(gtod_implausible)
{
	enum fr_gtod_era era = (enum fr_gtod_era)_i;
	static const struct {
		uint32_t mode;
		uint64_t mask;
		uint32_t mult, shift;
		const char *why; /* NULL: accepted */
	} cases[] = {
		{ 1, ~0ULL, 8004479, 64, "shift" },
		{ 1, ~0ULL, 8004479, 0xffffffffu, "shift" },
		{ 0, 0xffffff, 2343484437u, 64, "shift" },
		{ 1, ~0ULL, 8004479, 63, NULL },
		{ 1, ~0ULL, 0, 24, "mult" },
		{ 0, 0xffffff, 0, 24, NULL }, /* mode NONE: the vDSO never uses mult */
		{ 2, ~0ULL, 0, 22, NULL },
		{ 1, 0xffffffff, 8004479, 24, "mask" },
		{ 1, 0, 8004479, 24, "mask" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gv v = { 8, cases[i].mode, 77, cases[i].mask, cases[i].mult, cases[i].shift };
		struct fr_gtod g;
		const char *why;

		build(page, era, &v);
		why = fr_gtod_read(page, era, &g);
		if (!cases[i].why) {
			ck_assert_msg(why == NULL, "%s case %zu: %s", era_name[era], i, why);
			expect_gtod(&g, &v, cases[i].mode == 1, era_name[era]);
		} else {
			ck_assert_msg(why && strstr(why, cases[i].why), "%s case %zu: %s, want \"%s\"", era_name[era],
				      i, why ? why : "accepted", cases[i].why);
			ck_assert_int_eq(g.tsc, 0);
		}
	}
}
END_TEST

START_TEST(gtod_wrong_era)
{
	struct fr_gtod g;
	const char *why;

	/* A 4.x page read as 3.10: the mode comes from cycle_last's low half, not a mode. */
	build(page, FR_GTOD_4_X, &tsc_vals);
	why = fr_gtod_read(page, FR_GTOD_3_10, &g);
	ck_assert_msg(why != NULL, "4.x page accepted as 3.10: mode %u mult %u shift %u", g.mode, g.mult, g.shift);
	ck_assert_int_eq(g.tsc, 0);
	ck_assert_uint_ne(g.cycle_last, tsc_vals.cycle_last);
	/* A 3.10 page read as 4.x: mode from the padding (0), shift from mask's high half: rejected. */
	build(page, FR_GTOD_3_10, &tsc_vals);
	why = fr_gtod_read(page, FR_GTOD_4_X, &g);
	ck_assert_msg(why != NULL, "3.10 page accepted as 4.x: mode %u mult %u shift %u", g.mode, g.mult, g.shift);
	ck_assert_int_eq(g.tsc, 0);
	ck_assert_uint_ne(g.mode, tsc_vals.mode);
	why = fr_gtod_read(page, FR_GTOD_4_20, &g);
	ck_assert_ptr_nonnull(why);
	/* Even a 3.10 page whose fields happen to pass reads as different values under 4.x. */
	{
		struct gv v = { 6, 0, 0x100000000ULL, 0, 0, 0 };

		build(page, FR_GTOD_3_10, &v);
		ck_assert_ptr_null(fr_gtod_read(page, FR_GTOD_3_10, &g));
		expect_gtod(&g, &v, 0, "3.10 on 3.10");
		why = fr_gtod_read(page, FR_GTOD_4_X, &g);
		ck_assert_msg(why != NULL || g.cycle_last != v.cycle_last || g.mask != v.mask,
			      "3.10 page read the same under 4.x");
	}
	/*
	 * 4.x and 4.20 share every field a seed reads, but not their time fields: each page is
	 * refused under the other's layout (gtod_shape.c tries every layout on every shape).
	 */
	build(page, FR_GTOD_4_20, &tsc_vals);
	why = fr_gtod_read(page, FR_GTOD_4_X, &g);
	ck_assert_msg(why != NULL, "4.20 page accepted as 4.x");
	ck_assert_int_eq(g.tsc, 0);
	build(page, FR_GTOD_4_X, &tsc_vals);
	why = fr_gtod_read(page, FR_GTOD_4_20, &g);
	ck_assert_msg(why != NULL, "4.x page accepted as 4.20");
	ck_assert_int_eq(g.tsc, 0);
}
END_TEST

START_TEST(gtod_bad_args)
{
	struct fr_gtod g;

	build(page, FR_GTOD_4_X, &tsc_vals);
	ck_assert_ptr_nonnull(fr_gtod_read(NULL, FR_GTOD_4_X, &g));
	ck_assert_int_eq(g.tsc, 0);
	ck_assert_ptr_nonnull(fr_gtod_read(page, (enum fr_gtod_era)FR_GTOD_ERAS, &g));
	ck_assert_ptr_nonnull(fr_gtod_read(page, (enum fr_gtod_era)-1, &g));
	ck_assert_int_eq(g.tsc, 0);
}
END_TEST

/*
 * A writer following the kernel's protocol (seq odd, fields, seq even) against the reader: every
 * accepted read must be one whole update. Each update n writes cycle_last = n in both halves,
 * mult = low half | 1, shift = n % 32 and a realtime base of n s + (n % 1000) ns with its coarse
 * copy, as a 3.16-4.19 kernel places them, so a torn read shows as a mismatch.
 */
static uint8_t race_page[4096] __attribute__((aligned(4096)));
static int race_stop;

static void *race_writer(void *arg)
{
	volatile uint8_t *g = race_page + 128;
	uint32_t seq = 0;

	(void)arg;
	for (uint32_t n = 1; !__atomic_load_n(&race_stop, __ATOMIC_RELAXED); n++) {
		*(volatile uint32_t *)g = ++seq;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		*(volatile uint64_t *)(g + 8) = (uint64_t)n << 32 | n;
		*(volatile uint32_t *)(g + 24) = n | 1;
		*(volatile uint32_t *)(g + 28) = n % 32;
		*(volatile uint64_t *)(g + 32) = (uint64_t)(n % 1000) << (n % 32);
		*(volatile uint64_t *)(g + 40) = n;
		*(volatile uint64_t *)(g + 64) = n;
		*(volatile uint64_t *)(g + 72) = n % 1000;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		*(volatile uint32_t *)g = ++seq;
	}
	return NULL;
}

START_TEST(gtod_concurrent_writer)
{
	struct gv v = { 0, 1, 0, ~0ULL, 1, 0 }; /* update 0 of the writer's pattern */
	const struct gtime t0 = { 0, 0, 0, 0 };
	pthread_t t;
	int settled = 0, unsettled = 0;

	gtod_build_at(race_page, FR_GTOD_4_X, &v, &t0);
	ck_assert_int_eq(pthread_create(&t, NULL, race_writer, NULL), 0);
	for (int i = 0; i < 200000; i++) {
		struct fr_gtod g;
		const char *why = fr_gtod_read(race_page, FR_GTOD_4_X, &g);
		uint32_t lo = (uint32_t)g.cycle_last;

		/* Test, then assert: each Check assertion records a mark point, slow under emulation. */
		if (why) {
			if (!strstr(why, "never settled"))
				ck_abort_msg("read %d: %s", i, why);
			unsettled++;
			continue;
		}
		settled++;
		if (!((g.cycle_last >> 32) == lo && g.mult == (lo | 1) && g.shift == lo % 32 && g.rt_sec == lo && g.tsc))
			ck_abort_msg("torn read %d: cycle_last %#llx mult %u shift %u", i, (unsigned long long)g.cycle_last,
				     g.mult, g.shift);
	}
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	ck_assert_msg(settled > 0, "no read settled (%d did not)", unsettled);
}
END_TEST

static Suite *gtod_suite(void)
{
	Suite *s = suite_create("gtod");
	TCase *tc;

	tc = tcase_create("release");
	tcase_add_test(tc, era_for_release);
	suite_add_tcase(s, tc);

	tc = tcase_create("gtod");
	tcase_add_loop_test(tc, gtod_tsc_each_era, 0, FR_GTOD_ERAS);
	tcase_add_loop_test(tc, gtod_odd_seq, 0, FR_GTOD_ERAS);
	tcase_add_test(tc, gtod_mode_numbering);
	tcase_add_loop_test(tc, gtod_implausible, 0, FR_GTOD_ERAS);
	tcase_add_test(tc, gtod_wrong_era);
	tcase_add_test(tc, gtod_bad_args);
	tcase_add_test(tc, gtod_concurrent_writer);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);

	suite_add_tcase(s, gtod_shape_tcase());
	suite_add_tcase(s, gtod_fixed_tcase());
	return s;
}

int main(void)
{
	return fr_run_suite(gtod_suite());
}
