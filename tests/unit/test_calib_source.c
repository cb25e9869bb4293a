/* SPDX-License-Identifier: MIT */
/* Calibrated mode's readers against a stand-in kernel clock: a handler jumping out of an update, and negative times. */
#define _GNU_SOURCE
#include <check.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "calib/calib_math.h"
#include "calib/calib_source.h"
#include "arch/arch.h"
#include "ksys.h"
#include "passthru/passthru.h"
#include "passthru/real.h"
#include "run_suite.h"

/*
 * The kernel clock calibrated mode samples (fr_real): a synthetic RAW, the counter at a rate
 * near its real one, starting at `start`'s value and split as the kernel splits a time
 * namespace's values. Exact, so warm-up ends as soon as the estimate has its baseline, also
 * where a real kernel read is slow (qemu-user). On request it raises SIGUSR1 before it
 * returns, as a signal arriving in the middle of the update would.
 */
static uint64_t tsc0, mult;
static int64_t ns0;
static volatile int kernel_calls;
static volatile sig_atomic_t raise_next;

static int64_t kernel_now(void)
{
	uint64_t t = fr_arch_counter_fenced();

	return ns0 + (int64_t)fr_u128_lo(fr_u128_shr(fr_u128_mul(t - tsc0, mult), FR_CAL_FRAC));
}

static int stand_in(clockid_t clk, struct timespec *ts)
{
	int64_t sec, nsec;

	ck_assert_int_eq(clk, CLOCK_MONOTONIC_RAW);
	fr_cal_split(kernel_now(), &sec, &nsec);
	ts->tv_sec = (time_t)sec;
	ts->tv_nsec = (long)nsec;
	kernel_calls++;
	if (raise_next) {
		raise_next = 0;
		raise(SIGUSR1);
	}
	return 0;
}

/* The counter's rate against the kernel's RAW over 50 ms, 32.32 ns per tick: the loops below run in about real time. */
static uint64_t measured_mult(void)
{
	const struct timespec pause = { 0, 50000000 };
	struct timespec a, b;
	uint64_t t0, t1;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = fr_arch_counter_fenced();
	nanosleep(&pause, NULL);
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	t1 = fr_arch_counter_fenced();
	ck_assert_uint_gt(t1, t0);
	return fr_u128_lo(fr_u128_div64(fr_u128_shl(fr_u128_of_s(ts_ns(&b) - ts_ns(&a)), FR_CAL_FRAC), t1 - t0));
}

/*
 * The narrowest of 1000 sandwiches (counter, stand-in, counter), in ns. Calibrated mode leaves
 * warm-up once its predicted error fits a 1 us budget, which sandwiches wider than about that
 * never allow: under an emulator (qemu-user: ~3 us) it rightly never serves.
 */
static int64_t narrowest_ns(void)
{
	uint64_t least = UINT64_MAX;
	struct timespec ts;

	for (int i = 0; i < 1000; i++) {
		uint64_t t0 = fr_arch_counter_fenced(), t1;

		stand_in(CLOCK_MONOTONIC_RAW, &ts);
		t1 = fr_arch_counter_fenced();
		least = t1 - t0 < least ? t1 - t0 : least;
	}
	kernel_calls = 0;
	return (int64_t)fr_u128_lo(fr_u128_shr(fr_u128_mul(least, mult), FR_CAL_FRAC));
}

#define TOO_WIDE_NS 1000

/*
 * Each test runs in a forked child (Check's default), so each starts calibrated mode afresh,
 * with the stand-in clock at `at` ns now, and seeded with its rate as the library is from the
 * kernel or the CPU. NULL, with the reason printed, where no sandwich is narrow enough.
 */
