/* SPDX-License-Identifier: MIT */
/* The exported symbols: clock_gettime and __clock_gettime, with RAW on the fast path. */
#include <errno.h>
#include <time.h>

#include "runtime/runtime.h"
#include "sys/stats.h"

#define FR_EXPORT __attribute__((visibility("default")))

static __attribute__((noinline)) int slow_path(clockid_t clk, struct timespec *ts)
{
	if (!ts) {
		/* The vDSO would write through NULL; the kernel answers EFAULT (or EINVAL for a bad id). */
		if (clk == CLOCK_MONOTONIC_RAW)
			return fr_finish(-EFAULT);
		fr_stats_pass(clk);
		return fr_finish(fr_sys_clock_gettime(clk, ts));
	}
	return fr_passthrough(clk, ts);
}

/*
 * The body has its own name: <time.h> declares clock_gettime's timespec nonnull, which would
 * let the compiler drop the NULL check. The exported names are aliases of it; the hidden name
 * is what dlsym's interposer hands out, whoever else exports clock_gettime.
 */
int fr_clock_gettime(clockid_t clk, struct timespec *ts)
{
	/* A tail call: the fast path answers in libc's convention, passing through itself when it must. */
	if (__builtin_expect(clk == CLOCK_MONOTONIC_RAW && ts != NULL, 1))
		return __atomic_load_n(&fr_raw, __ATOMIC_ACQUIRE)(ts);
	return slow_path(clk, ts);
}

FR_EXPORT int clock_gettime(clockid_t clk, struct timespec *ts) __attribute__((alias("fr_clock_gettime")));
FR_EXPORT int __clock_gettime(clockid_t clk, struct timespec *ts) __attribute__((alias("fr_clock_gettime")));

static void __attribute__((constructor)) fr_ctor(void)
{
	fr_init();
}
