/* SPDX-License-Identifier: MIT */
/* Probe: a SIGALRM storm whose handler siglongjmps out of CLOCK_MONOTONIC_RAW calls, then how the calls fare and how many getpid they make. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <ucontext.h>

#include "cpu_test.h"
#include "probe.h"
#include "seccomp_one.h"

/*
 * Phases, each a number of seconds of back-to-back RAW calls: quiet (no signals), storm (SIGALRM
 * every 20 us, the handler jumping back to the loop from wherever the call was), settle (quiet
 * again), measure (quiet, getpid counted). The library holds its calibrated update right only
 * for a moment per call during warm-up and per refresh after it, so a storm from the start hits
 * the warm-up and one after a quiet warm-up hits the refreshes.
 */

static sigjmp_buf back;
static volatile sig_atomic_t jumps;

static void on_alarm(int sig)
{
	(void)sig;
	jumps++;
	siglongjmp(back, 1);
}

/*
 * getpid counted by a seccomp filter that traps it: the handler answers with the pid the
 * kernel gave before the filter, so the library sees no difference.
 */
static volatile sig_atomic_t getpids;
static pid_t pid;

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	getpids++;
	FRT_UC_SET_RET(uc, pid);
}

/* 0, or -1 where the kernel has no seccomp filters (the count is then unknown). */
static int count_getpid(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	pid = (pid_t)syscall(SYS_getpid);
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		return -1;
	return e2e_seccomp_one(SYS_getpid, SECCOMP_RET_TRAP);
}

/*
 * RAW calls until the kernel's MONOTONIC passes end_ns and at least min calls came back;
 * returns how many did, counting failures in *failed.
 */
static unsigned long long calls_until(int64_t end_ns, unsigned long long min, volatile unsigned long long *failed)
{
	unsigned long long n = 0;
	struct timespec k, t;

	do {
		for (int i = 0; i < 1000; i++, n++)
			if (clock_gettime(CLOCK_MONOTONIC_RAW, &t) != 0 || t.tv_nsec < 0 || t.tv_nsec >= 1000000000L)
				++*failed;
		k_clock_gettime(CLOCK_MONOTONIC, &k);
	} while (ts_ns(&k) < end_ns || n < min);
	return n;
}

static int64_t mono_ns(void)
{
	struct timespec k;

	k_clock_gettime(CLOCK_MONOTONIC, &k);
	return ts_ns(&k);
}

int main(int argc, char **argv)
{
	static volatile unsigned long long failed, storm_rounds;
	static volatile int64_t storm_end;
	struct itimerval on = { { 0, 20 }, { 0, 20 } }, off;
	unsigned long long quiet, settle, measure;
	int64_t measure_ns;
	struct sigaction sa;
	int counting;

	if (argc != 5) {
		printf("usage: %s QUIET STORM SETTLE MEASURE (seconds)\n", argv[0]);
		return 2;
	}
	quiet = calls_until(mono_ns() + (int64_t)(atof(argv[1]) * 1e9), 0, &failed);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	if (sigaction(SIGALRM, &sa, NULL) != 0)
		return 2;
	storm_end = mono_ns() + (int64_t)(atof(argv[2]) * 1e9);
	/*
	 * Each jump lands here with the signal mask as it was: the storm goes on until its end. The
	 * jump buffer is set before the timer starts: on a slow guest the first alarm can come
	 * before the next line does.
	 */
	if (sigsetjmp(back, 1) == 0 && setitimer(ITIMER_REAL, &on, NULL) != 0)
		return 2;
	storm_rounds++;
	if (mono_ns() < storm_end)
		calls_until(storm_end, 0, &failed);
	memset(&off, 0, sizeof(off));
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);

	settle = calls_until(mono_ns() + (int64_t)(atof(argv[3]) * 1e9), 0, &failed);
	counting = count_getpid() == 0;
	getpids = 0;
	/* At least 100,000 calls, however busy the machine: a stuck right makes a getpid in each. */
	measure_ns = mono_ns();
	measure = calls_until(measure_ns + (int64_t)(atof(argv[4]) * 1e9), 100000, &failed);
	measure_ns = mono_ns() - measure_ns;

	printf("served=%s\n", e2e_served_by("clock_gettime"));
	printf("quiet_calls=%llu\nsettle_calls=%llu\njumps=%d\nfailed=%llu\n", quiet, settle, (int)jumps,
	       (unsigned long long)failed);
	printf("measure_calls=%llu\nmeasure_ns=%lld\ngetpid_counted=%d\nmeasure_getpid=%d\n", measure,
	       (long long)measure_ns, counting, (int)getpids);
	return 0;
}
