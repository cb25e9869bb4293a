/* SPDX-License-Identifier: MIT */
/* The served-clocks dispatcher: the named clocks from the kernel's page, every other call passed on. */
#include "startup/served.h"

#include <errno.h>

#include "exact/clocks.h"
#include "passthru/passthru.h"
#include "report/stats.h"

/* The served clocks' state is fr_hot.served (base/hot.h). */

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
 * With FASTRAW_STATS: each call answered here is counted; one that cannot be answered exactly
 * (FR_PASS) goes on to next, the counting wrapper, as every clock not served does. Without it,
 * exact/clocks.c's dispatcher for the era and counter read serves, its reading inlined.
 */
static int served_counting(clockid_t clk, struct timespec *ts)
{
	if (fr_clock_in(fr_hot.served.hres, clk)) {
		if (FR_LIKELY(fr_hot.served.hres_read(clk, ts) == FR_OK)) {
			fr_stats_served_on(clk);
			return 0;
		}
	} else if (fr_clock_in(fr_hot.served.coarse, clk)) {
		if (FR_LIKELY(fr_hot.served.coarse_read(clk, ts) == FR_OK)) {
			fr_stats_served_on(clk);
			return 0;
		}
	}
	return fr_hot.served.next(clk, ts);
}

unsigned fr_served_start(const struct fr_layout *lay, enum fr_counter_mode mode, unsigned clocks, int counting)
{
	fr_clock_read_fn h = fr_hres_for(lay, mode), c = fr_coarse_for(lay);
	fr_clock_fn d = fr_served_for(lay, mode);

	/* The readers bake in their era's field shift: a layout without its pairing serves nothing. */
	if (!h || !d || !c)
		return 0;
	fr_hot.served.hres = clocks & FR_CLOCKS_HRES;
	fr_hot.served.coarse = clocks & FR_CLOCKS_COARSE;
	if (!(fr_hot.served.hres | fr_hot.served.coarse))
		return 0;
	fr_hot.served.hres_read = h;
	fr_hot.served.coarse_read = c;
	/* With FASTRAW_STATS fr_hot.pass holds the counting wrapper already: the rest is counted there. */
	fr_hot.served.next = counting ? __atomic_load_n(&fr_hot.pass, __ATOMIC_ACQUIRE) : fr_pass_target();
	fr_hot.served.counts = counting;
	__atomic_store_n(&fr_hot.served.mask, fr_hot.served.hres | fr_hot.served.coarse, __ATOMIC_RELEASE);
	__atomic_store_n(&fr_hot.pass, counting ? served_counting : d, __ATOMIC_RELEASE);
	return fr_hot.served.hres | fr_hot.served.coarse;
}

int fr_served_read(clockid_t clk, struct timespec *ts)
{
	unsigned m = __atomic_load_n(&fr_hot.served.mask, __ATOMIC_ACQUIRE);
	int r;

	if (FR_LIKELY(!fr_clock_in(m, clk)))
		return FR_PASS;
	r = fr_clock_in(fr_hot.served.hres, clk) ? fr_hot.served.hres_read(clk, ts) : fr_hot.served.coarse_read(clk, ts);
	if (r == FR_OK && fr_hot.served.counts)
		fr_stats_served_on(clk);
	return r;
}

int fr_served_libc(clockid_t clk, struct timespec *ts)
{
	if (fr_served_read(clk, ts) == FR_OK)
		return 0;
	return fr_passthrough_libc(clk, ts);
}

int fr_served_any(void)
{
	return __atomic_load_n(&fr_hot.served.mask, __ATOMIC_ACQUIRE) != 0;
}

int fr_served_vdso(clockid_t clk, struct timespec *ts)
{
	if (FR_UNLIKELY(fr_clock_in(__atomic_load_n(&fr_hot.served.mask, __ATOMIC_RELAXED), clk))) {
		/* The vDSO would write through NULL; a served clock answers as the kernel does. */
		if (!ts)
			return -EFAULT;
		if (fr_served_read(clk, ts) == FR_OK)
			return 0;
	}
	return fr_passthrough_vdso(clk, ts);
}
