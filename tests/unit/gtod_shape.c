/* SPDX-License-Identifier: MIT */
/* Unit tests of which gtod layout a page holds: every layout against every shape, and the page's word over the release's. */
#include <check.h>
#include <string.h>

#include "arch/arch.h"
#include "gtod_pages.h"

static uint8_t page[4096] __attribute__((aligned(4096)));

static const struct gv tsc = { 42, 1, 0x0001234567890abcULL, ~0ULL, 8004427, 24 };
static const struct gv hpet = { 8, 0, 0x00000000deadbeefULL, 0xffffffffULL, 2796202667u, 26 };

/*
 * Times an update may publish: now, a guest without a real-time clock (the epoch plus its
 * uptime), a whole second (xtime_nsec 0), past 2038, and a second's last nanosecond.
 */
static const struct gtime times[] = {
	{ 1700000000, 123456789, -1699995758, 987654321 },
	{ 12, 345678901, 0, 0 },
	{ 1700000000, 0, -1699999000, 0 },
	{ 4102444800LL, 999999999, -4102444000LL, 1 },
	{ 1733300000, 999999999, -1733299999, 999999999 },
};

/* No layout reading other offsets passes the checks on a page of another shape; its own does. */
START_TEST(only_its_own_layout)
{
	enum fr_gtod_era shape = (enum fr_gtod_era)_i;
	static const struct gv *const clocks[] = { &tsc, &hpet };

	for (size_t c = 0; c < 2; c++) {
		for (size_t t = 0; t < sizeof(times) / sizeof(times[0]); t++) {
			gtod_build_at(page, shape, clocks[c], &times[t]);
			for (int era = 0; era < FR_GTOD_ERAS; era++) {
				struct fr_gtod g;
				const char *why = fr_gtod_read(page, (enum fr_gtod_era)era, &g);

				if (era == (int)shape)
					ck_assert_msg(why == NULL, "%s page, time %zu, clock %zu: refused by its own layout: %s",
						      fr_gtod_era_name(shape), t, c, why);
				else
					ck_assert_msg(why != NULL && !g.tsc,
						      "%s page, time %zu, clock %zu: accepted as %s (mode %u mult %u shift %u)",
						      fr_gtod_era_name(shape), t, c, fr_gtod_era_name(era), g.mode, g.mult, g.shift);
			}
		}
	}
}
END_TEST

/*
 * The page decides, the release only suggests: a 4.18 release with the 4.20 shape (a vendor
 * backport) reads as 4.20-5.2, and the caller can tell the two disagree (out.era against the release's).
 * The fields read come from the page's own layout: its realtime base is the one written.
 */
