/* SPDX-License-Identifier: MIT */
/* The start-up row of fastraw-bench: what a process that never reads the clock pays for the preload. */
#ifndef BENCH_STARTUP_H
#define BENCH_STARTUP_H

/* The three ways /bin/true is started, in the order of bench_startup's arrays. */
enum bench_startup_kind { SU_NONE, SU_EMPTY, SU_FASTRAW, SU_COUNT };

struct bench_startup {
	const char *program;       /* /bin/true, or /usr/bin/true */
	char **env[SU_COUNT];      /* no preload, the empty library, libfastraw */
	double *us[SU_COUNT];      /* CPU microseconds per process (user + system), one per run */
	double *faults[SU_COUNT];  /* the process's minor page faults, one per run */
	int n[SU_COUNT], cap;      /* runs so far; room for cap each */
	int have_empty;            /* 0: no empty library was found, SU_EMPTY is not run */
};

/*
 * Prepares runs of /bin/true under no preload, the empty library and lib, up to cap of each.
 * Checks that the program exists and that lib really loads into it (its FASTRAW_DEBUG line).
 * 0, or -1 after printing why on stderr. empty may be NULL or missing: the row then says so.
 */
int bench_startup_init(struct bench_startup *s, const char *lib, const char *empty, int cap);

/* Starts and waits for the program k times under each preload, the order rotating between runs. */
void bench_startup_batch(struct bench_startup *s, int k);

/* The median microseconds per process of one kind; -1 when it never ran. Sorts its samples. */
double bench_startup_median(struct bench_startup *s, enum bench_startup_kind k);

/* The median minor page faults per process of one kind; -1 when it never ran. Sorts its samples. */
double bench_startup_median_faults(struct bench_startup *s, enum bench_startup_kind k);

#endif
