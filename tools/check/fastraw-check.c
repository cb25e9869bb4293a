/* SPDX-License-Identifier: MIT */
/* fastraw-check: many threads read a clock in tight loops and report every reading that breaks its rules. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_report.h"
#include "check/check_run.h"
#include "common/tool_args.h"
#include "common/tool_output.h"
#include "passthru/passthru.h"
#include "report/clocknames.h"

#define MAX_SECONDS 86400.0

/* Exit statuses, as documented in usage(). */
enum { EXIT_OK = 0, EXIT_VIOLATION = 1, EXIT_USAGE = 2, EXIT_RUN = 3 };

struct opts {
	clockid_t clk;
	double seconds;
	int threads; /* 0: one per allowed CPU */
	int against_kernel;
	int json;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fastraw-check [-c CLOCK] [-t SECONDS] [-j THREADS] [--against-kernel] [--json]\n"
		"  -c, --clock CLOCK    clock to read: a name (MONOTONIC_RAW, CLOCK_MONOTONIC, realtime,\n"
		"                       ...) or a clock id number (default MONOTONIC_RAW)\n"
		"  -t, --seconds SECS   how long to read, decimals allowed, at most 86400 (default 1)\n"
		"  -j, --threads N      reading threads, pinned round-robin to the CPUs this process may\n"
		"                       use (default: one per CPU)\n"
		"      --against-kernel also put every %dth reading between two clock_gettime system\n"
		"                       calls and require it inside their window\n"
		"      --json           print one JSON object instead of text lines\n"
		"  -h, --help           print this help\n"
		"Checks: no reading earlier than the thread's previous one (backwards); none earlier\n"
		"than the value another thread published before it (cross; not for CPU-time clocks,\n"
		"whose threads' readings are not ordered: cross=n/a); 0 <= tv_nsec < 1e9\n"
		"(nsec_range); no failed call (errors). The last line is the summary.\n"
		"Exit status: 0 no violation, 1 a violation, 2 usage error, 3 could not run or\n"
		"standard output could not be written.\n",
		CHECK_SANDWICH_EVERY);
}

static void __attribute__((format(printf, 1, 2), noreturn)) bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fastraw-check: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	usage(stderr);
	exit(EXIT_USAGE);
}

/* Plain decimal seconds ("1", "0.5", ".25"), greater than 0 and at most MAX_SECONDS. */
static double parse_seconds(const char *s)
{
	size_t digits = strspn(s, "0123456789.");
	const char *dot = strchr(s, '.');
	char *end;
	double v;

	if (!*s || s[digits] || (dot && strchr(dot + 1, '.')) || strcmp(s, ".") == 0)
		bad_usage("-t wants seconds as a decimal number such as 1 or 0.5, not \"%s\"", s);
	v = strtod(s, &end);
	if (*end || !(v > 0) || v > MAX_SECONDS)
		bad_usage("-t must be more than 0 and at most %.0f seconds, not \"%s\"", MAX_SECONDS, s);
	return v;
}

