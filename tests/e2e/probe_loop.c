/* SPDX-License-Identifier: MIT */
/* Probe: linked with a library whose clock_gettime leads back to libfastraw (loop_lib.c), every clock still answers, inside the kernel's bracket, and never loops. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"

int loop_lib_present(void);
int loop_lib_depth(void);
void loop_lib_global(int (*f)(clockid_t, struct timespec *));

#define SAMPLES 2000
/* A loop spins or recurses at once: a probe still running after this long has one. */
#define HANG_SECONDS 10

static const struct {
	const char *name;
	clockid_t id;
} clocks[] = {
	{ "realtime", CLOCK_REALTIME },   { "monotonic", CLOCK_MONOTONIC },
	{ "raw", CLOCK_MONOTONIC_RAW },   { "boottime", CLOCK_BOOTTIME },
	{ "process", CLOCK_PROCESS_CPUTIME_ID },
};

/*
 * Calibrated mode (forced, or a kernel with no RAW data) promises RAW within 2 us of the
 * kernel's, not inside its bracket: its RAW answers get that much slack, as probe_lookup's do.
 */
#define CALIBRATED_BOUND_NS 2000

static int64_t slack_ns(clockid_t clk)
{
	const char *src = getenv("FASTRAW_SOURCE"), *expect = getenv("FR_E2E_EXPECT");
	int calibrated = (src && strcmp(src, "calibrated") == 0) || (expect && strcmp(expect, "calibrated") == 0);

	return clk == CLOCK_MONOTONIC_RAW && calibrated ? CALIBRATED_BOUND_NS : 0;
}

/* The bracket holds for the clocks whose kernel reads around the call are on the same clock. */
static void run(const char *via, e2e_clock_fn fn)
{
	for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		struct e2e_tally t = { .slack_ns = slack_ns(clocks[c].id) };

		/* CPU time is not monotonic across threads' views, but it is for this one thread. */
		for (int i = 0; i < SAMPLES; i++)
			e2e_bracket(&t, fn, clocks[c].id);
		printf("%s.%s samples=%" PRIu64 " violations=%" PRIu64 "\n", via, clocks[c].name, t.samples,
		       t.violations);
		if (t.violations)
			printf("%s.%s first_bad ret=%d %lld.%09ld %lld.%09ld %lld.%09ld\n", via, clocks[c].name, t.bad_ret,
			       (long long)t.bad[0].tv_sec, t.bad[0].tv_nsec, (long long)t.bad[1].tv_sec,
			       t.bad[1].tv_nsec, (long long)t.bad[2].tv_sec, t.bad[2].tv_nsec);
	}
}

/* argv[1] "null": also MONOTONIC with a NULL timespec, which libc's own clock_gettime would write through. */
int main(int argc, char **argv)
{
	/* Through a pointer: <time.h> says the timespec is never NULL, and this call passes one. */
	e2e_clock_fn volatile direct = clock_gettime;
	struct timespec ts;
	void *p;
	int ret, err;

	alarm(HANG_SECONDS);
	if (!loop_lib_present())
		return 2;
	loop_lib_global(clock_gettime);
	run("direct", clock_gettime);
	p = dlsym(RTLD_DEFAULT, "clock_gettime");
	if (p)
		run("default", (e2e_clock_fn)p);
	printf("default=%s\n", p ? "found" : "missing");
	p = dlsym(RTLD_NEXT, "clock_gettime");
	if (p)
		run("next", (e2e_clock_fn)p);
	printf("next=%s\n", p ? "found" : "missing");
	/* A NULL timespec takes its own path through libfastraw (to the interposer after it): the kernel's EFAULT. */
	if (argc > 1 && argv[1][0] == 'n') {
		errno = 0;
		ret = direct(CLOCK_MONOTONIC, NULL);
		err = errno;
		printf("mono_null ret=%d errno=%d\n", ret, err);
	}
	ret = clock_gettime(CLOCK_MONOTONIC, &ts);
	printf("done ret=%d\n", ret);
	/* How deep the library's own clock_gettime went inside itself: 1 for a wrapper that leads nowhere back. */
	printf("lib_depth=%d\n", loop_lib_depth());
	return 0;
}
