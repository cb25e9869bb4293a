/* SPDX-License-Identifier: MIT */
/* Unit tests of FASTRAW_STATS counting and its exit line. */
#include <check.h>
#include <string.h>

#include "run_suite.h"
#include "sys/stats.h"

static int calls;

static int fake_raw(struct timespec *ts)
{
	calls++;
	ts->tv_sec = 0;
	ts->tv_nsec = 0;
	return 0;
}

START_TEST(off_until_started)
{
	char line[256];

	fr_stats_pass(CLOCK_MONOTONIC);
	ck_assert_int_eq(fr_stats_on, 0);
	fr_stats_format(line, sizeof(line));
	ck_assert_str_eq(line, "fastraw: stats: MONOTONIC_RAW fast=0 passthrough=0");
}
END_TEST

START_TEST(counts_per_clock)
{
	char line[256];
	struct timespec ts;
	fr_raw_fn raw = fr_stats_start(fake_raw);

	ck_assert_ptr_ne(raw, fake_raw);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(raw(&ts), 0);
	ck_assert_int_eq(calls, 5);
	/* One of the five RAW calls passed through; then other clocks, named, unnamed, negative. */
	fr_stats_pass(CLOCK_MONOTONIC_RAW);
	for (int i = 0; i < 3; i++)
		fr_stats_pass(CLOCK_MONOTONIC);
	fr_stats_pass(10);
	fr_stats_pass(-2);
	fr_stats_pass(12345);
	fr_stats_format(line, sizeof(line));
	ck_assert_str_eq(line, "fastraw: stats: MONOTONIC_RAW fast=4 passthrough=1, MONOTONIC passthrough=3, "
			       "clock 10 passthrough=1, other passthrough=2");
}
END_TEST

START_TEST(format_truncates_safely)
{
	char line[20];

	fr_stats_format(line, sizeof(line));
	ck_assert_uint_eq(strlen(line), sizeof(line) - 1);
	ck_assert_int_eq(strncmp(line, "fastraw: stats: MON", sizeof(line) - 1), 0);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, off_until_started);
	tcase_add_test(tc, counts_per_clock);
	tcase_add_test(tc, format_truncates_safely);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(stats_suite());
}
