/* SPDX-License-Identifier: MIT */
/* fastraw-bench: ns per call of every way to read CLOCK_MONOTONIC_RAW, and the interposer's speed-up targets. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench_child.h"
#include "bench/bench_loops.h"
#include "common/tool_args.h"
#include "common/tool_libpath.h"

extern char **environ;

struct opts {
	const char *lib;
	const char *child; /* set in the re-executed children only */
	int rounds;
	long iters;
};

/* One FASTRAW_TSC mode, as measured by its child. */
struct mode_row {
	const char *name;
	const char *tsc_env; /* FASTRAW_TSC value; NULL leaves it unset (the library's default) */
	const char *source_env; /* FASTRAW_SOURCE value; NULL leaves it unset */
	const char *label;      /* the row's name in the tables; NULL: name */
	int available;
	int status; /* 0 measured, -1 failed */
	enum bench_kind counter;
	double bare, libc_raw, preload_raw, libc_mono, preload_mono;
	double api_now, api_ticks; /* 0: the library exports no API */
	long order_bad, order_n;
	int interposed;
	int libc_hidden;
	char where[256];
};

static void usage(FILE *f)
{
	fprintf(f, "usage: fastraw-bench [--lib PATH] [--rounds N] [--iters N] [--quick]\n"
		   "  --lib PATH   libfastraw.so to preload (default: the installed libdir, ../lib\n"
		   "               beside this program, then this program's own folder)\n"
		   "  --rounds N   timed rounds per measurement; the best counts (default 7)\n"
		   "  --iters N    calls per round (default 2000000; the syscall gets a tenth)\n"
		   "  --quick      3 rounds of 100000 calls, for smoke tests\n");
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
		{ "lib", required_argument, NULL, 'l' },   { "rounds", required_argument, NULL, 'r' },
		{ "iters", required_argument, NULL, 'i' }, { "quick", no_argument, NULL, 'q' },
		{ "child", required_argument, NULL, 'c' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->rounds = 7;
	o->iters = 2000000;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->lib = optarg;
			break;
		case 'r':
			o->rounds = (int)parse_pos(optarg, "--rounds");
			break;
		case 'i':
			o->iters = parse_pos(optarg, "--iters");
			break;
		case 'q':
			o->rounds = 3;
			o->iters = 100000;
			break;
		case 'c':
			o->child = optarg;
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

/* This environment with LD_PRELOAD, FASTRAW_TSC and FASTRAW_SOURCE replaced. */
static char **child_env(const char *lib, const char *tsc, const char *source)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 4, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0 && strncmp(environ[i], "FASTRAW_TSC=", 12) != 0 &&
		    strncmp(environ[i], "FASTRAW_SOURCE=", 15) != 0)
			env[k++] = environ[i];
	if (asprintf(&env[k++], "LD_PRELOAD=%s", lib) < 0)
		return NULL;
	if (tsc && asprintf(&env[k++], "FASTRAW_TSC=%s", tsc) < 0)
		return NULL;
	if (source && asprintf(&env[k++], "FASTRAW_SOURCE=%s", source) < 0)
		return NULL;
	return env;
}

static void parse_line(struct mode_row *m, const char *line)
{
	char key[32];
	double v;

	if (sscanf(line, "where %255[^\n]", m->where) == 1 || sscanf(line, "%31s %lf", key, &v) != 2)
		return;
	if (strcmp(key, "interposed") == 0)
		m->interposed = (int)v;
	else if (strcmp(key, "libc_hidden") == 0)
		m->libc_hidden = (int)v;
	else if (strcmp(key, "order_bad") == 0)
		m->order_bad = (long)v;
	else if (strcmp(key, "order_n") == 0)
		m->order_n = (long)v;
	else if (strcmp(key, "bare") == 0)
		m->bare = v;
	else if (strcmp(key, "libc_raw") == 0)
		m->libc_raw = v;
	else if (strcmp(key, "preload_raw") == 0)
		m->preload_raw = v;
	else if (strcmp(key, "libc_mono") == 0)
		m->libc_mono = v;
	else if (strcmp(key, "preload_mono") == 0)
		m->preload_mono = v;
	else if (strcmp(key, "api_now") == 0)
		m->api_now = v;
	else if (strcmp(key, "api_ticks") == 0)
		m->api_ticks = v;
}

