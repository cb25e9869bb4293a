/* SPDX-License-Identifier: MIT */
/* fastraw-latency: the mean delta between consecutive clock_gettime calls, counting zero and backward deltas. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/tool_args.h"
#include "common/tool_output.h"
#include "report/clocknames.h"

#define PROG "fastraw-latency"
#define NSEC_PER_SEC 1000000000LL
#define DEFAULT_SAMPLES 100L
/* The samples are kept (16 bytes each) so that nothing but the calls runs in the timed loop. */
#define MAX_SAMPLES 100000000L
#define MAX_REPEAT 1000000L

enum { EXIT_BACKWARDS = 1, EXIT_USAGE = 2, EXIT_OUTPUT = 3 };

/*
 * One repeat reads SAMPLES timespecs ts[0] .. ts[SAMPLES-1] and looks at the SAMPLES-1 deltas
 * ts[i] - ts[i-1], i = 1 .. SAMPLES-1: the sum is over those and the average divides by
 * SAMPLES-1. A zero delta is two equal readings; an inconsistent one is a reading earlier than
 * the one before it.
 */
struct run {
	int64_t sum_ns;
	long zero;
	long inconsistent;
};

struct opts {
	clockid_t clk;
	long samples;
	long repeat;
	int repeat_given;
	int dump;
	int json;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-m] [-c CLOCK] [-n SAMPLES] [-r REPEAT] [-d] [--json] [-h]\n"
		"Reads the clock SAMPLES times in a row with clock_gettime, REPEAT times over. For each\n"
		"repeat it prints the sum of the SAMPLES-1 deltas between consecutive timespecs (ns),\n"
		"that sum in seconds, the average latency (the sum / (SAMPLES-1), in whole ns: the\n"
		"smallest time the clock can measure), and how many deltas were zero or negative\n"
		"(inconsistent). One call before the first repeat checks the clock and is not counted.\n"
		"  -m          CLOCK_MONOTONIC instead of CLOCK_MONOTONIC_RAW (same as -c MONOTONIC)\n"
		"  -c CLOCK    the clock: a name in any case, with or without CLOCK_ (monotonic_raw,\n"
		"              CLOCK_REALTIME), or a number (4); the last of -m and -c counts\n"
		"  -n SAMPLES  timespecs per repeat, 2 to %ld (default %ld): SAMPLES-1 deltas\n"
		"  -r REPEAT   repeats, 1 to %ld (default 1); when given, a last line averages them\n"
		"  -d          print every timespec (seconds.nanoseconds) before its repeat's result\n"
		"  --json      one JSON object instead of the text (averages not rounded to whole ns)\n"
		"  -h, --help  this text\n"
		"Exit status: 0; 1 when any delta was negative; 2 on a usage error or a clock that\n"
		"cannot be read; 3 when standard output could not be written.\n",
		MAX_SAMPLES, DEFAULT_SAMPLES, MAX_REPEAT);
}

/* Fills o from argv and returns -1 to go on, or the status to exit with: 0 after -h, else EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "mc:n:r:dh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->clk = CLOCK_MONOTONIC;
			break;
		case 'c':
			if (fr_clock_parse(optarg, &o->clk) != 0) {
				fprintf(stderr, PROG ": unknown clock \"%s\": give a name such as MONOTONIC_RAW, "
						"monotonic or CLOCK_REALTIME, or a number\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			if (tool_parse_long(optarg, 2, MAX_SAMPLES, &o->samples) != 0) {
				fprintf(stderr, PROG ": -n needs a number of samples from 2 to %ld, not \"%s\"\n",
					MAX_SAMPLES, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r':
			if (tool_parse_long(optarg, 1, MAX_REPEAT, &o->repeat) != 0) {
				fprintf(stderr, PROG ": -r needs a number of repeats from 1 to %ld, not \"%s\"\n",
					MAX_REPEAT, optarg);
				return EXIT_USAGE;
			}
			o->repeat_given = 1;
			break;
		case 'd':
			o->dump = 1;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			/* getopt has named the bad option on stderr. */
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument \"%s\"\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	return -1;
}

/*
 * The timed loop: nothing but the calls and the stores. Failures are collected, not tested,
 * so that no branch on the result sits between one call and the next.
 */
static int measure(clockid_t clk, struct timespec *ts, long n)
{
	int bad = 0;

	for (long i = 0; i < n; i++)
		bad |= clock_gettime(clk, &ts[i]);
	return bad ? -1 : 0;
}

static int64_t ts_delta_ns(const struct timespec *a, const struct timespec *b)
{
	return ((int64_t)b->tv_sec - (int64_t)a->tv_sec) * NSEC_PER_SEC + (b->tv_nsec - a->tv_nsec);
}

/* The deltas telescope, so their sum is ts[n-1] - ts[0] and cannot overflow on its way there. */
static struct run analyse(const struct timespec *ts, long n)
{
	struct run r = { 0, 0, 0 };

	for (long i = 1; i < n; i++) {
		int64_t d = ts_delta_ns(&ts[i - 1], &ts[i]);

		r.sum_ns += d;
		if (d == 0)
			r.zero++;
		else if (d < 0)
			r.inconsistent++;
	}
	return r;
}

/* Writes ns as seconds with nine decimals, e.g. "0.000000018" or "-1.000000000", into buf. */
static const char *fmt_sec(char *buf, size_t len, int64_t ns)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "", (uint64_t)(mag / NSEC_PER_SEC),
		 (uint64_t)(mag % NSEC_PER_SEC));
	return buf;
}

