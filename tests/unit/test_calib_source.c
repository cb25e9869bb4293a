/* SPDX-License-Identifier: MIT */
/* Calibrated mode's readers against a stand-in kernel clock: a handler jumping out of an update. */
#define _GNU_SOURCE
#include <check.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "calib/calib_source.h"
#include "ksys.h"
#include "passthru/passthru.h"
#include "run_suite.h"

/*
 * The kernel clock calibrated mode samples (fr_real): the kernel's RAW moved by `offset`. On
 * request it raises SIGUSR1 before it returns, as a signal arriving in the middle of the update
 * would.
 */
static int64_t offset;
static volatile int kernel_calls;
static volatile sig_atomic_t raise_next;

static int64_t kernel_now(void)
{
	struct timespec k;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &k);
	return ts_ns(&k) + offset;
}

static int stand_in(clockid_t clk, struct timespec *ts)
{
	int64_t ns = kernel_now();

	ck_assert_int_eq(clk, CLOCK_MONOTONIC_RAW);
	ts->tv_sec = (time_t)(ns / 1000000000);
	ts->tv_nsec = (long)(ns % 1000000000);
	kernel_calls++;
	if (raise_next) {
		raise_next = 0;
		raise(SIGUSR1);
	}
	return 0;
}

/* Each test runs in a forked child (Check's default), so each starts calibrated mode afresh. */
static fr_raw_fn start(int64_t off)
{
	offset = off;
	__atomic_store_n(&fr_real, stand_in, __ATOMIC_RELEASE);
	fr_cal_setup(0);
	return fr_cal_raw_for(FR_CTR_FENCED);
}

/* Calls raw until one is answered from the line, not by the kernel (warm-up is over): that answer. */
static int64_t warm_up(fr_raw_fn raw)
{
	int64_t end = kernel_now() + 30 * 1000000000LL;
	struct timespec ts;

	for (;;) {
		int before = kernel_calls;

		ck_assert_int_eq(raw(&ts), 0);
		if (kernel_calls == before)
			return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
		ck_assert_msg(kernel_now() < end, "calibrated mode did not start serving in 30 s");
	}
}

/* Where an answer may lie: between the stand-in's readings around it, give or take slack. */
static void assert_between(int64_t a, const struct timespec *ts, int64_t b, int64_t slack)
{
	int64_t v = (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec;

	ck_assert_msg(ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000L, "tv_nsec %ld out of range", ts->tv_nsec);
	ck_assert_msg(v >= a - slack && v <= b + slack, "%lld.%09ld not in [%lld, %lld] +- %lld", (long long)ts->tv_sec,
		      ts->tv_nsec, (long long)a, (long long)b, (long long)slack);
}

static sigjmp_buf back;
static volatile sig_atomic_t jumps;

static void on_usr1(int sig)
{
	(void)sig;
	jumps++;
	siglongjmp(back, 1);
}

/*
 * A handler that siglongjmps out of the call while it refreshes the line (the signal comes
 * during the refresh's kernel call) leaves the refreshes going: the next ones come as due, a
 * few per refresh period, and the caller's signal mask is as it was.
 */
START_TEST(jump_out_of_a_refresh)
{
	fr_raw_fn raw = start(0);
	struct sigaction sa;
	sigset_t mask, now;
	struct timespec ts;
	int64_t end;
	int calls;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	/* A signal the caller blocks stays blocked, the others open. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, &mask, NULL), 0);
	warm_up(raw);

	if (sigsetjmp(back, 1) == 0) {
		end = kernel_now() + 10 * 1000000000LL;
		raise_next = 1;
		/* The next kernel call is a refresh's, due within a quarter of a period (25 ms). */
		while (kernel_now() < end)
			ck_assert_int_eq(raw(&ts), 0);
	}
	ck_assert_msg(jumps == 1, "no refresh in 10 s");
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, NULL, &now), 0);
	ck_assert(sigismember(&now, SIGUSR2) && !sigismember(&now, SIGUSR1) && !sigismember(&now, SIGALRM));

	/* One second: 40 refreshes are due. */
	calls = kernel_calls;
	end = kernel_now() + 1000000000LL;
	while (kernel_now() < end) {
		int64_t a = kernel_now(), b;

		ck_assert_int_eq(raw(&ts), 0);
		b = kernel_now();
		assert_between(a, &ts, b, 1000000);
	}
	ck_assert_msg(kernel_calls - calls >= 10, "%d refreshes in 1 s after the jump", kernel_calls - calls);
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, NULL, &now), 0);
	ck_assert(sigismember(&now, SIGUSR2) && !sigismember(&now, SIGUSR1));
}
END_TEST

static Suite *calib_source_suite(void)
{
	Suite *s = suite_create("calib_source");
	TCase *tc = tcase_create("signals");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, jump_out_of_a_refresh);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(calib_source_suite());
}