START_TEST(page_over_release)
{
	static const struct {
		const char *release;
		int release_era; /* what fr_gtod_era_for_release says on x86-64 */
		enum fr_gtod_era shape;
	} cases[] = {
		{ "4.18.0-553.el8_10.x86_64", FR_GTOD_4_X, FR_GTOD_4_20 },
		{ "4.18.0-553.el8_10.x86_64", FR_GTOD_4_X, FR_GTOD_4_X },
		{ "4.19.222", FR_GTOD_4_X, FR_GTOD_4_X },
		{ "5.2.1", FR_GTOD_4_20, FR_GTOD_4_20 },
		{ "5.0.0-23-generic", FR_GTOD_4_20, FR_GTOD_4_X },
		{ "3.10.0-1160.el7.x86_64", FR_GTOD_3_10, FR_GTOD_4_X },
		{ "3.10.0-1160.el7.x86_64", FR_GTOD_3_10, FR_GTOD_3_10 },
		{ "3.10.0-1160.el7.x86_64.debug", FR_GTOD_3_10, FR_GTOD_3_10_DEBUG },
		{ "6.1.0", -1, FR_GTOD_4_20 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fr_gtod g;
		const char *why;

		if (FR_GTOD_FIXED_PAGE)
			ck_assert_int_eq(fr_gtod_era_for_release(cases[i].release), cases[i].release_era);
		gtod_build_at(page, cases[i].shape, &tsc, &gtod_time_now);
		why = fr_gtod_read_any(page, cases[i].release_era, &g);
		ck_assert_msg(why == NULL, "case %zu: %s", i, why);
		ck_assert_msg(g.era == (int)cases[i].shape, "case %zu (%s, a %s page): read as %s", i, cases[i].release,
			      fr_gtod_era_name(cases[i].shape), fr_gtod_era_name(g.era));
		ck_assert_int_eq(fr_gtod_layout_differs(cases[i].release_era, &g),
				 cases[i].release_era >= 0 && cases[i].release_era != (int)cases[i].shape);
		ck_assert_msg(g.tsc && g.mult == tsc.mult && g.shift == tsc.shift && g.cycle_last == tsc.cycle_last,
			      "case %zu: mult %u shift %u", i, g.mult, g.shift);
		ck_assert_msg(g.rt_sec == (uint64_t)gtod_time_now.sec &&
				      g.rt_snsec == (uint64_t)gtod_time_now.nsec << tsc.shift,
			      "case %zu: realtime %llu s %llu read from the wrong place", i, (unsigned long long)g.rt_sec,
			      (unsigned long long)g.rt_snsec);
	}
	ck_assert_str_eq(fr_gtod_era_name(FR_GTOD_3_10), "3.10");
	ck_assert_str_eq(fr_gtod_era_name(FR_GTOD_4_X), "3.16-4.19");
	ck_assert_str_eq(fr_gtod_era_name(FR_GTOD_4_20), "4.20-5.2");
	ck_assert_str_eq(fr_gtod_era_name(FR_GTOD_3_10_DEBUG), "3.10-debug");
	ck_assert_str_eq(fr_gtod_era_name(-1), "?");
	ck_assert_str_eq(fr_gtod_era_name(FR_GTOD_ARM_4_1), "arm-4.1-5.4");
	ck_assert_str_eq(fr_gtod_era_name(FR_GTOD_ARM_4_1 + 1), "?");
}
END_TEST

/*
 * A page that says too little to tell the layouts apart (all zero, or a realtime base of a few
 * seconds into 1970 with no nanoseconds) keeps the release's layout; without a release, or when
 * the release's is not among those that fit, it is refused, never guessed.
 */
START_TEST(ambiguous_page)
{
	const struct gtime early = { 5, 0, -5, 0 };
	struct fr_gtod g;
	const char *why;

	memset(page, 0, sizeof(page));
	for (int era = 0; era < FR_GTOD_ERAS; era++) {
		ck_assert_ptr_null(fr_gtod_read_any(page, era, &g));
		ck_assert_int_eq(g.era, era);
	}
	why = fr_gtod_read_any(page, -1, &g);
	ck_assert_msg(why && strstr(why, "more than one layout"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);

	gtod_build_at(page, FR_GTOD_4_20, &tsc, &early);
	ck_assert_ptr_null(fr_gtod_read(page, FR_GTOD_4_X, &g));
	ck_assert_ptr_null(fr_gtod_read_any(page, FR_GTOD_4_X, &g));
	ck_assert_int_eq(g.era, FR_GTOD_4_X);
	ck_assert_ptr_null(fr_gtod_read_any(page, FR_GTOD_4_20, &g));
	ck_assert_int_eq(g.era, FR_GTOD_4_20);
	why = fr_gtod_read_any(page, FR_GTOD_3_10, &g);
	ck_assert_msg(why && strstr(why, "more than one layout"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
}
END_TEST

/* A page no layout fits: refused with the reason the release's layout gave, never tsc. */
START_TEST(no_layout_fits)
{
	struct gv odd = tsc;
	struct fr_gtod g;
	const char *why;

	memset(page, 0xa5, sizeof(page));
	why = fr_gtod_read_any(page, FR_GTOD_4_X, &g);
	ck_assert_msg(why && strstr(why, "never settled"), "%s", why ? why : "accepted");
	memset(page + 128, 0, 4);
	why = fr_gtod_read_any(page, FR_GTOD_4_20, &g);
	ck_assert_msg(why && strstr(why, "clock mode"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
	why = fr_gtod_read_any(page, -1, &g);
	ck_assert_msg(why && strstr(why, "fits no known layout"), "%s", why ? why : "accepted");
	/* A page of a known shape whose seq stays odd: refused whatever the release. */
	odd.seq = 43;
	gtod_build_at(page, FR_GTOD_4_20, &odd, &gtod_time_now);
	why = fr_gtod_read_any(page, FR_GTOD_4_X, &g);
	ck_assert_msg(why && strstr(why, "never settled"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
}
END_TEST

TCase *gtod_shape_tcase(void)
{
	TCase *tc = tcase_create("shape");

	tcase_add_loop_test(tc, only_its_own_layout, 0, FR_GTOD_ERAS);
	tcase_add_test(tc, page_over_release);
	tcase_add_test(tc, ambiguous_page);
	tcase_add_test(tc, no_layout_fits);
	return tc;
}
