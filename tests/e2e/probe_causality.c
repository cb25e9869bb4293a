/* SPDX-License-Identifier: MIT */
/* Probe: a reading published by one CPU is never later than a reading taken afterwards on another CPU. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

#define ITERATIONS 3000000
/*
 * Each side goes on past ITERATIONS until both sides have seen this many fresh readings of the
 * other (the test wants 1000): on an emulated or overcommitted machine one thread can run alone
 * for a long time. MAX_SECONDS bounds the run whatever happens, times CK_TIMEOUT_MULTIPLIER
 * where set (the kernel matrix sets it from the guest's measured speed): half of what Check
 * allows the test case, so a slow machine never turns the bound into a failure.
 */
#define FRESH_GOAL 5000
#define MAX_SECONDS 60

static int64_t max_ns;

struct side {
	pthread_t tid;
	int cpu;
	int pinned;
	_Atomic int64_t *mine;
	_Atomic int64_t *theirs;
	uint64_t checks, fresh, violations;
	int64_t bad_published, bad_own;
};

static _Atomic int64_t published[2];
static _Atomic uint64_t fresh_seen[2];
static atomic_int ready;

static int keep_going(uint64_t i, int64_t start_ns)
{
	struct timespec now;

	if (i < ITERATIONS)
		return 1;
	if (atomic_load(&fresh_seen[0]) >= FRESH_GOAL && atomic_load(&fresh_seen[1]) >= FRESH_GOAL)
		return 0;
	if (i % 65536)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return ts_ns(&now) - start_ns < max_ns;
}

/* Each side publishes its readings and checks them against the other side's latest. */
static void *run(void *arg)
{
	struct side *s = arg;
	int64_t last_seen = 0, start_ns;
	struct timespec start;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	s->pinned = pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
	atomic_fetch_add(&ready, 1);
	while (atomic_load(&ready) < 2)
		;
	clock_gettime(CLOCK_MONOTONIC, &start);
	start_ns = ts_ns(&start);
	for (uint64_t i = 0; keep_going(i, start_ns); i++) {
		int64_t seen = atomic_load_explicit(s->theirs, memory_order_acquire);
		struct timespec ts;
		int64_t own;

		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		own = ts_ns(&ts);
		s->checks++;
		if (seen != last_seen) {
			s->fresh++;
			atomic_store_explicit(&fresh_seen[s->cpu], s->fresh, memory_order_relaxed);
		}
		last_seen = seen;
		if (seen > own && s->violations++ == 0) {
			s->bad_published = seen;
			s->bad_own = own;
		}
		atomic_store_explicit(s->mine, own, memory_order_release);
	}
	return NULL;
}

int main(void)
{
	static struct side side[2] = {
		{ .cpu = 0, .mine = &published[0], .theirs = &published[1] },
		{ .cpu = 1, .mine = &published[1], .theirs = &published[0] },
	};
	uint64_t violations = 0, fresh = 0;
	const char *mult = getenv("CK_TIMEOUT_MULTIPLIER");
	double m = mult ? strtod(mult, NULL) : 1;

	max_ns = (int64_t)(MAX_SECONDS * 1e9 * (m > 1 ? m : 1));
	for (int i = 0; i < 2; i++)
		if (pthread_create(&side[i].tid, NULL, run, &side[i]) != 0)
			return 2;
	for (int i = 0; i < 2; i++) {
		pthread_join(side[i].tid, NULL);
		printf("cpu%d_pinned=%d\ncpu%d_checks=%llu\ncpu%d_fresh=%llu\ncpu%d_violations=%llu\n",
		       i, side[i].pinned, i, (unsigned long long)side[i].checks, i,
		       (unsigned long long)side[i].fresh, i, (unsigned long long)side[i].violations);
		if (side[i].violations)
			printf("cpu%d_first_bad: published %lld, then read %lld\n", i,
			       (long long)side[i].bad_published, (long long)side[i].bad_own);
		violations += side[i].violations;
		fresh += side[i].fresh;
	}
	printf("served=%s\nviolations=%llu\nfresh=%llu\n", e2e_served_by(E2E_CLOCK_GETTIME),
	       (unsigned long long)violations, (unsigned long long)fresh);
	return violations == 0 && side[0].pinned && side[1].pinned ? 0 : 1;
}