/* Re-executes this program under LD_PRELOAD for one mode and collects what it prints. */
static void run_mode(const struct opts *o, const char *lib, struct mode_row *m)
{
	char rounds[16], iters[24], line[512];
	char *argv[] = { "fastraw-bench", "--child", (char *)m->name, "--lib", (char *)lib,
			 "--rounds", rounds, "--iters", iters, NULL };
	char **env = child_env(lib, m->tsc_env, m->source_env);
	int fd[2], st;
	pid_t pid;
	FILE *in;

	m->status = -1;
	snprintf(rounds, sizeof(rounds), "%d", o->rounds);
	snprintf(iters, sizeof(iters), "%ld", o->iters);
	if (!env || pipe2(fd, O_CLOEXEC) != 0) {
		perror("fastraw-bench");
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		execve("/proc/self/exe", argv, env);
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0) {
		perror("fastraw-bench: fork");
		close(fd[0]);
		return;
	}
	in = fdopen(fd[0], "r");
	while (in && fgets(line, sizeof(line), in))
		parse_line(m, line);
	if (in)
		fclose(in);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (m->libc_hidden)
			fprintf(stderr, "fastraw-bench: FASTRAW_TSC=%s: the lookup of libc's own clock_gettime found the interposer\n",
				m->name);
		else if (!m->interposed && m->where[0])
			fprintf(stderr, "fastraw-bench: FASTRAW_TSC=%s: NOT INTERPOSED: clock_gettime resolves to %s, not %s\n",
				m->name, m->where, lib);
		else if (WIFSIGNALED(st))
			fprintf(stderr, "fastraw-bench: FASTRAW_TSC=%s: child killed by signal %d\n", m->name, WTERMSIG(st));
		else
			fprintf(stderr, "fastraw-bench: FASTRAW_TSC=%s: child failed (status %d)\n", m->name, st);
		return;
	}
	m->status = 0;
}

static void print_ns(const char *label, double ns, const char *missing)
{
	if (missing)
		printf("  %-34s %10s\n", label, missing);
	else
		printf("  %-34s %10.2f\n", label, ns);
}

