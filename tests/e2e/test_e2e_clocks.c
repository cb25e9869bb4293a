/* SPDX-License-Identifier: MIT */
/* End-to-end: every clock id other than CLOCK_MONOTONIC_RAW, valid or invalid, gets the kernel's answer through the interposer. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain_lib.h"
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

/*
 * Beside a later or an earlier interposer of clock_gettime (chain_lib.c, which shifts REALTIME),
 * in both orders: the program's REALTIME reaches it, as it would without us, and so does the
 * clock_gettime dlsym finds. On a 32-bit CPU whose programs call the 32-bit-time clock_gettime,
 * the library's own entry of that name must send it on to the interposer's, not to the next
 * __clock_gettime64.
 */
START_TEST(clocks_beside_interposer)
{
	const char *first = getenv("FR_PRELOAD_FIRST"), *lib = e2e_need_env("FASTRAW_LIB");
	const char *chain = e2e_need_env("FR_CHAIN_LIB");
	struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;
	char env[3 * 4096], shift[64], found[64];

	snprintf(env, sizeof(env), "LD_PRELOAD=%s%s%s:%s", first ? first : "", first && *first ? " " : "",
		 _i ? chain : lib, _i ? lib : chain);
	snprintf(shift, sizeof(shift), "realtime_shift=%ld", CHAIN_REALTIME_OFFSET_S);
	snprintf(found, sizeof(found), "found_realtime_shift=%ld", CHAIN_REALTIME_OFFSET_S);
	opts.env = E2E_ENV(env);
	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CHAIN")));
	e2e_assert_ok(&r);
	/* The interposer saw the program's REALTIME (realtime_seen) and shifted it, both ways. */
	e2e_assert_values(r.out, E2E_ARGV(shift, found, "violations=0"));
	ck_assert_msg(e2e_int_value(r.out, "realtime_seen") >= 1, "the interposer did not see REALTIME:\n%.*s",
		      E2E_SHOWN, r.out);
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

/*
 * Where the run names the glibc its probes are built for (FR_E2E_GLIBC: the arm64 guest with
 * glibc 2.17's probes, scripts/matrix-glibc217.sh), the version probe, preloaded, must run on
 * that glibc with clock_gettime served by the library: the checks above then hold for it, not
 * for whatever C library a wrong loader or rpath would have given.
 */
START_TEST(clocks_on_named_glibc)
{
	char want[64];
	struct e2e_result r;

	snprintf(want, sizeof(want), "glibc=%s\n", e2e_need_env("FR_E2E_GLIBC"));
	e2e_run(&r, NULL, E2E_ARGV(e2e_need_env("FR_PROBE_LIBC_VERSION")));
	e2e_assert_ok(&r);
	e2e_assert_quiet(&r);
	ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0, "the probe does not run on %.*s:\n%.*s",
		      (int)strlen(want) - 1, want, E2E_SHOWN, r.out);
	e2e_assert_served(&r, "clock_gettime");
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
	/* Beside another interposer (chain_lib.c), first and second. */
	tc = e2e_tcase(s, "chain");
	tcase_set_tags(tc, "chain");
	tcase_add_loop_test(tc, clocks_beside_interposer, 0, 2);
	if (getenv("FR_E2E_GLIBC") && *getenv("FR_E2E_GLIBC")) {
		tc = e2e_tcase(s, "glibc");
		tcase_add_test(tc, clocks_on_named_glibc);
	}
	return s;
}

int main(void)
{
	return fr_run_suite(clocks_suite());
}
