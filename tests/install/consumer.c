/* SPDX-License-Identifier: MIT */
/* A program built against an installed libfastraw, or run with it preloaded: its RAW readings in order and inside a bracket of system calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef FR_CONSUMER_LINKED
#include <fastraw.h>
#endif
#include "ksys.h"

#define SAMPLES 20000

/* One reading of the clock under test between two system calls: 0 inside, else how far outside. */
static int64_t bracketed(int64_t (*read_ns)(void), int64_t *value)
{
	struct timespec a, b;
	int64_t v;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	v = read_ns();
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	*value = v;
	if (v < ts_ns(&a))
		return ts_ns(&a) - v;
	if (v > ts_ns(&b))
		return v - ts_ns(&b);
	return 0;
}

static int64_t via_clock_gettime(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
		return -1;
	return ts_ns(&ts);
}

#ifdef FR_CONSUMER_LINKED
static int64_t via_api(void)
{
	return fastraw_now_ns();
}
#endif

/* SAMPLES bracketed readings: prints and returns the number outside the bracket or backwards. */
static int check(const char *what, int64_t (*read_ns)(void))
{
	int64_t prev = INT64_MIN, v, worst = 0, off;
	int outside = 0, backwards = 0;

	for (int i = 0; i < SAMPLES; i++) {
		off = bracketed(read_ns, &v);
		if (off) {
			outside++;
			worst = off > worst ? off : worst;
		}
		backwards += v < prev;
		prev = v;
	}
	printf("%s: samples=%d outside=%d worst_ns=%lld backwards=%d\n", what, SAMPLES, outside,
	       (long long)worst, backwards);
	return outside + backwards;
}

int main(int argc, char **argv)
{
	void *fn = dlsym(RTLD_DEFAULT, "clock_gettime");
	char want[PATH_MAX], got[PATH_MAX];
	Dl_info where;
	int bad = 0;

	if (argc != 2 || !realpath(argv[1], want)) {
		fprintf(stderr, "usage: consumer EXPECTED_LIBRARY (an existing file)\n");
		return 2;
	}
	/* The library answers dlsym for clock_gettime with its own function. */
	if (!fn || !dladdr(fn, &where) || !where.dli_fname || !realpath(where.dli_fname, got)) {
		printf("clock_gettime: not found in any loaded file\n");
		return 1;
	}
	printf("clock_gettime in %s\n", got);
	if (strcmp(got, want) != 0) {
		printf("FAIL: expected clock_gettime in %s\n", want);
		bad++;
	}
	bad += check("clock_gettime(CLOCK_MONOTONIC_RAW)", via_clock_gettime);
#ifdef FR_CONSUMER_LINKED
	{
		struct fastraw_info in = { .size = sizeof(in) };

		if (fastraw_info(&in) != 0) {
			printf("FAIL: fastraw_info\n");
			bad++;
		} else {
			printf("fastraw_info: active=%d source=%s reason=%s\n", in.active, in.source, in.reason);
		}
	}
	bad += check("fastraw_now_ns", via_api);
#endif
	return bad ? 1 : 0;
}
