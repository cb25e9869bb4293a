/* SPDX-License-Identifier: MIT */
/* End-to-end: syscall(SYS_clock_gettime) keeps the kernel's contract: EFAULT for bad pointers, the system call itself for every id. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define SAMPLES "100000"
#define SAMPLES_N 100000

/* The n after "MONOTONIC_RAW fast=" in the FASTRAW_STATS line. */
static long long stats_fast(const char *err)
{
	const char *p = strstr(err, "MONOTONIC_RAW fast=");

	ck_assert_msg(p, "no stats line:\n%.*s", E2E_SHOWN, err);
	return strtoll(p + strlen("MONOTONIC_RAW fast="), NULL, 10);
}

/* The probe's matrix: 24 clock ids (3 of them RAW once truncated to an int) times 14 pointers,
   2 of which are the mapped but unwritable pages. */
#define MATRIX_CASES (24 * 14)
#define RAW_UNWRITABLE (3 * 2)

static void run_efault(struct e2e_result *r, const char *const *env, const char *mode)
{
	const int optin = strcmp(mode, "optin") == 0;

	const struct e2e_opts opts = { .env = env };

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_EFAULT"), mode));
	e2e_assert_ok(r);
	/* Every clock id, valid or not, times every pointer: the same return value and errno as the
	   system call instruction, and never a signal. */
	ck_assert_int_eq(e2e_int_value(r->out, "matrix_cases"), MATRIX_CASES - (optin ? RAW_UNWRITABLE : 0));
	ck_assert_int_eq(e2e_int_value(r->out, "matrix_skipped"), optin ? RAW_UNWRITABLE : 0);
	ck_assert_msg(e2e_int_value(r->out, "matrix_bad") == 0, "%.*s", E2E_SHOWN, r->out);
	/* Under a seccomp filter that makes clock_gettime's system call fail with a marker, every
	   id other than RAW fails with it: syscall() issued the system call, not a vDSO call. */
	ck_assert_int_eq(e2e_int_value(r->out, "other_ids"), 11);
	ck_assert_int_eq(e2e_int_value(r->out, "other_reached_kernel"), 11);
}

/* By default syscall() is the kernel's for RAW too: bad pointers give EFAULT, the call is a system call. */
START_TEST(default_is_the_kernel)
{
	struct e2e_result r;

	run_efault(&r, E2E_ENV("FASTRAW_STATS=1"), "all");
	ck_assert_int_eq(e2e_int_value(r.out, "raw_reached_kernel"), 1);
	/* Nothing went through the library's clock code. */
	ck_assert_int_eq(stats_fast(r.err), 0);
	e2e_result_free(&r);
}
END_TEST

/*
 * FASTRAW_SYSCALL=1: RAW with a usable pointer is served in-process; NULL, low, kernel,
 * non-canonical and page-straddling pointers still get the kernel's EFAULT. The two mapped but
 * unwritable pages are the documented exception and are left out of the matrix.
 */
START_TEST(optin_keeps_efault_where_it_can)
{
	struct e2e_result r;

	run_efault(&r, E2E_ENV("FASTRAW_SYSCALL=1"), "optin");
	ck_assert_int_eq(e2e_int_value(r.out, "raw_reached_kernel"), e2e_expect_passthrough() ? 1 : 0);
	e2e_result_free(&r);
}
END_TEST

/* FASTRAW_SYSCALL=1 with FASTRAW_DISABLE=1: the kernel again. */
START_TEST(optin_disabled_is_the_kernel)
{
	struct e2e_result r;

	run_efault(&r, E2E_ENV("FASTRAW_SYSCALL=1", "FASTRAW_DISABLE=1"), "all");
	ck_assert_int_eq(e2e_int_value(r.out, "raw_reached_kernel"), 1);
	e2e_result_free(&r);
}
END_TEST

/* The sys probe's RAW calls through syscall(): on the fast path only when asked for, exact either way. */
START_TEST(raw_fast_only_when_asked)
{
	const char *const *const envs[] = { E2E_ENV("FASTRAW_STATS=1"),
				      E2E_ENV("FASTRAW_STATS=1", "FASTRAW_SYSCALL=1") };
	const struct e2e_opts opts = { .env = envs[_i] };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_SYS"), SAMPLES));
	e2e_assert_ok(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "samples"), SAMPLES_N);
	ck_assert_int_eq(e2e_int_value(r.out, "violations"), 0);
	ck_assert_int_eq(e2e_int_value(r.out, "fails"), 0);
	if (_i == 0)
		ck_assert_int_eq(stats_fast(r.err), 0);
	else if (!e2e_expect_passthrough())
		ck_assert_int_ge(stats_fast(r.err), SAMPLES_N);
	e2e_result_free(&r);
}
END_TEST

static Suite *syscall_suite(void)
{
	Suite *s = suite_create("e2e_syscall");
	TCase *tc = e2e_tcase(s, "syscall");

	tcase_add_test(tc, default_is_the_kernel);
	tcase_add_test(tc, optin_keeps_efault_where_it_can);
	tcase_add_test(tc, optin_disabled_is_the_kernel);
	tcase_add_loop_test(tc, raw_fast_only_when_asked, 0, 2);
	return s;
}

int main(void)
{
	return fr_run_suite(syscall_suite());
}
