/* SPDX-License-Identifier: MIT */
/* Probe: threads read CLOCK_MONOTONIC_RAW through the interposed symbol between two kernel reads. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

#define MAX_THREADS 64

struct worker {
	pthread_t tid;
	uint64_t n;
	e2e_clock_fn fn;
	struct e2e_tally t;
};

static atomic_int go;

static void *work(void *arg)
{
	struct worker *w = arg;

	/* Start together so that the reads of the threads interleave. */
	while (!atomic_load_explicit(&go, memory_order_acquire))
		sched_yield();
	for (uint64_t i = 0; i < w->n; i++)
		e2e_bracket(&w->t, w->fn, CLOCK_MONOTONIC_RAW);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	struct e2e_tally sum = { 0 };
	const char *sym = argc > 3 ? argv[3] : "clock_gettime";
	uint64_t total;
	e2e_clock_fn fn;
	int threads;

	if (argc < 3 || (threads = atoi(argv[2])) < 1 || threads > MAX_THREADS) {
		printf("usage: %s SAMPLES THREADS [SYMBOL]\n", argv[0]);
		return 2;
	}
	total = strtoull(argv[1], NULL, 10);
	/* clock_gettime is the program's own (__clock_gettime64 with a 64-bit time_t); other
	   names are glibc's 32-bit entries, called as such. */
	if (strcmp(sym, "clock_gettime") == 0) {
		fn = clock_gettime;
		sym = E2E_CLOCK_GETTIME;
	} else {
		fn = e2e_as_entry32(dlsym(RTLD_DEFAULT, sym));
	}
	if (!fn) {
		printf("no symbol %s\n", sym);
		return 2;
	}
	for (int i = 0; i < threads; i++) {
		w[i].n = total / (uint64_t)threads + (i == 0 ? total % (uint64_t)threads : 0);
		w[i].fn = fn;
		if (pthread_create(&w[i].tid, NULL, work, &w[i]) != 0) {
			printf("pthread_create failed\n");
			return 2;
		}
	}
	atomic_store_explicit(&go, 1, memory_order_release);
	for (int i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		e2e_tally_add(&sum, &w[i].t);
	}
	printf("served=%s\n", e2e_served_by(sym));
	e2e_tally_print("", &sum);
	return sum.violations == 0 && sum.samples == total ? 0 : 1;
}
