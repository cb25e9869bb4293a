/* SPDX-License-Identifier: MIT */
/* Probe: a known number of MONOTONIC and RAW calls through the clock_gettime references bind to and through each loaded copy of libfastraw (its clock_gettime and fastraw_clock_gettime), each checked against the kernel. */
#define _GNU_SOURCE
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastraw.h"
#include "probe.h"

#define CALLS 1000
#define MAX_COPIES 8

typedef int64_t (*now_fn)(void);
typedef int (*info_fn)(struct fastraw_info *info);

/* A loaded copy of libfastraw and its own definitions (dlsym on its handle). */
struct copy {
	const char *path;
	e2e_clock_fn clock;
	e2e_clock_fn api; /* fastraw_clock_gettime: its int id is clockid_t */
	now_fn now;
	info_fn info;
};

static struct copy copies[MAX_COPIES];
static int ncopies;
static long monotonic_calls, raw_calls, now_calls;
static struct e2e_tally tally;

/* Every loaded object whose own dynamic symbols define fastraw_info (a handle's lookup also searches its dependencies). */
static int find_copy(struct dl_phdr_info *info, size_t size, void *arg)
{
	void *h, *marker;
	Dl_info where;

	(void)size;
	(void)arg;
	if (!info->dlpi_name || !info->dlpi_name[0] || ncopies == MAX_COPIES)
		return 0;
	h = dlopen(info->dlpi_name, RTLD_NOLOAD | RTLD_LAZY);
	if (!h)
		return 0;
	marker = dlsym(h, "fastraw_info");
	if (marker && dladdr(marker, &where) && where.dli_fname && strcmp(where.dli_fname, info->dlpi_name) == 0) {
		copies[ncopies].path = info->dlpi_name;
		copies[ncopies].clock = (e2e_clock_fn)dlsym(h, "clock_gettime");
		copies[ncopies].api = (e2e_clock_fn)dlsym(h, "fastraw_clock_gettime");
		copies[ncopies].now = (now_fn)dlsym(h, "fastraw_now_ns");
		copies[ncopies].info = (info_fn)marker;
		ncopies++;
	}
	dlclose(h);
	return 0;
}

/* n MONOTONIC and n RAW calls through fn, each between two kernel reads. */
static void clock_calls(e2e_clock_fn fn, long n)
{
	for (long i = 0; i < n; i++) {
		e2e_bracket(&tally, fn, CLOCK_MONOTONIC);
		e2e_bracket(&tally, fn, CLOCK_MONOTONIC_RAW);
	}
	monotonic_calls += n;
	raw_calls += n;
}

/* fastraw_now_ns in a RAW bracket: not a clock_gettime call, counted (as passthrough) only when it passes through. */
static int now_between(now_fn now)
{
	struct timespec a, b;
	int64_t ns;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	ns = now();
	k_clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	now_calls++;
	return ts_ns(&a) <= ns && ns <= ts_ns(&b);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "each";
	struct fastraw_info info;
	long now_bad = 0;

	/* dlopen PATH: one more copy, loaded after start-up. */
	if (strcmp(mode, "dlopen") == 0 && argc == 3 && !dlopen(argv[2], RTLD_NOW | RTLD_LOCAL)) {
		printf("setup failed: %s\n", dlerror());
		return 2;
	}
	dl_iterate_phdr(find_copy, NULL);
	printf("pid=%d\ncopies=%d\n", (int)getpid(), ncopies);
	for (int i = 0; i < ncopies; i++)
		printf("copy=%s\n", copies[i].path);
#ifdef PROBE_LINKED
	/* The reference that keeps the library in this program's DT_NEEDED. */
	now_bad += !now_between(fastraw_now_ns);
#endif
	clock_calls(clock_gettime, CALLS);
	/* "default": only the calls every reference binds to; otherwise also through each copy. */
	for (int i = 0; strcmp(mode, "default") != 0 && i < ncopies; i++) {
		if (!copies[i].clock || !copies[i].api || !copies[i].now) {
			printf("setup failed: %s lacks an export\n", copies[i].path);
			return 2;
		}
		clock_calls(copies[i].clock, CALLS);
		/* A later copy's API answers through the first copy's: counted there, once. */
		clock_calls(copies[i].api, CALLS);
		for (int k = 0; k < CALLS; k++)
			now_bad += !now_between(copies[i].now);
		/* Every copy tells the same state: the first copy's. */
		info = (struct fastraw_info){ .size = sizeof(info) };
		if (copies[i].info(&info) == 0)
			printf("info=%s %s\n", info.source, info.counter);
		else
			printf("info=failed\n");
	}
	printf("monotonic_calls=%ld\nraw_calls=%ld\nnow_calls=%ld\nnow_violations=%ld\n", monotonic_calls, raw_calls,
	       now_calls, now_bad);
	e2e_tally_print("", &tally);
	return 0;
}
