/* SPDX-License-Identifier: MIT */
/* The served-clocks dispatcher: the named clocks from the kernel's page, every other call passed on. */
#include "startup/served.h"

#include "exact/clocks.h"
#include "passthru/passthru.h"
#include "report/stats.h"

/* Written before the dispatcher that reads them is published (release store into fr_pass). */
static unsigned hres_clocks, coarse_clocks;
static fr_clock_read_fn hres_read, coarse_read;
static fr_clock_fn next;

const char *fr_served_why_not(int active, int calibrated, unsigned wanted)
{
	if (!(wanted & ~(1u << CLOCK_MONOTONIC_RAW)))
		return "FASTRAW_CLOCKS=raw (the default)";
	if (calibrated)
		return "calibrated mode serves RAW alone: its estimate must not stand in for a shared clock";
	if (!active)
		return "RAW is not served from the kernel's data here";
	return NULL;
}

/*
 * One body, two instances: counting is a constant in each, so the dispatcher without
 * FASTRAW_STATS has no test of it. A reading that cannot be answered exactly (FR_PASS) goes
 * on to next, as every clock not served does.
 */
static inline __attribute__((always_inline)) int dispatch(clockid_t clk, struct timespec *ts, int counting)
{
	if (fr_clock_in(hres_clocks, clk)) {
		if (FR_LIKELY(hres_read(clk, ts) == FR_OK)) {
			if (counting)
				fr_stats_served_on(clk);
			return 0;
		}
	} else if (fr_clock_in(coarse_clocks, clk)) {
		if (FR_LIKELY(coarse_read(clk, ts) == FR_OK)) {
			if (counting)
				fr_stats_served_on(clk);
			return 0;
		}
	}
	return next(clk, ts);
}

static int served(clockid_t clk, struct timespec *ts)
{
	return dispatch(clk, ts, 0);
}

static int served_counting(clockid_t clk, struct timespec *ts)
{
	return dispatch(clk, ts, 1);
}

unsigned fr_served_start(const struct fr_layout *lay, enum fr_counter_mode mode, unsigned clocks, int counting)
{
	fr_clock_read_fn h = fr_hres_for(lay, mode), c = fr_coarse_for(lay);

	hres_clocks = h ? clocks & FR_CLOCKS_HRES : 0;
	coarse_clocks = c ? clocks & FR_CLOCKS_COARSE : 0;
	if (!(hres_clocks | coarse_clocks))
		return 0;
	hres_read = h;
	coarse_read = c;
	/* With FASTRAW_STATS fr_pass holds the counting wrapper already: the rest is counted there. */
	next = counting ? __atomic_load_n(&fr_pass, __ATOMIC_ACQUIRE) : fr_pass_target();
	__atomic_store_n(&fr_pass, counting ? served_counting : served, __ATOMIC_RELEASE);
	return hres_clocks | coarse_clocks;
}