static fr_raw_fn start(int64_t at, const char *test)
{
	int64_t narrowest;

	mult = measured_mult();
	tsc0 = fr_arch_counter_fenced();
	ns0 = at;
	narrowest = narrowest_ns();
	if (narrowest > TOO_WIDE_NS) {
		printf("calib_source: %s skipped: the narrowest sandwich here is %lld ns wide, more than calibrated "
		       "mode's budget allows (an emulator?)\n",
		       test, (long long)narrowest);
		return NULL;
	}
	__atomic_store_n(&fr_real.call, stand_in, __ATOMIC_RELEASE);
	fr_cal_setup(mult);
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
	fr_raw_fn raw;
	struct sigaction sa;
	sigset_t mask, now;
	struct timespec ts;
	int64_t end;
	int calls;

	if (!frt_counter_readable()) {
		printf("SKIP: jump_out_of_a_refresh: the counter is not readable in this process (SIGILL)\n");
		return;
	}
	raw = start(1000 * 1000000000LL, "jump_out_of_a_refresh");
	if (!raw)
		return;

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

/*
 * A time namespace's offset can put RAW before zero. The kernel then answers 0 with tv_sec < 0
 * and tv_nsec in [0, 1e9), and so must calibrated mode: in warm-up (the kernel's own values),
 * once it serves from the line, and across zero; fastraw_now_ns gives tv_sec * 1e9 + tv_nsec.
 */
START_TEST(negative_times)
{
	/* _i == 0: about -1000 s throughout; 1: zero passes 6 s after the start, warm-up long over. */
	const int64_t shift = _i == 0 ? -1000 * 1000000000LL : -6 * 1000000000LL;
	fr_raw_fn raw;
	fr_now_fn now;
	struct timespec ts, last = { 0, 0 };
	int64_t a, b, v, end, served, highest = INT64_MIN;

	if (!frt_counter_readable()) {
		printf("SKIP: negative_times: the counter is not readable in this process (SIGILL)\n");
		return;
	}

	raw = start(shift, "negative_times");
	if (!raw)
		return;
	now = fr_cal_now_for(FR_CTR_FENCED);

	/* The first calls are the kernel's own values, exactly. */
	a = kernel_now();
	ck_assert_int_eq(raw(&ts), 0);
	b = kernel_now();
	assert_between(a, &ts, b, 0);
	ck_assert_int_lt(ts.tv_sec, 0);
	a = kernel_now();
	v = now();
	b = kernel_now();
	ck_assert_msg(v >= a && v <= b && v < 0, "now %lld not in [%lld, %lld]", (long long)v, (long long)a, (long long)b);

	served = warm_up(raw);
	ck_assert_msg(served < 0, "the line served %lld first, not a negative time", (long long)served);
	end = kernel_now() + (_i == 0 ? 1000000000LL : 1000000000LL - shift);
	while ((a = kernel_now()) < end) {
		ck_assert_int_eq(raw(&ts), 0);
		v = now();
		b = kernel_now();
		assert_between(a, &ts, b, 1000000);
		ck_assert_msg(v >= a - 1000000 && v <= b + 1000000, "now %lld not in [%lld, %lld]", (long long)v,
			      (long long)a, (long long)b);
		ck_assert_msg(highest == INT64_MIN || ts.tv_sec > last.tv_sec ||
				      (ts.tv_sec == last.tv_sec && ts.tv_nsec >= last.tv_nsec),
			      "went back: %lld.%09ld after %lld.%09ld", (long long)ts.tv_sec, ts.tv_nsec,
			      (long long)last.tv_sec, last.tv_nsec);
		last = ts;
		highest = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	}
	/* The second run goes on past zero, from the line. */
	if (_i == 1)
		ck_assert_int_gt(highest, 500000000LL);
	else
		ck_assert_int_lt(highest, 0);
}
END_TEST

static Suite *calib_source_suite(void)
{
	Suite *s = suite_create("calib_source");
	TCase *tc = tcase_create("signals");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, jump_out_of_a_refresh);
	suite_add_tcase(s, tc);
	tc = tcase_create("negative");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, negative_times, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(calib_source_suite());
}
