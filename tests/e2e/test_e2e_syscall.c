/* SPDX-License-Identifier: MIT */
/* End-to-end: syscall(SYS_clock_gettime) keeps the kernel's contract: EFAULT for bad pointers, the system call itself for every id, every register for a later interposer, served clocks only when asked. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"
#include "harness.h"

#define SAMPLES "100000"
#define SAMPLES_N 100000

/* The probe's matrix: 24 clock ids (3 of them RAW once truncated to an int) times 16 pointers,
   the mapped but unwritable and the unmapped pages among them. */
#define MATRIX_CASES (24 * 16)

static void run_efault(struct e2e_result *r, const char *const *env)
{
	const struct e2e_opts opts = { .env = env };

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_EFAULT")));
	e2e_assert_ok(r);
	/* Every clock id, valid or not, times every pointer: the same return value and errno as the
	   system call instruction, and never a signal. */
	ck_assert_int_eq(e2e_int_value(r->out, "matrix_cases"), MATRIX_CASES);
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

	run_efault(&r, E2E_ENV("FASTRAW_STATS=1"));
	ck_assert_int_eq(e2e_int_value(r.out, "raw_reached_kernel"), 1);
	/* Nothing went through the library's clock code. */
	ck_assert_int_eq(e2e_fast_of(r.err, "MONOTONIC_RAW"), 0);
	e2e_result_free(&r);
}
END_TEST

/*
 * FASTRAW_SYSCALL=1: RAW into the caller's stack page is served in-process; every other pointer,
 * unmapped, read-only and PROT_NONE pages included, gets the kernel's answer (EFAULT), never a
 * signal.
 */
START_TEST(optin_keeps_efault)
{
	struct e2e_result r;

	run_efault(&r, E2E_ENV("FASTRAW_SYSCALL=1"));
	ck_assert_int_eq(e2e_int_value(r.out, "raw_reached_kernel"), e2e_expect_passthrough() ? 1 : 0);
	e2e_result_free(&r);
}
END_TEST

/* FASTRAW_SYSCALL=1 with FASTRAW_DISABLE=1: the kernel again. */
START_TEST(optin_disabled_is_the_kernel)
{
	struct e2e_result r;

	run_efault(&r, E2E_ENV("FASTRAW_SYSCALL=1", "FASTRAW_DISABLE=1"));
	ck_assert_int_eq(e2e_int_value(r.out, "raw_reached_kernel"), 1);
	e2e_result_free(&r);
}
END_TEST

/*
 * FASTRAW_SYSCALL=1 with FASTRAW_CLOCKS=all: the served clocks take RAW's terms, so every id
 * times every pointer still gets the system call instruction's answer (EFAULT for the bad ones),
 * never a signal. (Which of them reach the kernel depends on where main's timespec lies.)
 */
START_TEST(optin_clocks_keep_efault)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SYSCALL=1", "FASTRAW_CLOCKS=all") };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_EFAULT")));
	e2e_assert_ok(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "matrix_cases"), MATRIX_CASES);
	ck_assert_msg(e2e_int_value(r.out, "matrix_bad") == 0, "%.*s", E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

/*
 * The sys probe's MONOTONIC, REALTIME and BOOTTIME calls through syscall() (4000 in all, a third
 * MONOTONIC) with FASTRAW_CLOCKS=all: served like RAW with FASTRAW_SYSCALL=1 where RAW is exact,
 * the kernel's without it; inside the kernel's bracket either way.
 */
START_TEST(clocks_fast_only_when_asked)
{
	const char *const *const envs[] = { E2E_ENV("FASTRAW_STATS=1", "FASTRAW_CLOCKS=all", "FASTRAW_DEBUG=1"),
				      E2E_ENV("FASTRAW_STATS=1", "FASTRAW_CLOCKS=all", "FASTRAW_DEBUG=1",
					      "FASTRAW_SYSCALL=1") };
	const struct e2e_opts opts = { .env = envs[_i] };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_SYS"), "1000"));
	e2e_assert_ok(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "other_samples"), 4000);
	ck_assert_int_eq(e2e_int_value(r.out, "other_violations"), 0);
	ck_assert_int_eq(e2e_int_value(r.out, "fails"), 0);
	/* Where RAW is not exact here, the debug line says only RAW is served. */
	if (_i == 0 || !e2e_lib_line(r.err, "clocks: served from the kernel's page: "))
		ck_assert_int_eq(e2e_fast_of(r.err, "MONOTONIC"), 0);
	else
		ck_assert_msg(e2e_fast_of(r.err, "MONOTONIC") >= 1333, "MONOTONIC through syscall() not served:\n%.*s", E2E_SHOWN,
			      r.err);
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
		ck_assert_int_eq(e2e_fast_of(r.err, "MONOTONIC_RAW"), 0);
	else if (!e2e_expect_passthrough())
		ck_assert_int_ge(e2e_fast_of(r.err, "MONOTONIC_RAW"), SAMPLES_N);
	e2e_result_free(&r);
}
END_TEST

