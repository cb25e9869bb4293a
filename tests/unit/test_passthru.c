/* SPDX-License-Identifier: MIT */
/* Unit tests of the error convention: -errno inside, libc's shape only at the exports' tails, errno untouched on success; the 32-bit ABIs' clock_gettime64 fallback. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "run_suite.h"
#include "passthru/passthru.h"
#include "passthru/real.h"
#include "passthru/time64.h"
#include "startup/runtime.h"

/* What errno holds before each call: a value no call here sets, so that any write shows. */
#define SENTINEL 4242

/* A clock id no kernel knows. */
#define BAD_CLOCK ((clockid_t)12345)

/* The system call and the pass-through answer 0 or -errno and leave errno alone, failing or not. */
START_TEST(inside_is_minus_errno)
{
	struct timespec ts;

	errno = SENTINEL;
	ck_assert_int_eq(fr_sys_clock_gettime(BAD_CLOCK, &ts), -EINVAL);
	ck_assert_int_eq(fr_sys_clock_gettime(CLOCK_MONOTONIC_RAW, NULL), -EFAULT);
	ck_assert_int_eq(fr_sys_clock_gettime(CLOCK_MONOTONIC_RAW, &ts), 0);
	ck_assert_int_eq(fr_passthrough_vdso(BAD_CLOCK, &ts), -EINVAL);
	ck_assert_int_eq(fr_passthrough_vdso(CLOCK_MONOTONIC_RAW, &ts), 0);
	ck_assert_int_eq(errno, SENTINEL);
}
END_TEST

/* The tails' conversion: -1 with errno set on failure, errno untouched on success. */
START_TEST(tail_is_libc_shaped)
{
	struct timespec ts;

	errno = SENTINEL;
	ck_assert_int_eq(fr_passthrough_libc(CLOCK_MONOTONIC_RAW, &ts), 0);
	ck_assert_int_eq(errno, SENTINEL);
	ck_assert_int_eq(fr_passthrough_libc(BAD_CLOCK, &ts), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = SENTINEL;
	ck_assert_int_eq(fr_finish((struct fr_kret){ -EFAULT }), -1);
	ck_assert_int_eq(errno, EFAULT);
}
END_TEST

/*
 * Before relocation errno is out of reach: the system call's error becomes -1 and errno stays as
 * it was. The next clock_gettime in the chain (libc's here) answers in libc's shape itself, and
 * its answer is returned as it is.
 */
START_TEST(early_branch)
{
	struct timespec ts;

	errno = SENTINEL;
	ck_assert_int_eq(fr_finish_unrelocated((struct fr_kret){ -EINVAL }), -1);
	ck_assert_int_eq(fr_finish_unrelocated((struct fr_kret){ 0 }), 0);
	/* No timespec: the system call's EFAULT, as -1. */
	ck_assert_int_eq(fr_early_clock_gettime(CLOCK_MONOTONIC_RAW, NULL), -1);
	ck_assert_int_eq(errno, SENTINEL);
	ck_assert_int_eq(fr_early_clock_gettime(CLOCK_MONOTONIC_RAW, &ts), 0);
	ck_assert_int_eq(errno, SENTINEL);
	ck_assert_int_eq(fr_early_clock_gettime(BAD_CLOCK, &ts), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* A kernel clock that fails RAW with an error no path of the library makes up. */
static int refusing_real(clockid_t clk, struct timespec *ts)
{
	(void)clk;
	(void)ts;
	return -EPERM;
}

/* A RAW entry as the published ones are: libc-shaped, failing only when its pass-through does. */
static int raw_entry(struct timespec *ts)
{
	return fr_passthrough_libc(CLOCK_MONOTONIC_RAW, ts);
}

/* The same, with an errno of its own on failure: what the vDSO-shaped entry must not report. */
static int raw_entry_other_errno(struct timespec *ts)
{
	(void)ts;
	errno = EIO;
	return -1;
}

/*
 * The vDSO-shaped entry returns -errno and never touches errno: its error is the pass-through's
 * own, in the library's convention, not what a libc-shaped RAW entry left in errno.
 */
START_TEST(vdso_entry_error_is_the_kernels)
{
	struct timespec ts;

	__atomic_store_n(&fr_hot.real.call, refusing_real, __ATOMIC_RELEASE);
	__atomic_store_n(&fr_hot.raw, raw_entry, __ATOMIC_RELEASE);
	errno = SENTINEL;
	ck_assert_int_eq(fr_vdso_clock_gettime(CLOCK_MONOTONIC_RAW, &ts), -EPERM);
	ck_assert_int_eq(errno, SENTINEL);
	__atomic_store_n(&fr_hot.raw, raw_entry_other_errno, __ATOMIC_RELEASE);
	ck_assert_int_eq(fr_vdso_clock_gettime(CLOCK_MONOTONIC_RAW, &ts), -EPERM);
	ck_assert_int_eq(errno, SENTINEL);
	ck_assert_int_eq(fr_vdso_clock_gettime(CLOCK_MONOTONIC_RAW, NULL), -EFAULT);
	ck_assert_int_eq(fr_vdso_clock_gettime(CLOCK_MONOTONIC, &ts), -EPERM);
	ck_assert_int_eq(errno, SENTINEL);
}
END_TEST

/* passthru/time64.h: clock_gettime64, or the widened 32-bit call once the kernel said ENOSYS, and only then. */

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

static Suite *passthru_suite(void)
{
	Suite *s = suite_create("passthru");
	TCase *tc = tcase_create("convention");

	tcase_add_test(tc, inside_is_minus_errno);
	tcase_add_test(tc, tail_is_libc_shaped);
	tcase_add_test(tc, early_branch);
	tcase_add_test(tc, vdso_entry_error_is_the_kernels);
	suite_add_tcase(s, tc);
	tc = tcase_create("time64");
	tcase_add_test(tc, time64_kernel);
	tcase_add_test(tc, enosys_is_remembered);
	tcase_add_test(tc, other_errors_are_answers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(passthru_suite());
}
