/* SPDX-License-Identifier: MIT */
/* The goals table of fastraw-bench: every performance goal of the project, measured side by side in one run. */
#ifndef BENCH_GOALS_H
#define BENCH_GOALS_H

#include "bench/bench_startup.h"

struct bench_goal_opts {
	const char *lib;   /* libfastraw.so, resolved */
	const char *empty; /* the empty preload for the start-up baseline; NULL or missing: none */
	int rounds;        /* interleaved rounds; each row is the median of its rounds */
	long iters;        /* calls per round (the system call gets a tenth) */
	int startup_runs;  /* processes started per start-up kind, spread over the rounds */
};

/*
 * The medians of one run, ns per call (start-up: us per process); -1 where not measured.
 * The suffix names the process: _none without a preload, _def with libfastraw's defaults,
 * _stats with FASTRAW_STATS=1, _tsc with FASTRAW_TSC set to the unordered read
 * (FR_ARCH_COUNTER_NAME_UNORDERED), _clocks with FASTRAW_CLOCKS=all (and _clocks_unordered and
 * bare_unordered_clocks with the unordered read too).
 */
struct bench_goal_results {
	double startup[SU_COUNT];
	int startup_runs[SU_COUNT];
	double unordered_none, fenced_none, ordered_none;
	double vdso_raw_none, vdso_mono_none, libc_mono_none, syscall_none;
	double raw_def, vdso_raw_def, mono_def, vdso_mono_def;
	double raw_stats, mono_stats;
	double raw_unordered, bare_unordered;
	double mono_clocks, vdso_mono_clocks, mono_clocks_unordered, bare_unordered_clocks;
	/* What libfastraw decided in the default process (fastraw_info); "?" when it could not tell. */
	char counter[16], source[16], clock_mode[24];
	int active;
};

/* Runs every process of the table and fills r. 0, or -1 after printing why. */
int bench_goals_run(const struct bench_goal_opts *o, struct bench_goal_results *r);

/* The child side: role is one of the processes above ("none", "def", "stats", "tsc", "clocks", "clocks_tsc"). */
int bench_goals_child(const char *role, const char *lib, long iters);

#endif
