/* SPDX-License-Identifier: MIT */
/* Test-only LD_PRELOAD shim: clock_gettime repeats a reading once and steps back once, at fixed calls. */
#define _GNU_SOURCE
#include "cpu_test.h"
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * Call numbers, from 1, over the process's CLOCK_MONOTONIC_RAW calls (other clocks pass
 * untouched: the ASan runtime reads clocks of its own). fastraw-latency's first call checks the
 * clock, so its samples ts[0], ts[1], ... are calls 2, 3, ...: call 5 (ts[3]) repeats ts[2], a
 * zero delta, and call 8 (ts[6]) is 1 ms behind ts[5], an inconsistent delta.
 */
#define REPEAT_CALL 5
#define BACK_CALL 8
#define BACK_NS 1000000L

/* Single-threaded use only: the tool under test calls from one thread. */
static unsigned long calls;
static struct timespec last;

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	/* The system call, not the next clock_gettime: this shim must not depend on what else is loaded. */
	if (syscall(FRT_SYS_CLOCK_GETTIME, clk, ts) != 0)
		return -1;
	if (clk != CLOCK_MONOTONIC_RAW)
		return 0;
	calls++;
	if (calls == REPEAT_CALL) {
		*ts = last;
	} else if (calls == BACK_CALL) {
		ts->tv_nsec -= BACK_NS;
		if (ts->tv_nsec < 0) {
			ts->tv_nsec += 1000000000L;
			ts->tv_sec--;
		}
	}
	last = *ts;
	return 0;
}