static void print_ts(const struct timespec *t, const char *before, const char *after)
{
	printf("%s%lld.%09ld%s", before, (long long)t->tv_sec, (long)t->tv_nsec, after);
}

static void text_run(const struct opts *o, const struct timespec *ts, const struct run *r)
{
	char total[32], avg[32];

	if (o->dump) {
		for (long i = 0; i < o->samples; i++)
			print_ts(&ts[i], "", "\n");
	}
	printf("sum: %" PRId64 "\n", r->sum_ns);
	printf("Total time: %sS - Average Latency: %sS N zero deltas: %ld N inconsistent deltas: %ld\n",
	       fmt_sec(total, sizeof(total), r->sum_ns),
	       fmt_sec(avg, sizeof(avg), r->sum_ns / (o->samples - 1)), r->zero, r->inconsistent);
}

static void json_head(const struct opts *o)
{
	const char *name = fr_clock_name(o->clk);

	printf("{\n");
	if (name)
		printf("  \"clock\": \"%s\",\n", name);
	else
		printf("  \"clock\": null,\n");
	printf("  \"clock_id\": %d,\n", (int)o->clk);
	printf("  \"samples\": %ld,\n  \"deltas\": %ld,\n  \"repeats\": %ld,\n  \"runs\": [",
	       o->samples, o->samples - 1, o->repeat);
}

static void json_run(const struct opts *o, const struct timespec *ts, const struct run *r, long index)
{
	printf("%s\n    {\"sum_ns\": %" PRId64 ", \"avg_ns\": %.3f, \"zero_deltas\": %ld, "
	       "\"inconsistent_deltas\": %ld",
	       index ? "," : "", r->sum_ns, (double)r->sum_ns / (double)(o->samples - 1), r->zero,
	       r->inconsistent);
	if (o->dump) {
		printf(", \"timespecs\": [");
		for (long i = 0; i < o->samples; i++)
			print_ts(&ts[i], i ? ", \"" : "\"", "\"");
		printf("]");
	}
	printf("}");
}

/*
 * The summary: the mean of the repeats' averages. Every repeat has the same number of deltas,
 * so that is the sum of all their sums over all their deltas (not rounded per repeat).
 */
static void json_tail(const struct opts *o, int64_t sum, long zero, long inconsistent)
{
	printf("\n  ],\n  \"avg_ns\": %.3f,\n  \"zero_deltas\": %ld,\n  \"inconsistent_deltas\": %ld\n}\n",
	       (double)sum / ((double)o->repeat * (double)(o->samples - 1)), zero, inconsistent);
}

int main(int argc, char **argv)
{
	struct opts o = { CLOCK_MONOTONIC_RAW, DEFAULT_SAMPLES, 1, 0, 0, 0 };
	struct timespec *ts, probe;
	int64_t total_sum = 0;
	long total_zero = 0, total_inconsistent = 0;
	char avg[32];
	int status;

	tool_output_init(PROG, EXIT_OUTPUT);
	status = parse_args(argc, argv, &o);
	if (status >= 0)
		return status;

	/*
	 * Checks the clock id, and makes a preloaded library do its lazy start-up here rather
	 * than inside the first repeat.
	 */
	if (clock_gettime(o.clk, &probe) != 0) {
		int err = errno;
		const char *name = fr_clock_name(o.clk);

		fprintf(stderr, PROG ": clock %d%s%s: clock_gettime: %s\n", (int)o.clk,
			name ? " " : "", name ? name : "", strerror(err));
		return EXIT_USAGE;
	}

	ts = malloc((size_t)o.samples * sizeof(*ts));
	if (!ts) {
		fprintf(stderr, PROG ": no memory for %ld samples\n", o.samples);
		return EXIT_USAGE;
	}
	/*
	 * Fault the pages in now: a page fault inside the timed loop would count as latency. Not
	 * with zeros: the compiler may merge malloc and a zeroing memset into a calloc, which
	 * leaves fresh pages untouched.
	 */
	memset(ts, 0xff, (size_t)o.samples * sizeof(*ts));

	if (o.json)
		json_head(&o);
	for (long rep = 0; rep < o.repeat; rep++) {
		struct run r;

		if (measure(o.clk, ts, o.samples) != 0) {
			if (o.json)
				printf("\n");
			tool_output_flush();
			fprintf(stderr, PROG ": clock_gettime failed during repeat %ld\n", rep + 1);
			free(ts);
			return EXIT_USAGE;
		}
		r = analyse(ts, o.samples);
		total_sum += r.sum_ns;
		total_zero += r.zero;
		total_inconsistent += r.inconsistent;
		if (o.json)
			json_run(&o, ts, &r, rep);
		else
			text_run(&o, ts, &r);
		/* Outside the timed loop. No reader left: the exit handler says so, measuring on is pointless. */
		if (tool_output_flush() != 0) {
			free(ts);
			return EXIT_OUTPUT;
		}
	}
	free(ts);

	if (o.json)
		json_tail(&o, total_sum, total_zero, total_inconsistent);
	else if (o.repeat_given)
		printf("Average of %ld average latencies of %ld samples : %sS\n", o.repeat, o.samples,
		       fmt_sec(avg, sizeof(avg), total_sum / ((int64_t)o.repeat * (o.samples - 1))));
	return total_inconsistent ? EXIT_BACKWARDS : 0;
}
