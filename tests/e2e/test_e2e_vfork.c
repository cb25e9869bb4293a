/* SPDX-License-Identifier: MIT */
/* End-to-end: in calibrated mode, vfork, clone(CLONE_VM) and fork children reading RAW leave the parent's threads bounded and monotonic. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

/*
 * FASTRAW_SOURCE=calibrated forces calibrated mode on every machine kind, eligible or not (as
 * e2e_calib does); the promise below holds either way.
 */
static const char *const calibrated[] = { "FASTRAW_SOURCE=calibrated", NULL };

/* How long the storm lasts, and the warm-up after which the 2 us bound applies. */
#define STORM_SECONDS "20"
#define WARMUP_SECONDS "2"
/* Each child reads this often: long enough to be inside the library when a parent refreshes. */
#define READS_PER_CHILD "2000"

static void assert_zero(const struct e2e_result *r, const char *key)
{
	ck_assert_msg(e2e_int_value(r->out, key) == 0, "%s is not 0:\n%.*s", key, E2E_SHOWN, r->out);
}

/*
 * Two parent threads read RAW for 20 s while the main thread makes children one after another:
 * vfork, clone(CLONE_VM | SIGCHLD) on its own stack, clone(CLONE_VM | CLONE_VFORK | SIGCHLD)
 * and fork, each reading RAW 2000 times against the kernel. Neither the parents nor the
 * children see a value outside 2 us of the kernel's after the warm-up, a 0, or a step back.
 */
START_TEST(children_leave_parents_bounded)
{
	static const char *const kinds[] = { "children_vfork", "children_clone_vm",
					     "children_clone_vm_vfork", "children_fork" };
	static const char *const zero[] = { "parent_bad", "parent_zeros", "parent_backwards",
					    "parent_failed", "children_lost", "children_bad",
					    "children_zero", "children_backwards", "children_failed" };
	const struct e2e_opts opts = { .env = calibrated };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_VFORK"), STORM_SECONDS, WARMUP_SECONDS,
				   READS_PER_CHILD));
	e2e_assert_ok(&r);
	e2e_assert_served(&r, "served");
	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		assert_zero(&r, zero[i]);
	ck_assert_msg(e2e_int_value(r.out, "parent_max_err_ns") <= 2000, "%.*s", E2E_SHOWN, r.out);
	ck_assert_msg(e2e_int_value(r.out, "child_max_err_ns") <= 2000, "%.*s", E2E_SHOWN, r.out);
	ck_assert_int_ge(e2e_int_value(r.out, "parent_measured"), 100000);
	ck_assert_int_ge(e2e_int_value(r.out, "child_measured"), 1000);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		ck_assert_msg(e2e_int_value(r.out, kinds[i]) >= 10, "too few %s:\n%.*s", kinds[i],
			      E2E_SHOWN, r.out);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

static Suite *vfork_suite(void)
{
	Suite *s = suite_create("e2e_vfork");
	TCase *tc = e2e_tcase(s, "vfork");

	tcase_add_test(tc, children_leave_parents_bounded);
	return s;
}

int main(void)
{
	return fr_run_suite(vfork_suite());
}
