/* SPDX-License-Identifier: MIT */
/* Comparison harness of the ARM family's oracle: one counter value through the kernel's code and through ours, tallied per regime. */
#ifndef FR_TEST_AORUN_H
#define FR_TEST_AORUN_H

#include <stdint.h>
#include <time.h>

#include "kdata/kdata.h"
#include "../rng.h"
#include "vdso_copy.h"

/* Values fed to each regime (or sub-regime). */
#define AORUN_N 10000

/*
 * What a regime expects of our code. COMPUTE: ours answers every value the kernel's code
 * answers, identically, and passes exactly where the kernel's code makes its system call.
 * FALLBACK: the kernel's code makes its system call for every value and ours passes every one.
 */
enum aorun_expect { AORUN_COMPUTE, AORUN_FALLBACK };

/* Counts of one regime. */
struct aorun_tally {
	const char *name;
	enum aorun_expect expect;
	unsigned reads;        /* counter reads the copy must make per computed value (1; 2 after a retry) */
	unsigned n;
	unsigned diff;         /* FR_OK results (fast or general) that differ from the kernel's */
	unsigned mismatch;     /* one side fell back or passed where the other answered */
	unsigned both_fallback; /* the copy made its system call and ours passed: agreement */
	unsigned pass_fast, pass_gen; /* FR_PASS from fr_raw_read_with, fr_raw_read_general_with */
	unsigned bad_call;     /* the copy returned nonzero, read the counter otherwise, or met a strange carry loop */
	unsigned fallbacks;    /* the copy's system calls */
	unsigned carry;        /* carry loops run in closed form */
	unsigned site_moves;   /* calls whose counter read was at another site than the first call's */
	int site;
	/*
	 * The served clocks (exact/clocks.h), one per value in turn beside RAW, on the same pages,
	 * compared with the copy's answer for that clock as RAW is: their own counts, since the
	 * coarse ones read no counter.
	 */
	unsigned s_n, s_diff, s_mismatch, s_bad, s_pass;
	unsigned s_per[12];
};

/* The run's totals, shared with the forked test processes, for the one summary line. */
struct aorun_summary {
	unsigned regimes, compared, differences, skipped;
	unsigned failed; /* failed test cases, set by main after the run */
	char counter[32];
	char reasons[1024];
};
extern struct aorun_summary *aorun_sum;

/* The copy and our view of its pages. */
extern struct acopy aorun_ac;
extern struct fr_kdata aorun_kd;

/* Opens the copy; NULL or the reason it could not be made (*fatal: a failure, not an absence). */
const char *aorun_open(int *fatal);
void aorun_close(void);

void aorun_begin(struct aorun_tally *t, const char *name, enum aorun_expect expect);
/* One value through both; the counts go to t. */
void aorun_one(struct aorun_tally *t, uint64_t cnt);
/* One value through both, the first counter read of each call giving cnt and any later one cnt2. */
void aorun_one2(struct aorun_tally *t, uint64_t cnt, uint64_t cnt2);
/* Prints the counts and adds them to the summary; returns nonzero when they meet the expectation. */
int aorun_end(struct aorun_tally *t);
/* Records a skipped regime and its reason in the summary (and prints it). */
void aorun_skip(const char *regime, const char *why);

/* Hooks around each call of aorun_one2: before() before each side, on_read(n) at each side's counter read n. */
void aorun_set_hooks(void (*before)(void), ac_read_hook on_read);

/* Deterministic random numbers: rng.h's orng_seed, orng_rand, orng_below, orng_mag. */

/* Fields of a synthetic clocksource entry (the RAW entry). */
struct aorun_clock {
	uint64_t cycle_last, mask;
	uint32_t mult, shift;
	uint64_t sec, nsec; /* basetime[CLOCK_MONOTONIC_RAW]; nsec is shifted left by shift */
};

/* Restores the live data page (as copied) on page 0 and a zero namespace page. */
void aorun_reset_pages(void);
/* Puts the live namespace page and the live data page behind it in place (live_in_timens only). */
void aorun_use_live_timens(void);
/* Sets the clock mode of both entries of data page `page`, and c in its RAW entry; seq stays as copied. */
void aorun_set_clock(unsigned page, int mode, const struct aorun_clock *c);
/* The CS_HRES_COARSE entry of data page `page` from c, with a base of its own for every served clock. */
void aorun_set_served_clocks(unsigned page, const struct aorun_clock *c);
void aorun_get_clock(unsigned page, struct aorun_clock *c);
/* The RAW entry of data page `page` of the copy. */
uint8_t *aorun_entry(unsigned page);
/* Sets the RAW namespace offset; the first call moves the real data to the era's namespace page. */
void aorun_set_timens(uint64_t off_sec, uint64_t off_nsec);
unsigned aorun_timens_page(void);

#endif