static int parse_threads(const char *s)
{
	long v;

	if (tool_parse_long(s, 1, CHECK_MAX_THREADS, &v) != 0)
		bad_usage("-j must be a whole number of threads from 1 to %d, not \"%s\"",
			  CHECK_MAX_THREADS, s);
	return (int)v;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "clock", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'j' },
		{ "against-kernel", no_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->clk = CLOCK_MONOTONIC_RAW;
	o->seconds = 1.0;
	while ((c = getopt_long(argc, argv, "c:t:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (fr_clock_parse(optarg, &o->clk) != 0)
				bad_usage("unknown clock \"%s\": give a name such as MONOTONIC_RAW, "
					  "MONOTONIC or REALTIME, or a clock id number", optarg);
			break;
		case 't':
			o->seconds = parse_seconds(optarg);
			break;
		case 'j':
			o->threads = parse_threads(optarg);
			break;
		case 'k':
			o->against_kernel = 1;
			break;
		case 'J':
			o->json = 1;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		default: /* getopt has said what was wrong */
			usage(stderr);
			exit(EXIT_USAGE);
		}
	}
	if (optind != argc)
		bad_usage("unexpected argument \"%s\"", argv[optind]);
}

/* "1.0", "0.5", "0.001": at least one decimal, no trailing zeros beyond it. */
static void format_seconds(char *buf, size_t len, double s)
{
	size_t n;

	snprintf(buf, len, "%.6f", s);
	n = strlen(buf);
	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
}

/* Refuses, before any thread starts, a clock that cannot be read at all. */
static void check_clock_readable(const struct opts *o, const char *name)
{
	struct timespec ts;
	int ret;

	if (clock_gettime(o->clk, &ts) != 0) {
		fprintf(stderr, "fastraw-check: clock %s cannot be read: %s\n", name, strerror(errno));
		exit(EXIT_USAGE);
	}
	ret = o->against_kernel ? fr_sys_clock_gettime(o->clk, &ts) : 0;
	if (ret < 0) {
		fprintf(stderr, "fastraw-check: the kernel's clock_gettime(%s) fails: %s\n", name,
			strerror(-ret));
		exit(EXIT_USAGE);
	}
}

/*
 * CPU-time clocks: the calling thread's (THREAD_CPUTIME_ID), the process's (PROCESS_CPUTIME_ID),
 * and those of other threads and processes, which the kernel encodes as negative ids. Each
 * thread reads its own thread clock; the process clock is a sum in which a thread sees its own
 * time to the nanosecond but the others' only as of their last accounting. Neither orders one
 * thread's readings after another's, so the cross-thread check means nothing for them.
 */
static int cpu_time_clock(clockid_t clk)
{
	return clk == CLOCK_PROCESS_CPUTIME_ID || clk == CLOCK_THREAD_CPUTIME_ID || clk < 0;
}

int main(int argc, char **argv)
{
	static int cpus[CHECK_MAX_THREADS];
	struct opts o = { 0 };
	struct check_config cfg = { 0 };
	struct check_header h = { 0 };
	struct check_thread *thr;
	struct check_totals tot;
	char name[48], secs[32];
	int ret;

	tool_output_init("fastraw-check", EXIT_RUN);
	parse_args(argc, argv, &o);
	if (fr_clock_name(o.clk))
		snprintf(name, sizeof(name), "%s", fr_clock_name(o.clk));
	else
		snprintf(name, sizeof(name), "%d", (int)o.clk);
	check_clock_readable(&o, name);

	cfg.clk = o.clk;
	cfg.seconds = o.seconds;
	cfg.against_kernel = o.against_kernel;
	cfg.cross_check = !cpu_time_clock(o.clk);
	cfg.cpus = cpus;
	cfg.ncpus = check_allowed_cpus(cpus, CHECK_MAX_THREADS);
	cfg.threads = o.threads ? o.threads : cfg.ncpus > 0 ? cfg.ncpus : 1;
	thr = calloc((size_t)cfg.threads, sizeof(*thr));
	if (!thr) {
		fprintf(stderr, "fastraw-check: out of memory\n");
		return EXIT_RUN;
	}
	ret = check_run(&cfg, thr);
	if (ret < 0) {
		fprintf(stderr, "fastraw-check: could not run %d threads: %s\n", cfg.threads,
			strerror(-ret));
		return EXIT_RUN;
	}

	format_seconds(secs, sizeof(secs), o.seconds);
	h.clock = name;
	h.clock_id = o.clk;
	h.seconds = secs;
	h.cfg = &cfg;
	check_sum(thr, cfg.threads, &tot);
	if (o.json)
		check_print_json(stdout, &h, thr, &tot);
	else
		check_print_text(stdout, &h, thr, &tot);
	for (int i = 0; i < cfg.threads; i++)
		free(thr[i].window_hist);
	free(thr);
	/* A write that failed is reported, with EXIT_RUN, at exit (common/tool_output.h). */
	return check_failed(&tot) ? EXIT_VIOLATION : EXIT_OK;
}
