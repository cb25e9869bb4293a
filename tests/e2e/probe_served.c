/* SPDX-License-Identifier: MIT */
/* Probe: every clock the library may serve (FASTRAW_CLOCKS), each read between two kernel reads of the same clock. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_test.h"
#include "probe.h"

/* The vDSO's clock_gettime as a lookup of it gives it (the library's vDSO-convention entry under the preload). */
static int (*vdso_fn)(clockid_t clk, struct timespec *ts);

/* vdso_fn in libc's convention, for the bracket: its 0 or -errno, with errno checked untouched. */
static int through_vdso(clockid_t clk, struct timespec *ts)
{
	int r;

	errno = 4321;
	r = vdso_fn(clk, ts);
	return r == 0 && errno == 4321 ? 0 : -1;
}

static int (*api_fn)(int clk, struct timespec *ts);

/* fastraw_clock_gettime, errno checked untouched on success. */
static int through_api(clockid_t clk, struct timespec *ts)
{
	int r;

	errno = 4321;
	r = api_fn(clk, ts);
	return r == 0 && errno == 4321 ? 0 : -1;
}


/*
 * Usage: e2e_probe_served N [libc|vdso|api]. Per clock, N reads through clock_gettime (the
 * library's, when preloaded), through the vDSO's clock_gettime as dlsym finds it on the vDSO's
 * handle, or through fastraw_clock_gettime, each between two raw system calls of that clock:
 * "<NAME>_samples=", "<NAME>_violations=" and the rest of e2e_tally_print, then "served=" (who
 * serves clock_gettime). Inside exact brackets a clock the kernel keeps monotonic is monotonic
 * too: each answer lies below the next bracket's first kernel read. "path_missing=1" and exit 2
 * when the path asked for cannot be found.
 */
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	const char *path = argc > 2 ? argv[2] : "libc";
	e2e_clock_fn fn = clock_gettime;

	if (strcmp(path, "vdso") == 0) {
		void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);

		vdso_fn = h ? (int (*)(clockid_t, struct timespec *))dlsym(h, FRT_VDSO_NAME("clock_gettime")) : NULL;
		fn = through_vdso;
		if (!vdso_fn) {
			printf("path_missing=1\n");
			return 2;
		}
	} else if (strcmp(path, "api") == 0) {
		api_fn = (int (*)(int, struct timespec *))dlsym(RTLD_DEFAULT, "fastraw_clock_gettime");
		fn = through_api;
		if (!api_fn) {
			printf("path_missing=1\n");
			return 2;
		}
	}
	for (size_t c = 0; c < E2E_N_SERVED_CLOCKS; c++) {
		struct e2e_tally t = { 0 };
		char prefix[40];

		for (long i = 0; i < n; i++)
			e2e_bracket(&t, fn, e2e_served_clocks[c].clk);
		snprintf(prefix, sizeof(prefix), "%s_", e2e_served_clocks[c].name);
		e2e_tally_print(prefix, &t);
	}
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	return 0;
}
