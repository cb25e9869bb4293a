/* SPDX-License-Identifier: MIT */
/* End-to-end: the process's first RAW read never hurts the host: the configuration is the one it started with, a jump out of the read or a fork during it leaves a working library, a small stack suffices. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The probe's mode, with its one argument or none (NULL), run to its end. */
static void run_probe(struct e2e_result *r, const char *const *env, const char *mode, const char *arg)
{
	const struct e2e_opts opts = { .env = env };

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_FIRSTREAD"), mode, arg));
	e2e_assert_ok(r);
}

/*
 * A mode that runs `children` processes: none read RAW wrong (`other`), and in none did
 * fastraw_info fail for good (`stuck`, the message naming the case). Prints how many landed in
 * the first read (the probe's count `landed`, unless NULL).
 */
static void run_children(const char *test, const char *mode, const char *children, const char *landed,
			 const char *stuck)
{
	struct e2e_result r;

	run_probe(&r, NULL, mode, children);
	ck_assert_int_eq(e2e_int_value(r.out, "other"), 0);
	ck_assert_msg(e2e_int_value(r.out, "stuck") == 0, "%s:\n%.*s", stuck, E2E_SHOWN, r.out);
	if (landed)
		printf("%s: %s %lld of %s children in the first read\n", test, landed,
		       (long long)e2e_int_value(r.out, landed), children);
	e2e_result_free(&r);
}

static const char *value_of(const char *out, const char *key)
{
	const char *p = strstr(out, key);

	ck_assert_msg(p != NULL, "no %s in:\n%.*s", key, E2E_SHOWN, out);
	return p + strlen(key);
}

/*
 * FASTRAW_DISABLE=1 and FASTRAW_SOURCE=off hold although the program clears its environment
 * before its first RAW read: the configuration is read once, before main.
 */
