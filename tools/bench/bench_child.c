/* SPDX-License-Identifier: MIT */
/* The measuring side of fastraw-bench: one child process per FASTRAW_TSC mode, under LD_PRELOAD. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/bench_child.h"
#include "arch/arch.h"

#define ORDER_SAMPLES 10000

enum bench_kind bench_mode_counter(const char *mode)
{
	if (strcmp(mode, FR_ARCH_COUNTER_NAME_UNORDERED) == 0)
		return BK_UNORDERED;
	if (strcmp(mode, FR_ARCH_COUNTER_NAME_FENCED) == 0)
		return BK_FENCED;
	if (strcmp(mode, FR_ARCH_COUNTER_NAME_ORDERED) == 0)
		return BK_ORDERED;
	return bench_have_ordered() ? BK_ORDERED : BK_FENCED;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The file that defines fn in this process, or "?" when dladdr cannot tell. */
static const char *defining_file(const void *fn)
{
	Dl_info info;

	if (dladdr(fn, &info) == 0 || !info.dli_fname)
		return "?";
	return info.dli_fname;
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/*
 * Counts interposed RAW readings that fall outside the kernel's own readings taken just
 * before and just after. Bit-exact, ordered reads never do; a bare unordered read may run early.
 */
static long order_violations(void)
{
	bench_clock_fn ref = bench_vdso_clock_gettime ? bench_vdso_clock_gettime : bench_libc_clock_gettime;
	long bad = 0;

	for (int i = 0; i < ORDER_SAMPLES; i++) {
		struct timespec a, b, c;

		ref(CLOCK_MONOTONIC_RAW, &a);
		if (clock_gettime(CLOCK_MONOTONIC_RAW, &b) != 0) {
			bad++;
			continue;
		}
		ref(CLOCK_MONOTONIC_RAW, &c);
		if (ts_ns(&b) < ts_ns(&a) || ts_ns(&c) < ts_ns(&b))
			bad++;
	}
	return bad;
}

/* Calibrated mode answers through the kernel for its first seconds: time it afterwards. */
static void calibrated_warmup(void)
{
	const char *src = getenv("FASTRAW_SOURCE");
	struct timespec start, now;

	if (!src || strcmp(src, "calibrated") != 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		clock_gettime(CLOCK_MONOTONIC_RAW, &now);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 2500000000L);
}

int bench_check_binding(const char *lib)
{
	/* The address the ordinary symbol bound to, as the program's own calls see it. */
	const char *where = defining_file((const void *)clock_gettime);

	printf("where %s\n", where);
	if (!same_file(where, lib)) {
		printf("interposed 0\n");
		return 3;
	}
	if (same_file(defining_file((const void *)bench_libc_clock_gettime), lib)) {
		printf("libc_hidden 1\n");
		return 3;
	}
	printf("interposed 1\n");
	return 0;
}

int bench_child_main(const char *mode, const char *lib, int rounds, long iters)
{
	enum bench_kind kinds[7] = { bench_mode_counter(mode), BK_LIBC_RAW, BK_PRELOAD_RAW,
				     BK_LIBC_MONO, BK_PRELOAD_MONO, BK_API_NOW, BK_API_TICKS };
	static const char *const keys[7] = { "bare", "libc_raw", "preload_raw", "libc_mono", "preload_mono",
					     "api_now", "api_ticks" };
	long n[7] = { iters, iters, iters, iters, iters, iters, iters };
	double best[7];
	int nk, rc;

	if (bench_init() != 0)
		return 1;
	rc = bench_check_binding(lib);
	if (rc != 0)
		return rc;
	calibrated_warmup();
	printf("order_bad %ld\norder_n %d\n", order_violations(), ORDER_SAMPLES);
	fflush(stdout);

	/* The API from the preloaded library, without linking it: timed only when both are found. */
	bench_api_now = (int64_t(*)(void))dlsym(RTLD_DEFAULT, "fastraw_now_ns");
	bench_api_ticks = (uint64_t(*)(void))dlsym(RTLD_DEFAULT, "fastraw_ticks");
	nk = bench_api_now && bench_api_ticks ? 7 : 5;
	bench_best(kinds, n, nk, rounds, best);
	for (int i = 0; i < nk; i++)
		printf("%s %.3f\n", keys[i], best[i]);
	return fflush(stdout) == 0 ? 0 : 1;
}
