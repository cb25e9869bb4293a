/* SPDX-License-Identifier: MIT */
/* Child processes that time their loops one round at a time on the parent's word, so rounds interleave across processes. */
#ifndef BENCH_POOL_H
#define BENCH_POOL_H

#include <stdio.h>
#include <sys/types.h>

#include "bench/bench_loops.h"

/*
 * The parent's handle on one child. Only one child runs a round at a time while the others
 * wait on their pipe, so rows measured in different processes (a preload with and without
 * FASTRAW_STATS) see the same machine state, round by round.
 */
struct bench_member {
	pid_t pid;
	FILE *to;   /* the child's stdin: one command per line */
	FILE *from; /* the child's stdout: hello lines, then one line of numbers per round */
};

/*
 * Starts /proc/self/exe with argv and env; then reads the child's hello lines (up to "ready"),
 * passing each to hello(line, arg) when hello is not NULL. 0, or -1 when the child could not
 * start or ended before "ready" (it has then been waited for and its status is in *status).
 */
int bench_member_start(struct bench_member *m, char *const argv[], char **env,
		       void (*hello)(const char *line, void *arg), void *arg, int *status);

/* One timed round in the child: ns[0..n-1] receive its kinds' ns per call. 0, or -1 when the child failed. */
int bench_member_round(struct bench_member *m, double *ns, int n);

/* Tells the child to exit and waits for it; returns its wait status, or -1. */
int bench_member_stop(struct bench_member *m);

/*
 * The child's side, after it has printed its hello lines: prints "ready", warms up, then on
 * each "round" line from stdin times one round and prints the results on one line; returns 0
 * on "quit" or end of input, 1 on an unknown command or a write error.
 */
int bench_serve(const enum bench_kind *kinds, const long *iters, int n);

#endif
