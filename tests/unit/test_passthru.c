/* SPDX-License-Identifier: MIT */
/* Unit tests of the error convention: -errno inside, libc's shape only at the exports' tails, errno untouched on success. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <time.h>

#include "run_suite.h"
#include "passthru/passthru.h"
#include "passthru/real.h"
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

static Suite *passthru_suite(void)
{
	Suite *s = suite_create("passthru");
	TCase *tc = tcase_create("convention");

	tcase_add_test(tc, inside_is_minus_errno);
	tcase_add_test(tc, tail_is_libc_shaped);
	tcase_add_test(tc, early_branch);
	tcase_add_test(tc, vdso_entry_error_is_the_kernels);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(passthru_suite());
}
