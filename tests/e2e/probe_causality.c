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
static atomic_int ready;

/* Each side publishes its readings and checks them against the other side's latest. */
static void *run(void *arg)
{
	struct side *s = arg;
	int64_t last_seen = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	s->pinned = pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
	atomic_fetch_add(&ready, 1);
	while (atomic_load(&ready) < 2)
		;
	for (int i = 0; i < ITERATIONS; i++) {
		int64_t seen = atomic_load_explicit(s->theirs, memory_order_acquire);
		struct timespec ts;
		int64_t own;

		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		own = ts_ns(&ts);
		s->checks++;
		s->fresh += seen != last_seen;
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
	printf("served=%s\nviolations=%llu\nfresh=%llu\n", e2e_served_by("clock_gettime"),
	       (unsigned long long)violations, (unsigned long long)fresh);
	return violations == 0 && side[0].pinned && side[1].pinned ? 0 : 1;
}
