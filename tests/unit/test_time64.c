/* SPDX-License-Identifier: MIT */
/* Unit tests of passthru/time64.h: clock_gettime64, or the widened 32-bit call once the kernel said ENOSYS, and only then. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "run_suite.h"
#include "passthru/time64.h"

/* Numbers no ABI gives these calls, so a mix-up of the two shows. */
#define NR64 1064
#define NR32 1032
static const struct fr_time64_nrs nrs = { NR64, NR32 };

/* The stand-in kernel: what clock_gettime64 answers (0, or -errno), and the calls it was asked. */
static long answer64;
static int calls64, calls32;

static long fake_sys(long nr, long a, long b, long c)
{
	(void)a;
	(void)c;
	if (nr == NR64) {
		calls64++;
		if (answer64 == 0)
			*(struct timespec *)b = (struct timespec){ .tv_sec = 5000000000LL, .tv_nsec = 7 };
		return answer64;
	}
	ck_assert_int_eq(nr, NR32);
	calls32++;
	if (!b)
		return -EFAULT;
	/* The 32-bit call's timespec: two 32-bit words. */
	((int32_t *)b)[0] = 2000000000;
	((int32_t *)b)[1] = 999999999;
	return 0;
}

static void reset(long a64)
{
	answer64 = a64;
	calls64 = calls32 = 0;
}

/* A kernel with clock_gettime64 (5.1+) is asked nothing else, call after call. */
START_TEST(time64_kernel)
{
	struct timespec ts;
	int none = 0;

	reset(0);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(fr_time64_gettime(fake_sys, nrs, &none, CLOCK_MONOTONIC_RAW, &ts), 0);
		ck_assert_int_eq(ts.tv_sec, 5000000000LL);
		ck_assert_int_eq(ts.tv_nsec, 7);
	}
	ck_assert_int_eq(calls64, 3);
	ck_assert_int_eq(calls32, 0);
	ck_assert_int_eq(none, 0);
}
END_TEST

/*
 * Before 5.1: the first call learns ENOSYS and widens the 32-bit answer; every later one makes
 * the 32-bit call alone (one system call a reading, not two).
 */
START_TEST(enosys_is_remembered)
{
	struct timespec ts;
	int none = 0;

	reset(-ENOSYS);
	for (int i = 0; i < 3; i++) {
		ts = (struct timespec){ .tv_sec = -1, .tv_nsec = -1 };
		ck_assert_int_eq(fr_time64_gettime(fake_sys, nrs, &none, CLOCK_MONOTONIC_RAW, &ts), 0);
		ck_assert_int_eq(ts.tv_sec, 2000000000);
		ck_assert_int_eq(ts.tv_nsec, 999999999);
	}
	ck_assert_int_eq(calls64, 1);
	ck_assert_int_eq(calls32, 3);
	ck_assert_int_eq(none, 1);
	/* The 32-bit call's own errors come back as they are. */
	ck_assert_int_eq(fr_time64_gettime(fake_sys, nrs, &none, CLOCK_MONOTONIC_RAW, NULL), -EFAULT);
	ck_assert_int_eq(calls64, 1);
}
END_TEST

/* Any other error (a bad clock, a seccomp filter's EPERM) is the answer, and nothing is remembered. */
START_TEST(other_errors_are_answers)
{
	static const long errs[] = { -EINVAL, -EPERM, -EFAULT };
	struct timespec ts;
	int none = 0;

	for (unsigned i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		reset(errs[i]);
		ck_assert_int_eq(fr_time64_gettime(fake_sys, nrs, &none, CLOCK_MONOTONIC_RAW, &ts), errs[i]);
		ck_assert_int_eq(calls64, 1);
		ck_assert_int_eq(calls32, 0);
		ck_assert_int_eq(none, 0);
	}
}
END_TEST

static Suite *time64_suite(void)
{
	Suite *s = suite_create("time64");
	TCase *tc = tcase_create("fallback");

	tcase_add_test(tc, time64_kernel);
	tcase_add_test(tc, enosys_is_remembered);
	tcase_add_test(tc, other_errors_are_answers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(time64_suite());
}
