/* SPDX-License-Identifier: MIT */
/* Comparison harness of the oracle test: one TSC value through the kernel's code and through ours, tallied per regime. */
#ifndef FR_TEST_ORUN_H
#define FR_TEST_ORUN_H

#include <stdint.h>
#include <time.h>

#include "kdata/kdata.h"
#include "../rng.h"
#include "vdso_copy.h"

/* Values fed to each regime (or sub-regime). */
#define ORUN_N 10000

/*
 * What a regime expects of our code. COMPUTE: ours answers every value the kernel's code
 * answers, identically, and passes exactly the values the kernel's code sends to its system
 * call. PASS: ours passes every value (the kernel's code answers them, kernels disagree there).
 * FALLBACK: the kernel's code makes its system call for every value and ours passes every one.
 */
enum orun_expect { ORUN_COMPUTE, ORUN_PASS, ORUN_FALLBACK };

/* Counts of one regime. */
struct orun_tally {
	const char *name;
	enum orun_expect expect;
	unsigned reads;       /* counter reads the copy must make per computed value (1; 2 after a retry) */
	unsigned n;
	unsigned diff;        /* FR_OK results (fast or general) that differ from the kernel's */
	unsigned diff_carry32; /* of those, differing only in tv_sec by a multiple of 2^32 */
	unsigned mismatch;    /* one side fell back or passed where the other answered (COMPUTE) */
	unsigned both_fallback; /* the copy made its system call and ours passed: agreement */
	unsigned pass_fast;   /* FR_PASS from fr_raw_read_with */
	unsigned pass_gen;    /* FR_PASS from fr_raw_read_general_with */
	unsigned bad_call;    /* the copy returned nonzero or did not read the counter as expected */
	unsigned fallbacks;   /* the copy made its fallback system call */
	unsigned carry;       /* carry loops the copy ran in closed form */
	unsigned site_moves;  /* calls whose counter read was at another site than the first call's */
	int site;
	unsigned clamped, wrapped, other; /* ORUN_PASS regimes: what the copy answered instead */
	struct timespec clamp_ref;        /* the copy's answer for tsc == tsc_timestamp */
	/*
	 * The served clocks (exact/clocks.h), one per value in turn beside RAW, on the same pages:
	 * compared with the copy's answer for that clock as RAW is. Their own counts, since the
	 * coarse ones read no counter.
	 */
	unsigned s_n, s_diff, s_mismatch, s_bad, s_pass;
	unsigned s_per[12]; /* comparisons per clock id */
};

/* The run's totals, shared with the forked test processes, for the one summary line. */
struct orun_summary {
	unsigned regimes, compared, differences, skipped;
	unsigned failed; /* failed test cases, set by main after the run */
	char counter[32];
	char reasons[1024];
};
extern struct orun_summary *orun_sum;

/* The copy, our view of its pages, and the page editors the regimes use. */
extern struct vcopy orun_vc;
extern struct fr_kdata orun_kd;
/* The pvclock regimes' baseline: the live snapshot (1) or a synthetic kvm-clock page (0). */
extern int orun_pv_live;

/* Opens the copy; NULL or the reason it could not be made (*fatal: a failure, not an absence). */
const char *orun_open(int *fatal);
void orun_close(void);

void orun_begin(struct orun_tally *t, const char *name, enum orun_expect expect);
/* One value through both; the counts go to t. */
void orun_one(struct orun_tally *t, uint64_t tsc);
/* One value through both, the first counter read of each call giving tsc and any later one tsc2. */
void orun_one2(struct orun_tally *t, uint64_t tsc, uint64_t tsc2);
/* Prints the counts and adds them to the summary; returns nonzero when they meet the expectation. */
int orun_end(struct orun_tally *t);
/* Records a skipped regime and its reason in the summary (and prints it). */
void orun_skip(const char *regime, const char *why);

/*
 * Hooks around each call of orun_one2 (the copy, our fast and our general reading): before()
 * runs before each of the three, on_read(n) at counter read n of each. NULL: none.
 */
void orun_set_hooks(void (*before)(void), vc_read_hook on_read);

/* Deterministic random numbers: rng.h's orng_seed, orng_rand, orng_below, orng_mag. */

/* Fields of a synthetic clocksource entry (the RAW entry of the era's layout). */
struct orun_clock {
	uint64_t cycle_last, max_cycles; /* max_cycles only in eras that have it (6.10+) */
	uint32_t mult, shift;
	uint64_t sec, nsec; /* basetime[CLOCK_MONOTONIC_RAW]; nsec is shifted left by shift */
};

/* Fields of the pvclock page (struct pvclock_vcpu_time_info). */
struct orun_pv {
	uint64_t tsc_timestamp, system_time;
	uint32_t mul;
	int8_t shift;
	uint8_t flags;
};

/* Fields of the Hyper-V TSC page (struct ms_hyperv_tsc_page). */
struct orun_hv {
	uint32_t sequence;
	uint64_t scale, offset;
};

/* Restores the baseline data page and pvclock page, a zero namespace page and a zero Hyper-V page. */
void orun_reset_pages(void);
/* Puts the live data page (as copied) in place of the baseline. */
void orun_use_live_page(void);
/* Sets the clock mode of both entries of data page `page`, and c in its RAW entry; seq stays as copied. */
void orun_set_clock(unsigned page, int mode, const struct orun_clock *c);
/* Sets the RAW namespace offset; the first call moves the real data to the era's namespace page. */
void orun_set_timens(uint64_t off_sec, uint64_t off_nsec);
/* The page holding the real data inside a namespace (0: the era has no namespaces). */
unsigned orun_timens_page(void);
void orun_get_pv(struct orun_pv *p);
void orun_set_pv(const struct orun_pv *p);
void orun_get_hv(struct orun_hv *h);
void orun_set_hv(const struct orun_hv *h);
/* The CS_HRES_COARSE entry of data page `page` from c, with a base of its own for every served clock. */
void orun_set_served_clocks(unsigned page, const struct orun_clock *c);
/* The RAW entry's values on data page `page`. */
void orun_get_clock(unsigned page, struct orun_clock *c);

/*
 * Whether the copy has a reader for clock mode `mode` on the current pages: a call with a valid
 * page must read the counter. 0 when it makes its system call without reading it (the reader
 * was not compiled in: CONFIG_PARAVIRT_CLOCK or CONFIG_HYPERV_TIMER off).
 */
int orun_has_reader(uint64_t tsc);

#endif
