/* SPDX-License-Identifier: MIT */
/* End-to-end: in the ordered counter modes a reading seen by another CPU is never ahead of that CPU's next reading. */
#define _GNU_SOURCE
#include "harness.h"

/* Each side must see the other side's readings change this often for the check to mean anything. */
#define MIN_FRESH 1000

/* The ordered modes: the default, the fenced read, and the ordered one (or its fenced fallback). */
static const char *const *const ordered_envs[] = {
	NULL,
	E2E_ENV(E2E_TSC(E2E_FENCED)),
	E2E_ENV(E2E_TSC(E2E_ORDERED)),
};

START_TEST(published_never_ahead)
{
	const struct e2e_opts opts = { .env = ordered_envs[_i] };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CAUSALITY")));
	e2e_assert_ok(&r);
	e2e_assert_served(&r, "served");
	ck_assert_int_eq(e2e_int_value(r.out, "cpu0_pinned"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "cpu1_pinned"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "violations"), 0);
	ck_assert_int_ge(e2e_int_value(r.out, "cpu0_fresh"), MIN_FRESH);
	ck_assert_int_ge(e2e_int_value(r.out, "cpu1_fresh"), MIN_FRESH);
	e2e_result_free(&r);
}
END_TEST

static Suite *causality_suite(void)
{
	Suite *s = suite_create("e2e_causality");
	TCase *tc = e2e_tcase(s, "causality");

	tcase_add_loop_test(tc, published_never_ahead, 0,
			    (int)(sizeof(ordered_envs) / sizeof(ordered_envs[0])));
	return s;
}

int main(void)
{
	return fr_run_suite(causality_suite());
}
