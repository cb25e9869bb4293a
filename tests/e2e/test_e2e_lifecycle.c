/* SPDX-License-Identifier: MIT */
/* End-to-end: right answers from other libraries' constructors, across fork, in signal handlers and under racing first calls. */
#define _GNU_SOURCE
#include "harness.h"

/* Racing first calls are a matter of chance: give the race several fresh processes. */
#define RACE_RUNS 20

static void run_probe(struct e2e_result *r, const char *probe_var, const char *mode,
		      const char *const *env)
{
	const struct e2e_opts opts = { .env = env };

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env(probe_var), mode));
	e2e_assert_ok(r);
	e2e_assert_served(r, "served");
}

/* A run without FASTRAW_* variables: nothing on stderr, and each of the probe's `zero` counts 0. */
static void run_quiet(struct e2e_result *r, const char *probe_var, const char *mode, const char *const *zero)
{
	run_probe(r, probe_var, mode, NULL);
	e2e_assert_quiet(r);
	for (; *zero; zero++)
		ck_assert_msg(e2e_int_value(r->out, *zero) == 0, "%s=%lld", *zero, (long long)e2e_int_value(r->out, *zero));
}

/* A run with FASTRAW_DEBUG=1 writes one line, the debug line of an active library. */
static void assert_one_debug_line(const struct e2e_result *r)
{
	ck_assert_int_eq(e2e_count_lines(r->err), 1);
	e2e_assert_debug_active(r->err, NULL);
}

START_TEST(dependency_constructor)
{
	struct e2e_result r;

	run_quiet(&r, "FR_PROBE_CTOR", NULL, E2E_ARGV("ctor_violations"));
	e2e_assert_served(&r, "ctor_served");
	ck_assert_int_gt(e2e_int_value(r.out, "ctor_samples"), 0);
	e2e_result_free(&r);

	run_probe(&r, "FR_PROBE_CTOR", NULL, E2E_ENV("FASTRAW_DEBUG=1"));
	assert_one_debug_line(&r);
	e2e_result_free(&r);
}
END_TEST

START_TEST(preinit_array)
{
	struct e2e_result r;

	run_quiet(&r, "FR_PROBE_PREINIT", NULL, E2E_ARGV("preinit_violations"));
	e2e_result_free(&r);
}
END_TEST

/* The first call comes from the preinit array, before libc's start-up sets environ: the variables still count. */
START_TEST(preinit_array_reads_the_environment)
{
	struct e2e_result r;

	run_probe(&r, "FR_PROBE_PREINIT", NULL, E2E_ENV("FASTRAW_DEBUG=1"));
	assert_one_debug_line(&r);
	e2e_result_free(&r);
	run_probe(&r, "FR_PROBE_PREINIT", NULL, E2E_ENV("FASTRAW_DEBUG=1", "FASTRAW_DISABLE=1"));
	ck_assert_msg(e2e_count_lines_with(r.err, "passthrough: disabled by FASTRAW_DISABLE") == 1,
		      "stderr:\n%.*s", E2E_SHOWN, r.err);
	e2e_result_free(&r);
}
END_TEST

START_TEST(fork_children)
{
	struct e2e_result r;

	run_quiet(&r, "FR_PROBE_LIFE", "fork",
		  E2E_ARGV("before_first_call_violations", "after_first_call_violations", "parent_violations"));
	e2e_result_free(&r);
}
END_TEST

START_TEST(signal_handlers)
{
	struct e2e_result r;

	run_quiet(&r, "FR_PROBE_LIFE", "signal", E2E_ARGV("handler_violations", "main_violations"));
	ck_assert_int_gt(e2e_int_value(r.out, "handler_samples"), 0);
	e2e_result_free(&r);
}
END_TEST

START_TEST(first_call_in_signal_handler)
{
	struct e2e_result r;

	run_probe(&r, "FR_PROBE_LIFE", "sigfirst", E2E_ENV("FASTRAW_DEBUG=1"));
	ck_assert_int_eq(e2e_int_value(r.out, "handler_samples"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "handler_violations"), 0);
	assert_one_debug_line(&r);
	e2e_result_free(&r);
}
END_TEST

/* However the first calls race, set-up happens once: one debug line, one warning. */
START_TEST(racing_first_calls)
{
	struct e2e_result r;

	for (int i = 0; i < RACE_RUNS; i++) {
		run_probe(&r, "FR_PROBE_LIFE", "threads", E2E_ENV("FASTRAW_DEBUG=1"));
		ck_assert_int_eq(e2e_int_value(r.out, "violations"), 0);
		assert_one_debug_line(&r);
		e2e_result_free(&r);

		run_probe(&r, "FR_PROBE_LIFE", "threads", E2E_ENV("FASTRAW_TSC=bogus"));
		ck_assert_msg(e2e_count_lines(r.err) == 1 &&
				      e2e_count_lib_lines(r.err, "warning: ") == 1,
			      "want one warning, stderr:\n%.*s", E2E_SHOWN, r.err);
		e2e_result_free(&r);
	}
}
END_TEST

static Suite *lifecycle_suite(void)
{
	Suite *s = suite_create("e2e_lifecycle");
	TCase *tc = e2e_tcase(s, "lifecycle");
	/* Tagged: musl runs no executable's preinit array, and scripts/musl.sh leaves them out. */
	TCase *pre = e2e_tcase(s, "preinit");

	tcase_set_tags(pre, "preinit");
	tcase_add_test(tc, dependency_constructor);
	tcase_add_test(pre, preinit_array);
	tcase_add_test(pre, preinit_array_reads_the_environment);
	tcase_add_test(tc, fork_children);
	tcase_add_test(tc, signal_handlers);
	tcase_add_test(tc, first_call_in_signal_handler);
	tcase_add_test(tc, racing_first_calls);
	return s;
}

int main(void)
{
	return fr_run_suite(lifecycle_suite());
}
