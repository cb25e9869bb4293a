/* SPDX-License-Identifier: MIT */
/* The per-mode detail of fastraw-bench: one child per FASTRAW_TSC mode, exact and calibrated. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/arch.h"
#include "bench/bench_child.h"
#include "bench/bench_env.h"
#include "bench/bench_loops.h"
#include "bench/bench_modes.h"

/* One FASTRAW_TSC mode, as measured by its child. */
struct mode_row {
	const char *name;
	const char *set[3]; /* FASTRAW_TSC and FASTRAW_SOURCE settings; none: the library's defaults */
	const char *label;  /* the row's name in the tables; NULL: name */
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

static void parse_line(struct mode_row *m, const char *line)
{
	static const char *const keys[] = { "bare", "libc_raw", "preload_raw", "libc_mono", "preload_mono",
					    "api_now", "api_ticks" };
	double *const vals[] = { &m->bare, &m->libc_raw, &m->preload_raw, &m->libc_mono, &m->preload_mono,
				 &m->api_now, &m->api_ticks };
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
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i]) == 0)
			*vals[i] = v;
}

/* Re-executes this program under LD_PRELOAD for one mode and collects what it prints. */
static void run_mode(const char *lib, int nrounds, long niters, struct mode_row *m)
{
	char rounds[16], iters[24], line[512];
	char *argv[] = { "fastraw-bench", "--child", (char *)m->name, "--lib", (char *)lib,
			 "--rounds", rounds, "--iters", iters, NULL };
	char **env = bench_env(lib, m->set);
	int fd[2], st;
	pid_t pid;
	FILE *in;

	m->status = -1;
	snprintf(rounds, sizeof(rounds), "%d", nrounds);
	snprintf(iters, sizeof(iters), "%ld", niters);
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
	free(env);
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
			fprintf(stderr, "fastraw-bench: %s: the lookup of libc's own clock_gettime found the interposer\n",
				m->label);
		else if (!m->interposed && m->where[0])
			fprintf(stderr, "fastraw-bench: %s: NOT INTERPOSED: clock_gettime resolves to %s, not %s\n",
				m->label, m->where, lib);
		else if (WIFSIGNALED(st))
			fprintf(stderr, "fastraw-bench: %s: child killed by signal %d\n", m->label, WTERMSIG(st));
		else
			fprintf(stderr, "fastraw-bench: %s: child failed (status %d)\n", m->label, st);
		return;
	}
	m->status = 0;
}

int bench_modes_run(const char *lib, int rounds, long iters)
{
	int have_ordered = bench_have_ordered(), failed = 0;
	struct mode_row modes[] = {
		{ .name = FR_ARCH_COUNTER_NAME_UNORDERED, .set = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED }, .available = 1 },
		{ .name = FR_ARCH_COUNTER_NAME_FENCED, .set = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_FENCED }, .available = 1 },
		{ .name = FR_ARCH_COUNTER_NAME_ORDERED, .set = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_ORDERED }, .available = have_ordered },
		{ .name = "default", .available = 1 },
		/* Calibrated mode: its speed here, its error in scripts/bench.sh's long run. */
		{ .name = FR_ARCH_COUNTER_NAME_UNORDERED,
		  .set = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED, "FASTRAW_SOURCE=calibrated" },
		  .label = "cal-" FR_ARCH_COUNTER_NAME_UNORDERED, .available = 1 },
		{ .name = FR_ARCH_COUNTER_NAME_FENCED,
		  .set = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_FENCED, "FASTRAW_SOURCE=calibrated" },
		  .label = "cal-" FR_ARCH_COUNTER_NAME_FENCED, .available = 1 },
		{ .name = FR_ARCH_COUNTER_NAME_ORDERED,
		  .set = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_ORDERED, "FASTRAW_SOURCE=calibrated" },
		  .label = "cal-" FR_ARCH_COUNTER_NAME_ORDERED, .available = have_ordered },
		{ .name = "default", .set = { "FASTRAW_SOURCE=calibrated" }, .label = "cal-default", .available = 1 },
	};
	const int nmodes = (int)(sizeof(modes) / sizeof(modes[0]));
	/* The mode column: 11 wide, or as wide as the longest label ("cal-isb+cntvct"). */
	int w = 11;

	for (int i = 0; i < nmodes; i++) {
		int n = (int)strlen(modes[i].label ? modes[i].label : modes[i].name);

		w = n > w ? n : w;
	}

	printf("\nEvery mode under LD_PRELOAD=%s, one process each, best of %d rounds x %ld calls, ns per call\n", lib,
	       rounds, iters);
	printf("  %-*s %-13s %8s %11s %9s %12s %10s %s\n", w, "mode", "counter", "bare", "preload RAW", "libc RAW",
	       "preload MONO", "libc MONO", "order");
	for (int i = 0; i < nmodes; i++) {
		struct mode_row *m = &modes[i];

		if (!m->label)
			m->label = m->name;
		m->counter = bench_mode_counter(m->name);
		if (!m->available) {
			printf("  %-*s n/a (no " FR_ARCH_ORDERED_FEATURE ")\n", w, m->label);
			continue;
		}
		run_mode(lib, rounds, iters, m);
		if (m->status != 0) {
			printf("  %-*s %s\n", w, m->label, !m->interposed && m->where[0] && !m->libc_hidden ?
							       "NOT INTERPOSED (see above)" : "FAILED (see above)");
			failed = 1;
			continue;
		}
		printf("  %-*s %-13s %8.2f %11.2f %9.2f %12.2f %10.2f %ld/%ld\n", w, m->label, bench_kind_label(m->counter),
		       m->bare, m->preload_raw, m->libc_raw, m->preload_mono, m->libc_mono, m->order_bad, m->order_n);
	}
	printf("  (mode: FASTRAW_TSC, cal- with FASTRAW_SOURCE=calibrated; order: interposed RAW readings\n"
	       "   outside the vDSO's readings just before and after)\n");

	printf("\nPublic API (dlsym from the preloaded library), ns per call\n");
	printf("  %-11s %-13s %8s %16s %15s\n", "FASTRAW_TSC", "counter", "bare", "fastraw_now_ns", "fastraw_ticks");
	for (int i = 0; i < 4; i++)
		if (modes[i].available && modes[i].status == 0 && modes[i].api_now > 0)
			printf("  %-11s %-13s %8.2f %16.2f %15.2f\n", modes[i].name, bench_kind_label(modes[i].counter),
			       modes[i].bare, modes[i].api_now, modes[i].api_ticks);
	return failed;
}
