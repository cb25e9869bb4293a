/* SPDX-License-Identifier: MIT */
/* End-to-end: syscall(SYS_clock_gettime) on the fast path, clock_getres(RAW), and the public API (include/fastraw.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define SAMPLES "200000"
#define SAMPLES_N 200000
#define TIMENS_OFFSET_SEC 86400L

/*
 * A late conversion is exact while the pvclock page stays the same; a KVM master-clock update
 * in between adds its correction. This machine's pages do not change in 200 ms; the tolerance
 * only keeps a rare update from failing the run.
 */
#define LATE_TOLERANCE_NS 1000

static void run_sys(struct e2e_result *r, const struct e2e_opts *opts)
{
	e2e_run(r, opts, E2E_ARGV(e2e_need_env("FR_PROBE_SYS"), SAMPLES));
	e2e_assert_ok(r);
	e2e_assert_served(r, "served");
	ck_assert_int_eq(e2e_int_value(r->out, "samples"), SAMPLES_N);
	e2e_assert_values(r->out, E2E_ARGV("violations=0", "other_violations=0", "fails=0"));
	ck_assert_int_eq(e2e_int_value(r->out, "getres_lib"), e2e_int_value(r->out, "getres_sys"));
}

/* With FASTRAW_SYSCALL=1 every syscall(SYS_clock_gettime, CLOCK_MONOTONIC_RAW) is a fast-path call, exact against the kernel. */
START_TEST(syscall_raw_is_fast)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_STATS=1", "FASTRAW_SYSCALL=1") };
	struct e2e_result r;

	run_sys(&r, &opts);
	ck_assert_int_ge(e2e_fast_of(r.err, "MONOTONIC_RAW"), SAMPLES_N);
	e2e_result_free(&r);
}
END_TEST

/* Disabled, and inside a time namespace, syscall() and clock_getres still answer as the kernel does. */
START_TEST(syscall_and_getres_disabled)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_DISABLE=1") };
	struct e2e_result r;

	run_sys(&r, &opts);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

