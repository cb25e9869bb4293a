/* SPDX-License-Identifier: MIT */
/* Feeds chosen counter values to libfastraw's two readers of RAW (or of any served clock), for every architecture's oracle. */
#include "our_reads.h"

#include "exact/clocks.h"
#include "exact/fastpath.h"

static uint64_t injected, injected2;
static unsigned injected_reads;
static void (*read_hook)(unsigned n);

static uint64_t inject(void)
{
	unsigned n = injected_reads++;

	if (read_hook)
		read_hook(n);
	return n ? injected2 : injected;
}

void oours_read(const struct fr_kdata *kd, void (*before)(void), void (*on_read)(unsigned n), uint64_t cnt,
		uint64_t cnt2, struct oours *o)
{
	injected = cnt;
	injected2 = cnt2;
	read_hook = on_read;
	if (before)
		before();
	injected_reads = 0;
	o->rf = fr_raw_read_with(kd, inject, &o->f);
	if (before)
		before();
	injected_reads = 0;
	o->rg = fr_raw_read_general_with(kd, inject, &o->g);
}

void oours_read_clock(const struct fr_kdata *kd, clockid_t clk, void (*before)(void), void (*on_read)(unsigned n),
		      uint64_t cnt, uint64_t cnt2, struct oours *o)
{
	injected = cnt;
	injected2 = cnt2;
	read_hook = on_read;
	if (before)
		before();
	injected_reads = 0;
	o->rf = fr_clock_read_with(kd, inject, clk, &o->f);
	if (before)
		before();
	injected_reads = 0;
	o->rg = fr_clock_read_general_with(kd, inject, clk, &o->g);
}
