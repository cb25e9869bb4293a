/* SPDX-License-Identifier: MIT */
/* The ARM family oracle's page editors: the RAW entry and the time-namespace page of the copy. */
#include <string.h>
#include <time.h>

#include "compare.h"
#include "../vvar_entry.h"

static uint8_t *entry(unsigned page, unsigned idx)
{
	return oe_entry(aorun_ac.vvar, aorun_kd.lay, page, idx);
}

static uint8_t *raw_base(uint8_t *e)
{
	return oe_raw_base(e, aorun_kd.lay);
}

uint8_t *aorun_entry(unsigned page)
{
	return entry(page, 1);
}

unsigned aorun_timens_page(void)
{
	return aorun_kd.lay->timens_page;
}

void aorun_reset_pages(void)
{
	memcpy(aorun_ac.vvar, aorun_ac.time_page, AC_PAGE);
	if (aorun_timens_page())
		memset(aorun_ac.vvar + aorun_timens_page() * AC_PAGE, 0, AC_PAGE);
}

void aorun_use_live_timens(void)
{
	memcpy(aorun_ac.vvar, aorun_ac.ns_page, AC_PAGE);
	memcpy(aorun_ac.vvar + aorun_timens_page() * AC_PAGE, aorun_ac.time_page, AC_PAGE);
}

void aorun_set_clock(unsigned page, int mode, const struct aorun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = aorun_kd.lay->field_shift;

	oe_put32(entry(page, 0) + FR_OFF_MODE, (uint32_t)mode);
	oe_put32(e + FR_OFF_MODE, (uint32_t)mode);
	oe_put64(e + FR_OFF_CYCLE_LAST, c->cycle_last);
	oe_put64(e + FR_OFF_MASK + fs, c->mask);
	oe_put32(e + FR_OFF_MULT + fs, c->mult);
	oe_put32(e + FR_OFF_SHIFT + fs, c->shift);
	oe_put64(raw_base(e), c->sec);
	oe_put64(raw_base(e) + 8, c->nsec);
	aorun_set_served_clocks(page, c);
}

/*
 * The CS_HRES_COARSE entry: RAW's clocksource fields (the kernel fills both from one
 * clocksource) but for mult, one step off as NTP's is (off a power of two on kvm-clock), and
 * for every served clock a base of its own, so that a reader taking another clock's base
 * cannot agree by chance: shifted nanoseconds for the high-resolution clocks, plain ones for
 * the coarse clocks.
 */
void aorun_set_served_clocks(unsigned page, const struct aorun_clock *c)
{
	static const unsigned hres[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI };
	static const unsigned coarse[] = { CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE };
	uint8_t *e = entry(page, 0);
	uint32_t fs = aorun_kd.lay->field_shift;

	oe_put64(e + FR_OFF_CYCLE_LAST, c->cycle_last);
	oe_put64(e + FR_OFF_MASK + fs, c->mask);
	oe_put32(e + FR_OFF_MULT + fs, c->mult > 1 ? c->mult - 1 : c->mult + 1);
	oe_put32(e + FR_OFF_SHIFT + fs, c->shift);
	for (unsigned i = 0; i < 4; i++) {
		oe_put64(oe_clock_base(e, aorun_kd.lay, hres[i]), c->sec + (hres[i] + 1) * 1000003ULL);
		oe_put64(oe_clock_base(e, aorun_kd.lay, hres[i]) + 8, c->nsec + hres[i]);
	}
	for (unsigned i = 0; i < 2; i++) {
		oe_put64(oe_clock_base(e, aorun_kd.lay, coarse[i]), c->sec + (coarse[i] + 1) * 1000003ULL);
		oe_put64(oe_clock_base(e, aorun_kd.lay, coarse[i]) + 8,
			 ((c->shift < 64 ? c->nsec >> c->shift : 0) + coarse[i]) % 1000000000ULL);
	}
}

void aorun_get_clock(unsigned page, struct aorun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = aorun_kd.lay->field_shift;

	c->cycle_last = oe_get64(e + FR_OFF_CYCLE_LAST);
	c->mask = oe_get64(e + FR_OFF_MASK + fs);
	c->mult = oe_get32(e + FR_OFF_MULT + fs);
	c->shift = oe_get32(e + FR_OFF_SHIFT + fs);
	c->sec = oe_get64(raw_base(e));
	c->nsec = oe_get64(raw_base(e) + 8);
}

void aorun_set_timens(uint64_t off_sec, uint64_t off_nsec)
{
	oe_set_timens(aorun_ac.vvar, aorun_kd.lay, off_sec, off_nsec);
}
