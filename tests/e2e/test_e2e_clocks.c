/* SPDX-License-Identifier: MIT */
/* End-to-end: every clock id other than CLOCK_MONOTONIC_RAW, valid or invalid, gets the kernel's answer through the interposer. */
#define _GNU_SOURCE
#include "harness.h"

/* Named ids plus the sweep from -24 to 40, for each of two symbols. */
#define MIN_CHECKS (2 * (21 + 65))

/* with_null: also check that a NULL timespec gives EFAULT, which libc itself does not promise. */
static void run_clocks(struct e2e_result *r, const struct e2e_opts *opts, int with_null)
{
	e2e_run(r, opts,
		E2E_ARGV(e2e_need_env("FR_PROBE_CLOCKS"), with_null ? "null" : "no-null"));
	e2e_assert_ok(r);
	ck_assert_int_eq(e2e_int_value(r->out, "failures"), 0);
}

START_TEST(clocks_preloaded)
{
	struct e2e_result r;

	run_clocks(&r, NULL, 1);
	e2e_assert_quiet(&r);
	e2e_assert_served(&r, "served");
	e2e_assert_served(&r, "served_private");
	ck_assert_int_ge(e2e_int_value(r.out, "checked"), MIN_CHECKS);
	e2e_result_free(&r);
}
END_TEST

START_TEST(clocks_disabled)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_DISABLE=1") };
	struct e2e_result r;

	run_clocks(&r, &opts, 1);
	e2e_assert_quiet(&r);
	e2e_assert_served(&r, "served");
	ck_assert_int_ge(e2e_int_value(r.out, "checked"), MIN_CHECKS);
	e2e_result_free(&r);
}
END_TEST

/* In a time namespace the kernel shifts CLOCK_MONOTONIC and CLOCK_BOOTTIME; so must we. */
START_TEST(clocks_time_namespace)
{
	const struct e2e_opts opts = { .timens_mono_sec = 5000 };
	struct e2e_result r;

	run_clocks(&r, &opts, 1);
	e2e_assert_quiet(&r);
	e2e_assert_served(&r, "served");
	e2e_result_free(&r);
}
END_TEST

/* The probe's expectations are libc's own behaviour: it passes without the interposer too. */
START_TEST(clocks_libc_baseline)
{
	const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;

	run_clocks(&r, &opts, 0);
	ck_assert_int_ge(e2e_int_value(r.out, "checked"), MIN_CHECKS / 2);
	e2e_result_free(&r);
}
END_TEST

static Suite *clocks_suite(void)
{
	Suite *s = suite_create("e2e_clocks");
	TCase *tc = e2e_tcase(s, "clocks");

	tcase_add_test(tc, clocks_preloaded);
	tcase_add_test(tc, clocks_disabled);
	tcase_add_test(tc, clocks_libc_baseline);
	/* Its own case, tagged: a kernel without time namespaces (before 5.6) leaves it out (CK_EXCLUDE_TAGS). */
	tc = e2e_tcase(s, "timens");
	tcase_set_tags(tc, "timens");
	tcase_add_test(tc, clocks_time_namespace);
	return s;
}

int main(void)
{
	return fr_run_suite(clocks_suite());
}
