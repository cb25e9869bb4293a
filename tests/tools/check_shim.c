/* SPDX-License-Identifier: MIT */
/* A deliberately wrong clock_gettime, preloaded in fastraw-check's tests; FR_SHIM chooses the fault. */
#define _GNU_SOURCE
#include "cpu_test.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * FR_SHIM=backwards  every 1000th call in a thread is 1 ms early (one step back each time)
 * FR_SHIM=cross      each thread is offset by 1 s times the order of its first call: steady
 *                    within a thread, but a later thread's values run ahead of an earlier one's
 * FR_SHIM=nsec       every 1000th call is denormalised (tv_nsec >= 1e9 or < 0, same instant)
 * FR_SHIM=error      every 1000th call fails with EINVAL
 * FR_SHIM=offset     every call is shifted by FR_SHIM_OFFSET_NS (signed): outside the kernel's
 *                    window, but consistent within and across threads
 * Anything else, or unset: the real clock_gettime.
 */
enum shim_mode { SHIM_OFF, SHIM_BACKWARDS, SHIM_CROSS, SHIM_NSEC, SHIM_ERROR, SHIM_OFFSET };

#define NS_PER_SEC 1000000000LL
#define EVERY 1000

static int (*real_clock_gettime)(clockid_t clk, struct timespec *ts);
static enum shim_mode mode;
static int64_t offset_ns;
static int threads_seen;
static __thread int thread_no;
static __thread uint64_t calls;

static void __attribute__((constructor)) shim_init(void)
{
	static const char *const names[] = { "", "backwards", "cross", "nsec", "error", "offset" };
	const char *m = getenv("FR_SHIM"), *off = getenv("FR_SHIM_OFFSET_NS");

	real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	for (int i = 1; m && i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(m, names[i]) == 0)
			mode = (enum shim_mode)i;
	offset_ns = off ? strtoll(off, NULL, 10) : 0;
}

static void shift(struct timespec *ts, int64_t delta)
{
	int64_t ns = (int64_t)ts->tv_sec * NS_PER_SEC + ts->tv_nsec + delta;
	int64_t sec = ns / NS_PER_SEC, rem = ns % NS_PER_SEC;

	if (rem < 0) {
		rem += NS_PER_SEC;
		sec--;
	}
	ts->tv_sec = (time_t)sec;
	ts->tv_nsec = (long)rem;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	/* Sanitizer runtimes read the clock before our constructor has run: ask the kernel then. */
	int ret = real_clock_gettime ? real_clock_gettime(clk, ts)
				     : (int)syscall(FRT_SYS_CLOCK_GETTIME, clk, ts);
	int nth = ++calls % EVERY == 0;

	if (ret != 0)
		return ret;
	switch (mode) {
	case SHIM_BACKWARDS:
		if (nth)
			shift(ts, -1000000);
		break;
	case SHIM_CROSS:
		if (!thread_no)
			thread_no = __atomic_add_fetch(&threads_seen, 1, __ATOMIC_RELAXED);
		shift(ts, thread_no * NS_PER_SEC);
		break;
	case SHIM_NSEC:
		/* The same instant, written with tv_nsec out of range in either direction. */
		if (nth && calls % (2 * EVERY) == 0) {
			ts->tv_sec -= 1;
			ts->tv_nsec += NS_PER_SEC;
		} else if (nth) {
			ts->tv_sec += 1;
			ts->tv_nsec -= NS_PER_SEC;
		}
		break;
	case SHIM_ERROR:
		if (nth) {
			errno = EINVAL;
			return -1;
		}
		break;
	case SHIM_OFFSET:
		shift(ts, offset_ns);
		break;
	case SHIM_OFF:
		break;
	}
	return ret;
}
