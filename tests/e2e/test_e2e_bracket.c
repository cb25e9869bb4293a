/* SPDX-License-Identifier: MIT */
/* End-to-end: a million interposed CLOCK_MONOTONIC_RAW reads from two threads all lie between kernel reads, in every counter mode and in a time namespace. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define SAMPLES "1000000"
#define SAMPLES_N 1000000
#define TIMENS_OFFSET_SEC 5000L

static void run_bracket(struct e2e_result *r, const char *const *env, const char *samples,
			const char *sym)
{
	const struct e2e_opts opts = { .env = env };

	e2e_run(r, &opts,
		E2E_ARGV(e2e_need_env("FR_PROBE_BRACKET"), samples, "2", sym));
	e2e_assert_ok(r);
	e2e_assert_served(r, "served");
	ck_assert_int_eq(e2e_int_value(r->out, "samples"), strtoll(samples, NULL, 10));
	ck_assert_int_eq(e2e_int_value(r->out, "violations"), 0);
}

START_TEST(bracket_default)
{
	struct e2e_result r;

	run_bracket(&r, NULL, SAMPLES, "clock_gettime");
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

START_TEST(bracket_unordered)
{
	struct e2e_result r;

	run_bracket(&r, E2E_ENV(E2E_TSC(E2E_UNORDERED)), SAMPLES, "clock_gettime");
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

START_TEST(bracket_fenced)
{
	struct e2e_result r;

	run_bracket(&r, E2E_ENV(E2E_TSC(E2E_FENCED)), SAMPLES, "clock_gettime");
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

/* Where the CPU lacks the ordered read (RDTSCP, ECV), asking for it warns once and falls back; the values stay right. */
START_TEST(bracket_ordered)
{
	struct e2e_result r;

	run_bracket(&r, E2E_ENV(E2E_TSC(E2E_ORDERED)), SAMPLES, "clock_gettime");
	if (e2e_cpu_has_ordered()) {
		e2e_assert_quiet(&r);
	} else {
		ck_assert_msg(e2e_count_lines(r.err) == 1 &&
				      e2e_count_lib_lines(r.err, "warning: ") == 1 &&
				      e2e_count_lines_with(r.err, E2E_TSC(E2E_ORDERED)) == 1,
			      "want one " E2E_ORDERED " warning, stderr:\n%.*s", E2E_SHOWN, r.err);
	}
	e2e_result_free(&r);
}
END_TEST

START_TEST(bracket_private_symbol)
{
	struct e2e_result r;

	run_bracket(&r, NULL, "200000", "__clock_gettime");
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

/* In a time namespace the raw clock moves by the namespace's monotonic offset, as the kernel's
   does, and the fast path still serves it. */
START_TEST(bracket_time_namespace)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_DEBUG=1"),
				       .timens_mono_sec = TIMENS_OFFSET_SEC };
	const int64_t offset = e2e_timens_shift_ns(TIMENS_OFFSET_SEC);
	struct e2e_result r;
	int64_t before, after;

	before = e2e_kernel_raw_ns();
	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_BRACKET"), SAMPLES, "2"));
	after = e2e_kernel_raw_ns();
	e2e_assert_ok(&r);
	e2e_assert_served(&r, "served");
	ck_assert_int_eq(e2e_int_value(r.out, "samples"), SAMPLES_N);
	ck_assert_int_eq(e2e_int_value(r.out, "violations"), 0);
	ck_assert_int_ge(e2e_int_value(r.out, "min_ns"), before + offset);
	ck_assert_int_le(e2e_int_value(r.out, "max_ns"), after + offset);
	e2e_assert_debug(r.err, NULL);
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	e2e_result_free(&r);
}
END_TEST

static Suite *bracket_suite(void)
{
	Suite *s = suite_create("e2e_bracket");
	TCase *tc = e2e_tcase(s, "bracket");

	tcase_add_test(tc, bracket_default);
	tcase_add_test(tc, bracket_unordered);
	tcase_add_test(tc, bracket_fenced);
	tcase_add_test(tc, bracket_ordered);
	tcase_add_test(tc, bracket_private_symbol);
	/* Its own case, tagged: a kernel without time namespaces (before 5.6) leaves it out (CK_EXCLUDE_TAGS). */
	tc = e2e_tcase(s, "timens");
	tcase_set_tags(tc, "timens");
	tcase_add_test(tc, bracket_time_namespace);
	return s;
}

int main(void)
{
	return fr_run_suite(bracket_suite());
}