/* One target line. Targets inform: a MISS does not fail the run. */
static void target(const char *mode, const char *what, double value, int at_most, double limit)
{
	int pass = at_most ? value <= limit : value >= limit;

	printf("  %-8s %-34s %8.2f  %s %6.2f  %s\n", mode, what, value, at_most ? "<=" : ">=", limit,
	       pass ? "PASS" : "MISS");
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	enum bench_kind base[] = { BK_RDTSC, BK_LFENCE, BK_RDTSCP, BK_VDSO_RAW, BK_LIBC_RAW, BK_SYSCALL_RAW };
	long n[6];
	double best[6];
	int have_rdtscp, failed = 0;
	char lib[PATH_MAX], tried[3 * PATH_MAX];
	struct mode_row modes[] = {
		{ .name = "rdtsc", .tsc_env = "rdtsc", .available = 1 },
		{ .name = "lfence", .tsc_env = "lfence", .available = 1 },
		{ .name = "rdtscp", .tsc_env = "rdtscp" },
		{ .name = "default", .tsc_env = NULL, .available = 1 },
		/* Calibrated mode (FASTRAW_SOURCE=calibrated): only its speed-up over the system call
		   is a target here; its error is measured by scripts/bench.sh over 60 s. */
		{ .name = "rdtsc", .tsc_env = "rdtsc", .source_env = "calibrated", .label = "cal-rdtsc", .available = 1 },
		{ .name = "lfence", .tsc_env = "lfence", .source_env = "calibrated", .label = "cal-lfence", .available = 1 },
		{ .name = "rdtscp", .tsc_env = "rdtscp", .source_env = "calibrated", .label = "cal-rdtscp" },
		{ .name = "default", .tsc_env = NULL, .source_env = "calibrated", .label = "cal-default", .available = 1 },
	};
	const int nmodes = (int)(sizeof(modes) / sizeof(modes[0]));

	parse_args(argc, argv, &o);
	if (o.child)
		return bench_child_main(o.child, o.lib ? o.lib : "", o.rounds, o.iters);
	/* Line-buffered, so that a child's complaints on stderr land next to the row they concern. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (bench_init() != 0)
		return 1;
	have_rdtscp = bench_have_rdtscp();
	modes[2].available = have_rdtscp;
	modes[6].available = have_rdtscp;
	for (int i = 0; i < nmodes; i++)
		if (!modes[i].label)
			modes[i].label = modes[i].name;
	if (!o.lib) {
		if (default_lib(lib, tried, sizeof(tried)) != 0) {
			fprintf(stderr, "fastraw-bench: library not found in %s (pass --lib PATH)\n", tried);
			return 1;
		}
		o.lib = lib;
	}

	/*
	 * The system call is some fifty times slower: a tenth of the calls keeps the run short.
	 * Without RDTSCP that slot times nothing, as the instruction would raise SIGILL.
	 */
	for (int i = 0; i < 6; i++)
		n[i] = base[i] == BK_SYSCALL_RAW ? (o.iters / 10 > 0 ? o.iters / 10 : 1) : o.iters;
	printf("fastraw-bench: best of %d rounds x %ld calls (syscall: %ld), ns per call\n\n", o.rounds, o.iters, n[5]);
	printf("Without the preload\n");
	bench_best(base, n, 6, o.rounds, best);
	for (int i = 0; i < 6; i++) {
		const char *missing = NULL;

		if (base[i] == BK_RDTSCP && !have_rdtscp)
			missing = "n/a (no RDTSCP)";
		else if (base[i] == BK_VDSO_RAW && !bench_vdso_clock_gettime)
			missing = "n/a (no vDSO)";
		print_ns(bench_kind_label(base[i]), best[i], missing);
	}

	if (o.lib != lib && !realpath(o.lib, lib)) {
		fprintf(stderr, "\nfastraw-bench: library not found: %s (%s)\n", o.lib, strerror(errno));
		return 1;
	}
	printf("\nUnder LD_PRELOAD=%s, one process per mode, rounds interleaved\n", lib);
	printf("  %-11s %-13s %8s %11s %9s %12s %10s %s\n", "FASTRAW_TSC", "counter", "bare", "preload RAW",
	       "libc RAW", "preload MONO", "libc MONO", "order");
	for (int i = 0; i < nmodes; i++) {
		struct mode_row *m = &modes[i];

		m->counter = bench_mode_counter(m->name);
		if (!m->available) {
			printf("  %-11s n/a (no RDTSCP)\n", m->label);
			continue;
		}
		run_mode(&o, lib, m);
		if (m->status != 0) {
			printf("  %-11s %s\n", m->label, !m->interposed && m->where[0] && !m->libc_hidden ?
							       "NOT INTERPOSED (see above)" : "FAILED (see above)");
			failed = 1;
			continue;
		}
		printf("  %-11s %-13s %8.2f %11.2f %9.2f %12.2f %10.2f %ld/%ld\n", m->label, bench_kind_label(m->counter),
		       m->bare, m->preload_raw, m->libc_raw, m->preload_mono, m->libc_mono, m->order_bad, m->order_n);
	}
	printf("  (order: interposed RAW readings outside the vDSO's readings just before and after)\n");

	printf("\nPublic API (dlsym from the preloaded library), ns per call\n");
	printf("  %-11s %-13s %8s %16s %15s\n", "FASTRAW_TSC", "counter", "bare", "fastraw_now_ns", "fastraw_ticks");
	for (int i = 0; i < 4; i++)
		if (modes[i].available && modes[i].status == 0 && modes[i].api_now > 0)
			printf("  %-11s %-13s %8.2f %16.2f %15.2f\n", modes[i].name, bench_kind_label(modes[i].counter),
			       modes[i].bare, modes[i].api_now, modes[i].api_ticks);

	printf("\nTargets (informational)\n");
	if (modes[0].status == 0) {
		target("rdtsc", "preload RAW / bare rdtsc", modes[0].preload_raw / modes[0].bare, 1, 1.10);
		target("rdtsc", "speed-up vs libc RAW", modes[0].libc_raw / modes[0].preload_raw, 0, 2.2);
	}
	if (modes[3].status == 0) {
		char what[64];

		snprintf(what, sizeof(what), "preload RAW / bare %s", bench_kind_label(modes[3].counter));
		target("default", what, modes[3].preload_raw / modes[3].bare, 1, 1.20);
		target("default", "speed-up vs libc RAW", modes[3].libc_raw / modes[3].preload_raw, 0, 1.15);
	}
	for (int i = 0; i < nmodes; i++)
		if (modes[i].available && modes[i].status == 0)
			target(modes[i].label, "speed-up vs syscall RAW", best[5] / modes[i].preload_raw, 0, 50);
	for (int i = 0; i < 4; i++)
		if (modes[i].available && modes[i].status == 0 && modes[i].api_now > 0) {
			target(modes[i].name, "fastraw_now_ns / bare counter", modes[i].api_now / modes[i].bare, 1, 1.05);
			target(modes[i].name, "fastraw_ticks / bare counter", modes[i].api_ticks / modes[i].bare, 1, 1.05);
		}

	printf("\nPass-through CLOCK_MONOTONIC (preload minus libc's own)\n");
	for (int i = 0; i < nmodes; i++)
		if (modes[i].available && modes[i].status == 0)
			printf("  %-11s %+7.2f ns per call (%.2fx)\n", modes[i].label, modes[i].preload_mono - modes[i].libc_mono,
			       modes[i].preload_mono / modes[i].libc_mono);
	return failed;
}
