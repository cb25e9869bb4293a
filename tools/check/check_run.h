/* SPDX-License-Identifier: MIT */
/* fastraw-check's worker threads: tight clock-reading loops and the counts each thread keeps. */
#ifndef FR_CHECK_RUN_H
#define FR_CHECK_RUN_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

/* With --against-kernel, every CHECK_SANDWICH_EVERY-th reading sits between two system calls. */
#define CHECK_SANDWICH_EVERY 64
/* Window widths are counted in 1 ns buckets below this; wider windows share the last bucket. */
#define CHECK_WINDOW_MAX 65536
#define CHECK_MAX_THREADS 1024 /* no more than CPU_SETSIZE */

struct check_config {
	clockid_t clk;
	int threads;
	double seconds;
	int against_kernel;
	int cross_check; /* compare with other threads' readings: not for CPU-time clocks */
	const int *cpus; /* thread i is pinned to cpus[i % ncpus] */
	int ncpus;
};

/* The first violation of one kind in a thread; what a, b and c hold depends on the kind. */
struct check_example {
	int set;
	uint64_t sample; /* index of the reading in its thread */
	int64_t a, b, c;
};

struct check_thread {
	int index;
	int cpu; /* the CPU it ran pinned to, -1 if pinning failed */
	uint64_t samples, backwards, cross, nsec_range, errors;
	uint64_t kernel_samples, kernel_violations;
	int64_t worst_ns;      /* furthest a reading fell outside its kernel window, 0 if never */
	uint32_t *window_hist; /* CHECK_WINDOW_MAX + 1 buckets of kernel window widths (ns) */
	struct check_example first_backwards; /* a: previous reading, b: this one */
	struct check_example first_cross;     /* a: peer thread, b: its published value, c: our reading */
	struct check_example first_nsec;      /* a: tv_sec, b: tv_nsec */
	struct check_example first_error;     /* a: errno */
	struct check_example first_kernel;    /* a: kernel before, b: reading, c: kernel after */
};

/* The CPUs this process may run on, lowest first; returns how many (at most max). */
int check_allowed_cpus(int *cpus, int max);

/*
 * Runs cfg->threads readers for cfg->seconds and fills thr[0 .. threads-1] (window_hist is
 * allocated here when against_kernel; the caller frees it, also on failure). Returns 0, or a
 * negative errno if they could not run.
 */
int check_run(const struct check_config *cfg, struct check_thread *thr);

#endif
