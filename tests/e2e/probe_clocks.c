/* SPDX-License-Identifier: MIT */
/* Probe: every clock id, valid or not, answers through the interposed symbols exactly as the kernel does. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"

/* errno before each call: a successful call must leave it alone, as libc's does. */
#define ERRNO_SENTINEL 4321
/* Failures printed; the rest are only counted. */
#define MAX_SHOWN 10

/* The scheduler CPU clock of a process that cannot exist (its pid is above PID_MAX_LIMIT). */
#define BAD_PID_CLOCK ((clockid_t)(~(clockid_t)0x0ffffff0 * 8 + 2))

struct named_clock {
	const char *name;
	clockid_t id;
};

static int checked, failures, with_null = 1;
static int idle_pipe[2];

/* Compares one call through fn with the kernel's answer for the same id and prints a mismatch. */
static void check(const char *via, e2e_clock_fn fn, const char *name, clockid_t id)
{
	struct timespec a = { 0 }, m = { -1, -1 }, b = { 0 };
	long ka, kb;
	int ret, err, ok;

	ka = k_clock_gettime(id, &a);
	errno = ERRNO_SENTINEL;
	ret = fn(id, &m);
	err = errno;
	kb = k_clock_gettime(id, &b);
	if (ka == 0) {
		/* Auxiliary clocks (16 and up) may be stepped: only the known ids must be monotonic. */
		int bracket = id < 16;

		ok = ret == 0 && err == ERRNO_SENTINEL && kb == 0 && m.tv_nsec >= 0 &&
		     m.tv_nsec < 1000000000L &&
		     (!bracket || (ts_ns(&a) <= ts_ns(&m) && ts_ns(&m) <= ts_ns(&b)));
	} else {
		ok = ret == -1 && err == -ka;
	}
	checked++;
	if (ok || failures++ >= MAX_SHOWN)
		return;
	printf("FAIL %s(%s, id %d): kernel %ld, got %d errno %d", via, name, (int)id, ka, ret, err);
	if (ka == 0)
		printf("; kernel %lld.%09ld, lib %lld.%09ld, kernel %lld.%09ld", (long long)a.tv_sec,
		       a.tv_nsec, (long long)m.tv_sec, m.tv_nsec, (long long)b.tv_sec, b.tv_nsec);
	printf("\n");
}

/* A NULL timespec gets the kernel's answer: EFAULT for CLOCK_MONOTONIC_RAW, EINVAL for a bad id. */
static void check_null(const char *via, e2e_clock_fn fn, clockid_t id)
{
	long k = k_clock_gettime(id, NULL);
	int ret, err;

	errno = 0;
	ret = fn(id, NULL);
	err = errno;
	checked++;
	if ((k >= 0 || ret != -1 || err != -k || (id == CLOCK_MONOTONIC_RAW && err != EFAULT)) &&
	    failures++ < MAX_SHOWN)
		printf("FAIL %s(%d, NULL): kernel %ld, got %d errno %d\n", via, (int)id, k, ret, err);
}

static void *idle(void *arg)
{
	char c;

	(void)arg;
	while (read(idle_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void check_all(const char *via, e2e_clock_fn fn, const struct named_clock *list, size_t n)
{
	char name[32];

	for (size_t i = 0; i < n; i++)
		check(via, fn, list[i].name, list[i].id);
	/* Sweep: the CPU clocks of pid 0 and 1 below zero, the fixed ids and the unused ones above. */
	for (int id = -24; id <= 40; id++) {
		snprintf(name, sizeof(name), "sweep");
		check(via, fn, name, id);
	}
	if (with_null) {
		check_null(via, fn, CLOCK_MONOTONIC_RAW);
		check_null(via, fn, 12345);
		check_null(via, fn, -1);
	}
}

int main(int argc, char **argv)
{
	struct named_clock list[] = {
		{ "CLOCK_MONOTONIC_RAW", CLOCK_MONOTONIC_RAW },
		{ "CLOCK_REALTIME", CLOCK_REALTIME },
		{ "CLOCK_MONOTONIC", CLOCK_MONOTONIC },
		{ "CLOCK_PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID },
		{ "CLOCK_THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID },
		{ "CLOCK_REALTIME_COARSE", CLOCK_REALTIME_COARSE },
		{ "CLOCK_MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE },
		{ "CLOCK_BOOTTIME", CLOCK_BOOTTIME },
		{ "CLOCK_REALTIME_ALARM", CLOCK_REALTIME_ALARM },
		{ "CLOCK_BOOTTIME_ALARM", CLOCK_BOOTTIME_ALARM },
		{ "CLOCK_TAI", CLOCK_TAI },
		{ "16", 16 },
		{ "12345", 12345 },
		{ "INT_MAX", INT_MAX },
		{ "INT_MIN", INT_MIN },
		{ "-1", -1 },
		{ "cpu clock of a missing pid", BAD_PID_CLOCK },
		{ "cpu clock of self", 0 },
		{ "cpu clock of parent", 0 },
		{ "cpu clock of this thread", 0 },
		{ "cpu clock of another thread", 0 },
	};
	size_t n = sizeof(list) / sizeof(list[0]);
	/* The private entry is glibc's 32-bit one, called as such (e2e_as_entry32). */
	e2e_clock_fn private_fn = e2e_as_entry32(dlsym(RTLD_DEFAULT, "__clock_gettime"));
	pthread_t other;

	/* libc's own clock_gettime faults on NULL: only the library promises EFAULT. */
	if (argc > 1 && strcmp(argv[1], "no-null") == 0)
		with_null = 0;
	if (pipe(idle_pipe) != 0 || pthread_create(&other, NULL, idle, NULL) != 0 ||
	    clock_getcpuclockid(getpid(), &list[n - 4].id) != 0 ||
	    clock_getcpuclockid(getppid(), &list[n - 3].id) != 0 ||
	    pthread_getcpuclockid(pthread_self(), &list[n - 2].id) != 0 ||
	    pthread_getcpuclockid(other, &list[n - 1].id) != 0) {
		printf("setup failed: %s\n", strerror(errno));
		return 2;
	}
	check_all("clock_gettime", clock_gettime, list, n);
	if (private_fn)
		check_all("__clock_gettime", private_fn, list, n);
	close(idle_pipe[1]);
	pthread_join(other, NULL);
	printf("served=%s\n", e2e_served_by(E2E_CLOCK_GETTIME));
	printf("served_private=%s\n", e2e_served_by("__clock_gettime"));
	printf("checked=%d\nfailures=%d\n", checked, failures);
	return failures == 0 ? 0 : 1;
}