START_TEST(syscall_and_getres_time_namespace)
{
	const struct e2e_opts opts = { .timens_mono_sec = TIMENS_OFFSET_SEC };
	struct e2e_result r;

	run_sys(&r, &opts);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

/* Runs the API probe (linked against the library: no preload) and checks what holds in every mode. */
/*
 * With env set the probe skips its preinit-array calls: there libc has not set environ yet, so
 * a first call from there initialises the library without its FASTRAW_* variables.
 */
static void run_api(struct e2e_result *r, const char *const *env, long timens_sec)
{
	const struct e2e_opts opts = { .env = env, .no_preload = 1, .timens_mono_sec = timens_sec };

	if (env)
		e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_API"), SAMPLES, "nopre"));
	else
		e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_API"), SAMPLES));
	e2e_assert_ok(r);
	e2e_assert_served(r, "served");
	e2e_assert_values(r->out, E2E_ARGV("info_ret=0", "info_full=1", "era_note_ok=1", "info_small_ret=0"));
	/* size and active fit whole before kernel; kernel does not. */
	ck_assert_int_eq(e2e_int_value(r->out, "info_small_size"), e2e_int_value(r->out, "info_small_want"));
	ck_assert_int_ge(e2e_int_value(r->out, "info_small_size"), 8);
	ck_assert_msg(e2e_int_value(r->out, "info_sizes_wrong") == 0, "fastraw_info by size, stdout:\n%.*s",
		      E2E_SHOWN, r->out);
	ck_assert_int_eq(e2e_int_value(r->out, "info_small_untouched"), 1);
	ck_assert_int_eq(e2e_int_value(r->out, "info_null"), -1);
	ck_assert_int_eq(e2e_int_value(r->out, "now_samples"), SAMPLES_N);
	e2e_assert_values(r->out, E2E_ARGV("now_violations=0", "threads_violations=0", "ticks_order=1", "signal_ok=1",
					   "clock_ids=21"));
	ck_assert_msg(e2e_int_value(r->out, "clock_rc_wrong") == 0 && e2e_int_value(r->out, "clock_null_wrong") == 0,
		      "fastraw_clock_gettime's answers, stdout:\n%.*s", E2E_SHOWN, r->out);
	/* Every kernel since 3.10 answers nine ids: 0..7 and TAI; the alarm clocks need an RTC. */
	ck_assert_int_ge(e2e_int_value(r->out, "clock_samples"), 9 * (SAMPLES_N / 20));
	ck_assert_msg(e2e_int_value(r->out, "clock_violations") == 0, "fastraw_clock_gettime outside the bracket:\n%.*s",
		      E2E_SHOWN, r->out);
	if (!env) {
		ck_assert_int_eq(e2e_int_value(r->out, "pre_info"), 0);
		ck_assert_int_eq(e2e_int_value(r->out, "pre_now_in"), 1);
	}
	/* musl runs no executable's preinit array: nothing was called there. */
	if (!env && e2e_int_value(r->out, "pre_ran")) {
		ck_assert_int_eq(e2e_int_value(r->out, "pre_clock_in"), 1);
		ck_assert_int_eq(e2e_int_value(r->out, "pre_clock_null_errno"), EFAULT);
	}
}

static void assert_converts(const struct e2e_result *r)
{
	e2e_assert_values(r->out, E2E_ARGV("active=1", "conv_failed=0", "conv_worst_ns=0"));
	ck_assert_int_le(e2e_int_value(r->out, "late_worst_ns"), LATE_TOLERANCE_NS);
}

START_TEST(api_active)
{
	struct e2e_result r;

	run_api(&r, NULL, 0);
	assert_converts(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "pre_conv_in"), 1);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

START_TEST(api_time_namespace)
{
	struct e2e_result r;
	const int64_t offset = e2e_timens_shift_ns(TIMENS_OFFSET_SEC);
	int64_t before = e2e_kernel_raw_ns(), after;

	run_api(&r, NULL, TIMENS_OFFSET_SEC);
	after = e2e_kernel_raw_ns();
	assert_converts(&r);
	ck_assert_int_ge(e2e_int_value(r.out, "conv_last"), before + offset);
	ck_assert_int_le(e2e_int_value(r.out, "conv_last"), after + offset);
	e2e_result_free(&r);
}
END_TEST

/* Disabled: the time still comes from the vDSO, ticks still count, nothing converts. */
START_TEST(api_disabled)
{
	struct e2e_result r;

	run_api(&r, E2E_ENV("FASTRAW_DISABLE=1"), 0);
	ck_assert_int_eq(e2e_int_value(r.out, "active"), 0);
	ck_assert_int_eq(e2e_int_value(r.out, "conv_last"), -1);
	ck_assert_ptr_nonnull(strstr(r.out, "reason=disabled by FASTRAW_DISABLE\n"));
	e2e_result_free(&r);
}
END_TEST

/*
 * FASTRAW_CLOCKS=all: fastraw_clock_gettime answers as without it (every id, NULL, the
 * bracket), and where RAW is exact it serves MONOTONIC from the page (FASTRAW_STATS counts it).
 */
START_TEST(api_served_clocks)
{
	struct e2e_result r;
	long long fast;

	run_api(&r, E2E_ENV("FASTRAW_CLOCKS=all", "FASTRAW_STATS=1"), 0);
	fast = e2e_fast_of(r.err, "MONOTONIC");
	if (e2e_int_value(r.out, "active") == 1)
		ck_assert_msg(fast >= SAMPLES_N / 20, "MONOTONIC not served through the API:\n%.*s", E2E_SHOWN, r.err);
	else
		ck_assert_msg(fast == 0, "MONOTONIC served although RAW is not exact here:\n%.*s", E2E_SHOWN, r.err);
	e2e_result_free(&r);
}
END_TEST

/* Each counter read the CPU has gives the same answers. */
START_TEST(api_counters)
{
	static const char *const tsc[] = { E2E_TSC(E2E_UNORDERED), E2E_TSC(E2E_FENCED), E2E_TSC(E2E_ORDERED) };
	struct e2e_result r;
	char want[32];

	if (_i == 2 && !e2e_cpu_has_ordered())
		return;
	run_api(&r, E2E_ENV(tsc[_i]), 0);
	assert_converts(&r);
	snprintf(want, sizeof(want), "counter=%s\n", strchr(tsc[_i], '=') + 1);
	ck_assert_msg(strstr(r.out, want), "no %s in:\n%.*s", want, E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

static Suite *api_suite(void)
{
	Suite *s = suite_create("e2e_api");
	TCase *tc = e2e_tcase(s, "api");

	tcase_add_test(tc, syscall_raw_is_fast);
	tcase_add_test(tc, syscall_and_getres_disabled);
	tcase_add_test(tc, api_active);
	tcase_add_test(tc, api_disabled);
	tcase_add_test(tc, api_served_clocks);
	tcase_add_loop_test(tc, api_counters, 0, 3);
	/* Tagged, so that a kernel without time namespaces leaves these out (the matrix guests before 5.6, 32-bit ARM's). */
	tc = e2e_tcase(s, "timens");
	tcase_set_tags(tc, "timens");
	tcase_add_test(tc, syscall_and_getres_time_namespace);
	tcase_add_test(tc, api_time_namespace);
	return s;
}

int main(void)
{
	return fr_run_suite(api_suite());
}
