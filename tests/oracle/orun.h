/* SPDX-License-Identifier: MIT */
/* Comparison harness of the oracle test: one TSC value through the kernel's code and through ours, tallied per regime. */
#ifndef FR_TEST_ORUN_H
#define FR_TEST_ORUN_H

#include <stdint.h>
#include <time.h>

#include "kernel/kdata.h"
#include "vcopy.h"

/* Values fed to each regime (or sub-regime). */
#define ORUN_N 10000

/* What a regime expects of our code. */
enum orun_expect { ORUN_COMPUTE, ORUN_PASS };

/* Counts of one regime. */
struct orun_tally {
	const char *name;
	enum orun_expect expect;
	unsigned n;
	unsigned diff;        /* FR_OK results (fast or general) that differ from the kernel's */
	unsigned diff_carry32; /* of those, differing only in tv_sec by a multiple of 2^32 */
	unsigned pass_fast;   /* FR_PASS from fr_raw_read_with */
	unsigned pass_gen;    /* FR_PASS from fr_raw_read_general_with */
	unsigned bad_call;    /* the copy returned nonzero or did not read the counter exactly once */
	unsigned fallbacks;   /* the copy made its fallback system call */
	unsigned carry;       /* carry loops the copy ran in closed form */
	unsigned site_moves;  /* calls whose counter read was at another site than the first call's */
	int site;
	unsigned clamped, wrapped, other; /* ORUN_PASS regimes: what the copy answered instead */
	struct timespec clamp_ref;        /* the copy's answer for tsc == tsc_timestamp */
};

/* The copy, our view of its pages, and the page editors the regimes use. */
extern struct vcopy orun_vc;
extern struct fr_kdata orun_kd;

/* Opens the copy; NULL or the reason to skip. */
const char *orun_open(void);
void orun_close(void);

void orun_begin(struct orun_tally *t, const char *name, enum orun_expect expect);
/* One value through both; the counts go to t. */
void orun_one(struct orun_tally *t, uint64_t tsc);
/* Prints the counts; returns nonzero when they meet the regime's expectation. */
int orun_end(struct orun_tally *t);

/* Deterministic random numbers (splitmix64); ORACLE_SEED overrides the seed. */
void orun_seed(uint64_t salt);
uint64_t orun_rand(void);
uint64_t orun_below(uint64_t n);
/* A value of random bit length up to bits: spreads magnitudes over every scale. */
uint64_t orun_mag(unsigned bits);

/* Fields of a synthetic clocksource entry (struct vdso_clock, 6.15+ offsets). */
struct orun_clock {
	uint64_t cycle_last, max_cycles;
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

/* Restores the copied time page, a zero timens page and the copied pvclock page. */
void orun_reset_pages(void);
/* Sets the clock mode of both entries of data page `page`, and c in its RAW entry; seq stays as copied. */
void orun_set_clock(unsigned page, int mode, const struct orun_clock *c);
/* Sets the RAW namespace offset; the first call moves the real data to page 1 and makes page 0 a namespace page. */
void orun_set_timens(uint64_t off_sec, uint64_t off_nsec);
void orun_get_pv(struct orun_pv *p);
void orun_set_pv(const struct orun_pv *p);
/* The RAW entry's values on data page `page`. */
void orun_get_clock(unsigned page, struct orun_clock *c);

#endif
