/* SPDX-License-Identifier: MIT */
/* End-to-end: dlclose of a dlopen'd libfastraw.so is a no-op, even while another thread calls into it. */
#define _GNU_SOURCE
#include "harness.h"

/*
 * The probe dlopens the library (RTLD_NOW | RTLD_LOCAL, no preload), reads RAW through the
 * dlsym'd clock_gettime in a thread for about a second, and meanwhile dlcloses and reopens it
 * ten times. Unloaded, the thread would jump into unmapped pages (SIGSEGV).
 */
START_TEST(dlclose_under_load)
{
	const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_UNLOAD"), e2e_need_env("FASTRAW_LIB")));
	e2e_assert_ok(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "rounds"), 10);
	/* After every dlclose the loader still lists it, and its code is still where it was. */
	ck_assert_int_eq(e2e_int_value(r.out, "still_loaded"), 10);
	ck_assert_int_eq(e2e_int_value(r.out, "reopened_same"), 10);
	ck_assert_int_gt(e2e_int_value(r.out, "calls"), 1000);
	ck_assert_int_eq(e2e_int_value(r.out, "failed"), 0);
	ck_assert_int_eq(e2e_int_value(r.out, "outside"), 0);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

static Suite *unload_suite(void)
{
	Suite *s = suite_create("e2e_unload");
	TCase *tc = e2e_tcase(s, "unload");

	tcase_add_test(tc, dlclose_under_load);
	return s;
}

int main(void)
{
	return fr_run_suite(unload_suite());
}
