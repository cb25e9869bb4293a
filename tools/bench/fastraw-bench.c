/* SPDX-License-Identifier: MIT */
/* fastraw-bench: what libfastraw costs and gains, each against its baseline, and every mode's ns per call. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench_child.h"
#include "bench/bench_goals.h"
#include "bench/bench_loops.h"
#include "bench/bench_machine.h"
#include "bench/bench_modes.h"
#include "bench/bench_table.h"
#include "common/tool_args.h"
#include "common/tool_libpath.h"
#include "common/tool_output.h"

struct opts {
	const char *lib;
	const char *empty;
	const char *child;      /* set in the re-executed per-mode children only */
	const char *goal_child; /* set in the goals table's children only */
	int rounds;
	long iters;
	int startup_runs;
	int goals_only;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: fastraw-bench [--lib PATH] [--empty PATH] [--rounds N] [--iters N]\n"
		   "                     [--startup-runs N] [--goals-only] [--quick]\n"
		   "  --lib PATH         libfastraw.so to preload (default: the installed libdir, ../lib\n"
		   "                     beside this program, then this program's own folder)\n"
		   "  --empty PATH       the empty preload, start-up's baseline (default: bench_empty.so\n"
		   "                     beside this program)\n"
		   "  --rounds N         timed rounds (default 11): the goals take the median, the modes the best\n"
		   "  --iters N          calls per round (default 1000000; the syscall gets a tenth)\n"
		   "  --startup-runs N   processes started per start-up kind (default 300)\n"
		   "  --goals-only       the goals table only, not every mode\n"
		   "  --quick            5 rounds of 100000 calls, 50 start-up runs: for smoke tests\n");
}

static long parse_pos(const char *s, const char *what)
{
	long v;

	if (tool_parse_long(s, 1, INT_MAX, &v) != 0) {
		fprintf(stderr, "fastraw-bench: %s must be a positive number, not \"%s\"\n", what, s);
		exit(2);
	}
	return v;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "lib", required_argument, NULL, 'l' },      { "empty", required_argument, NULL, 'e' },
		{ "rounds", required_argument, NULL, 'r' },   { "iters", required_argument, NULL, 'i' },
		{ "startup-runs", required_argument, NULL, 's' }, { "goals-only", no_argument, NULL, 'g' },
		{ "quick", no_argument, NULL, 'q' },          { "child", required_argument, NULL, 'c' },
		{ "goal-child", required_argument, NULL, 'G' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->rounds = 11;
	o->iters = 1000000;
	o->startup_runs = 300;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->lib = optarg;
			break;
		case 'e':
			o->empty = optarg;
			break;
		case 'r':
			o->rounds = (int)parse_pos(optarg, "--rounds");
			break;
		case 'i':
			o->iters = parse_pos(optarg, "--iters");
			break;
		case 's':
			o->startup_runs = (int)parse_pos(optarg, "--startup-runs");
			break;
		case 'g':
			o->goals_only = 1;
			break;
		case 'q':
			o->rounds = 5;
			o->iters = 100000;
			o->startup_runs = 50;
			break;
		case 'c':
			o->child = optarg;
			break;
		case 'G':
			o->goal_child = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(2);
	}
}

/*
 * The first existing libfastraw.so of the tools' places (common/tool_libpath.h), resolved into
 * out; -1 with every place tried in tried. The children check that it really interposes.
 */
static int default_lib(char *out, char *tried, size_t triedlen)
{
	char places[TOOL_LIB_PLACES][PATH_MAX];
	int n = tool_lib_places(places);
	size_t used = 0;

	tried[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (realpath(places[i], out))
			return 0;
		if (used < triedlen)
			used += (size_t)snprintf(tried + used, triedlen - used, "%s%s", used ? ", " : "", places[i]);
	}
	return -1;
}

/* bench_empty.so beside this program, as the build leaves it; "" when this program cannot be found. */
static void default_empty(char *out, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	out[0] = '\0';
	if (n <= 0)
		return;
	self[n] = '\0';
	snprintf(out, size, "%s/bench_empty.so", dirname(self));
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct bench_machine m;
	struct bench_goal_results r;
	struct bench_goal_opts g;
	char lib[PATH_MAX], empty[PATH_MAX], tried[3 * PATH_MAX];

	tool_output_init("fastraw-bench", 1);
	parse_args(argc, argv, &o);
	if (o.child)
		return bench_child_main(o.child, o.lib ? o.lib : "", o.rounds, o.iters);
	if (o.goal_child)
		return bench_goals_child(o.goal_child, o.lib ? o.lib : "", o.iters);
	/* Line-buffered, so that a child's complaints on stderr land next to the row they concern. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (bench_init() != 0)
		return 1;
	if (!o.lib) {
		if (default_lib(lib, tried, sizeof(tried)) != 0) {
			fprintf(stderr, "fastraw-bench: library not found in %s (pass --lib PATH)\n", tried);
			return 1;
		}
	} else if (!realpath(o.lib, lib)) {
		fprintf(stderr, "fastraw-bench: library not found: %s (%s)\n", o.lib, strerror(errno));
		return 1;
	}
	if (!o.empty) {
		default_empty(empty, sizeof(empty));
		o.empty = empty;
	}
	if (o.empty[0] && access(o.empty, R_OK) != 0)
		fprintf(stderr, "fastraw-bench: no empty preload at %s: start-up is measured against no preload\n",
			o.empty);

	bench_machine_read(&m);
	g = (struct bench_goal_opts){ lib, o.empty, o.rounds, o.iters, o.startup_runs };
	printf("fastraw-bench: LD_PRELOAD=%s\n", lib);
	if (bench_goals_run(&g, &r) != 0)
		return 1;
	bench_table_print(&m, &g, &r);
	/* No reader left for the table: the exit handler says so; the modes would be lost too. */
	if (tool_output_flush() != 0)
		return 1;
	return o.goals_only ? 0 : bench_modes_run(lib, o.rounds, o.iters);
}
