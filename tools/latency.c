/* SPDX-License-Identifier: MIT */
/* fastraw-demo-latency: the mean time between consecutive clock_gettime calls, and any steps backwards. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: fastraw-demo-latency [-m] [-n SAMPLES]\n"
		   "  -m          read CLOCK_MONOTONIC instead of CLOCK_MONOTONIC_RAW\n"
		   "  -n SAMPLES  consecutive calls to time (default 100000)\n");
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

int main(int argc, char **argv)
{
	clockid_t clk = CLOCK_MONOTONIC_RAW;
	const char *name = "MONOTONIC_RAW";
	long samples = 100000, zero = 0, backwards = 0;
	struct timespec ts;
	int64_t first, prev;
	char *end;
	int c;

	while ((c = getopt(argc, argv, "mn:h")) != -1) {
		switch (c) {
		case 'm':
			clk = CLOCK_MONOTONIC;
			name = "MONOTONIC";
			break;
		case 'n':
			errno = 0;
			samples = strtol(optarg, &end, 10);
			if (errno || *optarg == '\0' || *end != '\0' || samples <= 0 || samples > LONG_MAX / 2) {
				fprintf(stderr, "fastraw-demo-latency: -n needs a positive number, not \"%s\"\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	if (clock_gettime(clk, &ts) != 0) {
		perror("fastraw-demo-latency: clock_gettime");
		return 2;
	}
	first = prev = ts_ns(&ts);
	for (long i = 0; i < samples; i++) {
		int64_t now;

		clock_gettime(clk, &ts);
		now = ts_ns(&ts);
		if (now == prev)
			zero++;
		else if (now < prev)
			backwards++;
		prev = now;
	}

	/* The deltas telescope: their mean is the whole span over the number of calls. */
	printf("clock=%s samples=%ld avg_ns=%.1f zero_deltas=%ld inconsistent=%ld\n", name, samples,
	       (double)(prev - first) / (double)samples, zero, backwards);
	return backwards ? 1 : 0;
}
