/* SPDX-License-Identifier: MIT */
/* Probe: dlclose of a dlopen'd libfastraw.so while another thread calls its clock_gettime; the library must stay loaded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

typedef int (*clock_fn)(clockid_t clk, struct timespec *ts);

static clock_fn fn;
static int stop;
static unsigned long calls, failed, outside;

/* Reads RAW through the dlsym'd entry of the probe's time_t until told to stop, each between two kernel reads. */
static void *reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		struct timespec a, m, b;

		k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		if (fn(CLOCK_MONOTONIC_RAW, &m) != 0)
			failed++;
		k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		if (ts_ns(&m) < ts_ns(&a) || ts_ns(&m) > ts_ns(&b))
			outside++;
		calls++;
	}
	return NULL;
}

/* Whether the loader still has the library: a no-load dlopen finds it and dladdr names its code. */
static int still_loaded(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
	Dl_info info;
	int ok = h != NULL && dladdr((void *)fn, &info) != 0 && info.dli_fname != NULL;

	if (h)
		dlclose(h);
	return ok;
}

int main(int argc, char **argv)
{
	const struct timespec pause = { 0, 100000000 }; /* 10 rounds: about 1 s */
	const char *lib = argc > 1 ? argv[1] : NULL;
	int rounds = 0, loaded = 0, reopened = 0;
	pthread_t t;
	void *h;

	if (!lib) {
		fprintf(stderr, "usage: probe_unload LIBRARY\n");
		return 2;
	}
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h || !(fn = (clock_fn)dlsym(h, E2E_CLOCK_GETTIME))) {
		printf("dlopen_failed=%s\n", dlerror());
		return 1;
	}
	if (pthread_create(&t, NULL, reader, NULL) != 0)
		return 1;
	for (; rounds < 10; rounds++) {
		nanosleep(&pause, NULL);
		/* Drops the only reference this program holds: without NODELETE the code is unmapped here. */
		dlclose(h);
		loaded += still_loaded(lib);
		nanosleep(&pause, NULL);
		h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		reopened += h != NULL && dlsym(h, E2E_CLOCK_GETTIME) == (void *)fn;
		if (!h)
			break;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	if (h)
		dlclose(h);
	printf("rounds=%d\nstill_loaded=%d\nreopened_same=%d\n", rounds, loaded, reopened);
	printf("calls=%lu\nfailed=%lu\noutside=%lu\n", calls, failed, outside);
	return 0;
}