START_TEST(clearenv_keeps_configuration)
{
	static const char *const settings[] = { "FASTRAW_DISABLE=1", "FASTRAW_SOURCE=off" };
	static const char *const reasons[] = { "reason=disabled by FASTRAW_DISABLE\n", "reason=disabled by FASTRAW_SOURCE=off\n" };
	struct e2e_result r;

	run_probe(&r, E2E_ENV(settings[_i]), "clearenv", NULL);
	ck_assert_int_eq(e2e_int_value(r.out, "raw_ok"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "info_rc"), 0);
	ck_assert_int_eq(e2e_int_value(r.out, "active"), 0);
	ck_assert_msg(strstr(r.out, reasons[_i]), "%s lost after clearenv:\n%.*s", settings[_i], E2E_SHOWN, r.out);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

/*
 * Variables the program puts into its environment for its children (FASTRAW_SOURCE=calibrated,
 * FASTRAW_DEBUG=1, FASTRAW_DISABLE=1) change nothing in the program itself: no line, no switch.
 */
START_TEST(putenv_changes_nothing)
{
	struct e2e_result r;

	run_probe(&r, NULL, "putenv", NULL);
	ck_assert_int_eq(e2e_int_value(r.out, "raw_ok"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "info_rc"), 0);
	e2e_assert_quiet(&r);
	ck_assert_msg(!strstr(r.out, "reason=disabled by FASTRAW_DISABLE\n"), "putenv switched the program:\n%.*s",
		      E2E_SHOWN, r.out);
	if (!e2e_expect_calibrated())
		ck_assert_msg(strncmp(value_of(r.out, "source="), "calibrated\n", 11) != 0,
			      "putenv switched the program to calibrated mode:\n%.*s", E2E_SHOWN, r.out);
	e2e_result_free(&r);
}
END_TEST

/* The probe's syscall() RAW calls (probe_firstread.c, SYS_CALLS). */
#define SYS_CALLS 1000

/*
 * FASTRAW_SYSCALL is read once as well, although syscall() asks for it only at its first call,
 * made here after the program changed its environment: FASTRAW_SYSCALL=1 holds through clearenv
 * (RAW served in-process, where the fast path serves RAW at all), and a putenv of it switches
 * nothing on (every syscall() RAW call is the kernel's: the one fast call is clock_gettime's).
 */
START_TEST(syscall_mode_read_once)
{
	static const char *const how[] = { "clearenv", "putenv" };
	const char *const *const envs[] = { E2E_ENV("FASTRAW_STATS=1", "FASTRAW_SYSCALL=1"), E2E_ENV("FASTRAW_STATS=1") };
	struct e2e_result r;

	run_probe(&r, envs[_i], how[_i], NULL);
	ck_assert_int_eq(e2e_int_value(r.out, "sys_ok"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "raw_ok"), 1);
	if (_i == 1)
		ck_assert_int_lt(e2e_fast_of(r.err, "MONOTONIC_RAW"), SYS_CALLS);
	else if (!e2e_expect_passthrough())
		ck_assert_int_ge(e2e_fast_of(r.err, "MONOTONIC_RAW"), SYS_CALLS);
	e2e_result_free(&r);
}
END_TEST

/*
 * A handler siglongjmps out of the first RAW read, a timer landing it anywhere in the read (one
 * child process per delay): every child's later reads are right and fastraw_info answers.
 */
START_TEST(jump_out_of_first_read)
{
	run_children("jump_out_of_first_read", "jump", "400", "jumped", "fastraw_info failed for good after a jump");
}
END_TEST

/*
 * A fork during the first RAW read: from a handler that a timer lands anywhere in the read (one
 * process per delay), and from the main thread while another thread makes the read. Each child
 * reads RAW right and fastraw_info answers: it starts over, where the parent's read never ends.
 */
START_TEST(fork_during_first_read)
{
	const char *stuck = "a fork child's fastraw_info failed for good";

	run_children("fork_during_first_read", "forkin", "400", "forked", stuck);
	run_children("fork_during_first_read", "fork", "300", NULL, stuck);
}
END_TEST

/*
 * The first RAW read in a handler on an alternate stack that leaves 1 KiB beyond what a handler
 * reading the vDSO's clock uses there (the kernel's signal frame, MINSIGSTKSZ or more, included),
 * with a guard page below it, and on a thread with a 16 KiB stack; with FASTRAW_DISABLE=1 too.
 * The probe measures both uses on a painted stack; the program alone runs the same.
 */
START_TEST(first_read_on_small_stacks)
{
	const char *const *envs[] = { NULL, E2E_ENV("FASTRAW_DISABLE=1") };
	const char *first = getenv("FR_PRELOAD_FIRST");
	struct e2e_result r;

	/* Instrumented code's frames carry redzones: the budget is the ordinary build's. */
	if (first && *first) {
		printf("first_read_on_small_stacks: skipped in a sanitizer build\n");
		return;
	}
	for (int e = 0; e < 2; e++) {
		run_probe(&r, envs[e], "altstack", NULL);
		printf("first_read_on_small_stacks%s: the first read used %lld bytes more than a vDSO read\n",
		       e ? " (FASTRAW_DISABLE=1)" : "", (long long)e2e_int_value(r.out, "first_read_more"));
		ck_assert_int_le(e2e_int_value(r.out, "first_read_more"), 1024);
		ck_assert_msg(strstr(r.out, "handler_ok=1\n"), "the first read overflowed the alternate stack:\n%.*s",
			      E2E_SHOWN, r.out);
		e2e_result_free(&r);
		run_probe(&r, envs[e], "thread16k", NULL);
		ck_assert_int_eq(e2e_int_value(r.out, "thread_ok"), 1);
		e2e_result_free(&r);
	}
}
END_TEST

static Suite *firstread_suite(void)
{
	Suite *s = suite_create("e2e_firstread");
	TCase *tc = e2e_tcase(s, "firstread");

	tcase_add_loop_test(tc, clearenv_keeps_configuration, 0, 2);
	tcase_add_test(tc, putenv_changes_nothing);
	tcase_add_loop_test(tc, syscall_mode_read_once, 0, 2);
	tcase_add_test(tc, jump_out_of_first_read);
	tcase_add_test(tc, fork_during_first_read);
	tcase_add_test(tc, first_read_on_small_stacks);
	return s;
}

int main(void)
{
	return fr_run_suite(firstread_suite());
}
