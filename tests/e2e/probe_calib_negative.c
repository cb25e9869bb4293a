/* SPDX-License-Identifier: MIT */
/* Probe: CLOCK_MONOTONIC_RAW and fastraw_now_ns in a time namespace whose offset puts RAW before zero. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "probe.h"
#include "timens.h"

/* RAW must lag MONOTONIC by this much at least: a new process then starts with RAW below zero. */
#define MIN_LAG_NS 20000000LL

static int64_t kernel_ns(clockid_t clk)
{
	struct timespec ts;

	k_clock_gettime(clk, &ts);
	return ts_ns(&ts);
}

/*
 * A new time namespace whose CLOCK_MONOTONIC starts at about zero: its offset is minus the
 * host's MONOTONIC (offsets are the host's, not this namespace's). RAW there is RAW - MONOTONIC
 * of the host, negative where RAW lags. NULL, or why not.
 */
static const char *enter(void)
{
	static char why[128];
	int64_t off = fr_test_timens_offset_ns(), lag, host;
	long long sec, nsec;
	int err;

	lag = kernel_ns(CLOCK_MONOTONIC_RAW) - kernel_ns(CLOCK_MONOTONIC);
	if (lag > -MIN_LAG_NS) {
		snprintf(why, sizeof(why), "RAW lags MONOTONIC by %lld ns here, less than %lld", (long long)-lag,
			 MIN_LAG_NS);
		return why;
	}
	if (unshare(CLONE_NEWTIME) != 0) {
		snprintf(why, sizeof(why), "unshare(CLONE_NEWTIME): %s", strerror(errno));
		return why;
	}
	host = kernel_ns(CLOCK_MONOTONIC) - off;
	/* The offset as the file takes it: whole seconds (floor) and nanoseconds in [0, 1e9). */
	sec = -(host / 1000000000LL);
	nsec = host % 1000000000LL ? 1000000000LL - host % 1000000000LL : 0;
	sec -= nsec != 0;
	err = fr_test_set_timens_offset(sec, nsec);
	if (err) {
		snprintf(why, sizeof(why), "writing /proc/self/timens_offsets: %s", strerror(err));
		return why;
	}
	return NULL;
}

/* In the namespace: RAW readings, and fastraw_now_ns's, between two kernel readings, while the kernel's stay negative. */
static int measure(void)
{
	int64_t (*now_ns)(void) = (int64_t(*)(void))dlsym(RTLD_DEFAULT, "fastraw_now_ns");
	unsigned long long samples = 0, negative = 0, failed = 0, failed_errno0 = 0, bad_nsec = 0, outside = 0;
	unsigned long long now_negative = 0, now_outside = 0;
	long long first_sec = 0, first_nsec = 0;

	for (int i = 0; i < 1000; i++) {
		struct timespec m = { 0, 0 };
		int64_t a = kernel_ns(CLOCK_MONOTONIC_RAW), b, v;
		int ret;

		if (a >= 0)
			break;
		errno = 0;
		ret = clock_gettime(CLOCK_MONOTONIC_RAW, &m);
		b = kernel_ns(CLOCK_MONOTONIC_RAW);
		samples++;
		if (ret != 0) {
			failed++;
			failed_errno0 += errno == 0;
		} else {
			if (samples == 1) {
				first_sec = m.tv_sec;
				first_nsec = m.tv_nsec;
			}
			bad_nsec += m.tv_nsec < 0 || m.tv_nsec >= 1000000000L;
			negative += m.tv_sec < 0;
			/* Warm-up answers are the kernel's own; a line's, if one is served this early, 2 us around it. */
			outside += e2e_outside(a, ts_ns(&m), b) > 2000;
		}
		if (now_ns) {
			a = kernel_ns(CLOCK_MONOTONIC_RAW);
			v = now_ns();
			b = kernel_ns(CLOCK_MONOTONIC_RAW);
			now_negative += v < 0 && v != -1;
			now_outside += e2e_outside(a, v, b) > 2000;
		}
	}
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	printf("samples=%llu\nnegative=%llu\nfailed=%llu\nfailed_errno0=%llu\nbad_nsec=%llu\noutside=%llu\n", samples,
	       negative, failed, failed_errno0, bad_nsec, outside);
	printf("first=%lld.%09lld\nnow_found=%d\nnow_negative=%llu\nnow_outside=%llu\n", first_sec, first_nsec,
	       now_ns != NULL, now_negative, now_outside);
	return 0;
}

int main(int argc, char **argv)
{
	const char *why;
	int status;
	pid_t pid;

	if (argc > 1 && strcmp(argv[1], "inside") == 0)
		return measure();
	why = enter();
	if (why) {
		printf("skip=%s\n", why);
		return 0;
	}
	/* Only children live in the new namespace: a fresh process, the library started there. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "inside", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 2;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
