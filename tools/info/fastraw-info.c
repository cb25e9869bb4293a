/* SPDX-License-Identifier: MIT */
/* fastraw-info: what libfastraw would do in a preloaded process on this machine, and why. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "common/tool_args.h"
#include "common/tool_output.h"
#include "info/info.h"

#define DEFAULT_SAMPLES 100000L
#define MAX_SAMPLES 100000000L

extern char **environ;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fastraw-info [--json] [--samples N] [--release R]\n"
		"Shows the kernel's clock data, the CPU's counter features and what libfastraw would do\n"
		"in a process preloaded with it (FASTRAW_TSC and FASTRAW_DISABLE are honoured), then\n"
		"checks clock_gettime(CLOCK_MONOTONIC_RAW) against the system call.\n"
		"  -j, --json       one JSON object instead of \"key: value\" lines\n"
		"  -n, --samples N  agreement samples, 0 to skip (default %ld)\n"
		"  -r, --release R  decide as if the kernel release were R (the library's own decision,\n"
		"                   through its internal entry for tools: which layout the page and the\n"
		"                   vDSO prove; a preloaded library is not affected)\n"
		"  -h, --help       this text\n"
		"Exit status: 0 report printed, 1 it could not be, 2 bad usage.\n",
		DEFAULT_SAMPLES);
}

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "fastraw-info: %s%s\n", what, arg ? arg : "");
	usage(stderr);
	return 2;
}

/*
 * Runs the library's own start-up decision in this process. Under LD_PRELOAD, libfastraw.so has
 * already printed this process's warnings (and the FASTRAW_DEBUG line); the tool's copy of the
 * same code would print them a second time, so its stderr is parked on /dev/null meanwhile.
 */
static const struct fr_status *decide(int quiet, const char *release)
{
	const struct fr_status *st;
	int saved = -1, null_fd;

	if (quiet) {
		saved = dup(2);
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (saved >= 0 && null_fd >= 0)
			dup2(null_fd, 2);
		if (null_fd >= 0)
			close(null_fd);
	}
	st = fr_tool_decide(release);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	return st;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "samples", required_argument, NULL, 'n' },
		{ "release", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct info in;
	long samples = DEFAULT_SAMPLES;
	const char *release = NULL;
	int json = 0, c;

	tool_output_init("fastraw-info", 1);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jn:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'n':
			if (tool_parse_long(optarg, 0, MAX_SAMPLES, &samples) != 0)
				return bad_usage("--samples wants a number from 0 to 100000000, not ", optarg);
			break;
		case 'r':
			release = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			return bad_usage("missing value for ", argv[optind - 1]);
		default:
			/* A long option is shown whole; a short one may sit in a group ("-jx"). */
			if (strncmp(argv[optind - 1], "--", 2) != 0 && optopt) {
				char o[3] = { '-', (char)optopt, '\0' };

				return bad_usage("unknown option ", o);
			}
			return bad_usage("bad option ", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument ", argv[optind]);

	info_agree_resolve(&in.agree);
	in.status = decide(in.agree.preloaded, release);
	if (!in.status) {
		fprintf(stderr, "fastraw-info: the start-up decision was not published\n");
		return 1;
	}
	info_sys_read(&in.sys);
	in.cal_ineligible = fr_tool_cal_ineligible(in.status, &in.sys.cpu);
	info_counter_explain(&in.counter, &in.sys.cpu, environ, (int)getauxval(AT_SECURE));
	info_pages_read(&in.pages, in.status);
	info_agree_run(&in.agree, samples, in.status->active || in.status->calibrated);
	if (json)
		info_print_json(stdout, &in);
	else
		info_print_text(stdout, &in);
	/* A write that failed is reported, with status 1, at exit (common/tool_output.h). */
	return 0;
}