/* The calls the register-spy probe makes, each through libfastraw's syscall() to the spy's. */
static const char *const spy_cases[] = {
	"raw_stack",     "raw_null",       "raw_unmapped", "raw_read_only",
	"raw_prot_none", "raw_other_page", "monotonic",    "getppid",
	FRT_REGSPY_CASE_NAMES
};

/*
 * Which of them FASTRAW_SYSCALL=1 serves in-process: a slot the stub can prove writable. x86-64:
 * the slot above the return address in its page. arm64 (src/arch/aarch64/syscall_stub.S): p >= sp
 * and p + 16 at most the end of the 4 KiB block holding sp - 16; the probe puts sp at an offset
 * in a block and the slot at another: at sp, at the block's last 16 bytes with sp low, in the
 * middle and at the block's last 16 bytes. Not served: 8 bytes past the end, the next block, 16
 * below sp, at sp when sp starts a block (sp - 16 is in the block below, which ends at sp),
 * and a tagged pointer (the kernel answers EFAULT for it; the stub's compare sees it far above).
 */
static int served_in_process(const char *name)
{
	static const char *const served[] = {
		"raw_stack",
		FRT_REGSPY_SERVED_NAMES
	};

	for (size_t i = 0; i < sizeof(served) / sizeof(served[0]); i++)
		if (strcmp(name, served[i]) == 0)
			return 1;
	return 0;
}

START_TEST(later_interposer_sees_every_register)
{
	const char *const modes[][2] = { { NULL }, { "FASTRAW_SYSCALL=1", NULL },
					 { "FASTRAW_SYSCALL=1", "FASTRAW_DISABLE=1" } };
	const char *first = getenv("FR_PRELOAD_FIRST");
	char *preload;
	const char *env[4] = { NULL };
	const struct e2e_opts opts = { .env = env, .no_preload = 1 };
	struct e2e_result r;
	char key[64];

	ck_assert_int_gt(asprintf(&preload, "LD_PRELOAD=%s%s%s:%s", first && *first ? first : "",
				  first && *first ? " " : "", e2e_need_env("FASTRAW_LIB"), e2e_need_env("FR_SPY_LIB")),
			 0);
	env[0] = preload;
	env[1] = modes[_i][0];
	env[2] = env[1] ? modes[_i][1] : NULL;
	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_REGSPY")));
	e2e_assert_ok(&r);
	for (size_t c = 0; c < sizeof(spy_cases) / sizeof(spy_cases[0]); c++) {
		const int served = _i == 1 && served_in_process(spy_cases[c]);

		snprintf(key, sizeof(key), "%s_as_kernel", spy_cases[c]);
		ck_assert_msg(e2e_int_value(r.out, key) == 1, "%s:\n%.*s", key, E2E_SHOWN, r.out);
		snprintf(key, sizeof(key), "%s_calls", spy_cases[c]);
		ck_assert_msg(e2e_int_value(r.out, key) == (served ? 0 : 1), "%s:\n%.*s", key, E2E_SHOWN, r.out);
		snprintf(key, sizeof(key), "%s_exact", spy_cases[c]);
		ck_assert_msg(e2e_int_value(r.out, key) == !served, "%s:\n%.*s", key, E2E_SHOWN, r.out);
		snprintf(key, sizeof(key), "%s_kept", spy_cases[c]);
		ck_assert_msg(e2e_int_value(r.out, key) == 1, "%s:\n%.*s", key, E2E_SHOWN, r.out);
	}
	e2e_result_free(&r);
	free(preload);
}
END_TEST

static Suite *syscall_suite(void)
{
	Suite *s = suite_create("e2e_syscall");
	TCase *tc = e2e_tcase(s, "syscall");

	tcase_add_test(tc, default_is_the_kernel);
	tcase_add_test(tc, optin_keeps_efault);
	tcase_add_test(tc, optin_disabled_is_the_kernel);
	tcase_add_loop_test(tc, raw_fast_only_when_asked, 0, 2);
	tcase_add_test(tc, optin_clocks_keep_efault);
	tcase_add_loop_test(tc, clocks_fast_only_when_asked, 0, 2);
	tcase_add_loop_test(tc, later_interposer_sees_every_register, 0, 3);
	return s;
}

int main(void)
{
	return fr_run_suite(syscall_suite());
}
