/* SPDX-License-Identifier: MIT */
/* A simulated counter and kernel RAW clock, and a runtime driven by them, for the calib_math and calib_slew tests. */
#ifndef FR_TEST_CALSIM_H
#define FR_TEST_CALSIM_H

#include <check.h>
#include <stdint.h>

#include "calib/calib_math.h"

#define TWO32 4294967296.0
#define NS_PER_S 1e9

/* ck_assert_msg, but only reported on failure: a passing ck_assert writes to Check's pipe. */
#define CHECK(cond, ...)                                    \
	do {                                                \
		if (!(cond))                                \
			ck_assert_msg(cond, __VA_ARGS__);   \
	} while (0)

/* xorshift64: deterministic, seeded per test. */
uint64_t sim_xs(uint64_t *s);

/* Uniform in [0, 1), from sim_xs. */
double sim_unif(uint64_t *s);

/* mult (32.32 ns per tick) of a counter running at ghz. */
uint64_t sim_mult_of_ghz(double ghz);

/*
 * The simulated machine. True time T in ns from the start. The counter runs at f1 ticks per ns,
 * f2 from step_ns on. The kernel's RAW runs at 1 + ppm(T) * 1e-6 of true time, ppm piecewise
 * linear between knots (constant outside them), so RAW is an affine function of the counter
 * while ppm is constant. The truth for a counter value is RAW at the true time the counter had it.
 */
struct knot {
	double t_s, ppm;
};

struct sim {
	double f1, f2, step_ns;
	double tsc0, raw0;
	const struct knot *k;
	int nk;
};

/* RAW at true time T. */
double sim_raw(const struct sim *s, double T);

/* The counter at true time T. */
uint64_t sim_tsc(const struct sim *s, double T);

struct pause {
	double at_s, len_s; /* at this much calling time, this long without calls */
};

struct scenario {
	const char *name;
	double ghz, step_ppm, step_s;  /* step_s 0: no frequency step */
	struct knot drift[4];
	int ndrift;
	double gap_min_us, gap_max_us; /* between a program's calls */
	double run_s;                  /* simulated time with calls, pauses excluded */
	struct pause pauses[2];
	int npauses;
	int lazy;                      /* once published, sandwiches only on schedule */
	int per_period;                /* on schedule: this many a refresh period (0: one) */
	uint64_t rng;
};

/* What a run saw. */
struct outcome {
	double warmup_s;       /* true time of the first publication */
	double worst_ns;       /* |ours - truth| once published, but for the 2 s after a step */
	double worst_pause_ns; /* the same within 50 ms after a pause */
	double worst_step_ns;  /* within 2 s after the frequency step */
	double ready_again_s;  /* after the step, until the estimate was ready again; -1: never lost */
	long backwards, readings, checked, sandwiches;
	uint32_t restarts;     /* the estimate's own count (white box) */
};

/* Runs one program through scenario sc with random state rng (see calsim.c). */
void sim_run(const struct scenario *sc, uint64_t rng, struct outcome *o);

/* An exact 3 GHz clock's RAW at counter value t. */
int64_t sim_exact_ns(uint64_t t);

/* Its sandwich at counter value t: w ticks wide, the kernel's read at `at` (0: start, 1: end). */
struct fr_cal_point sim_read_at(uint64_t t, uint64_t w, double at);

#endif
