/* SPDX-License-Identifier: MIT */
/* The oracle's page editors: the RAW entry, the namespace page, the pvclock and Hyper-V pages of the copy. */
#include <string.h>
#include <time.h>

#include "compare.h"
#include "../vvar_entry.h"

static uint8_t *entry(unsigned page, unsigned idx)
{
	return oe_entry(orun_vc.vvar, orun_kd.lay, page, idx);
}

static uint8_t *raw_base(uint8_t *e)
{
	return oe_raw_base(e, orun_kd.lay);
}

unsigned orun_timens_page(void)
{
	return orun_kd.lay->timens_page;
}

void orun_use_live_page(void)
{
	memcpy(orun_vc.vvar, orun_vc.time_page, VC_PAGE);
}

void orun_set_clock(unsigned page, int mode, const struct orun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = orun_kd.lay->field_shift;

	oe_put32(entry(page, 0) + FR_OFF_MODE, (uint32_t)mode);
	oe_put32(e + FR_OFF_MODE, (uint32_t)mode);
	oe_put64(e + FR_OFF_CYCLE_LAST, c->cycle_last);
	/* Before 6.10 there is no max_cycles: offset 16 is the mask. */
	if (fs)
		oe_put64(e + FR_OFF_MAX_CYCLES, c->max_cycles);
	oe_put64(e + FR_OFF_MASK + fs, ~0ULL);
	oe_put32(e + FR_OFF_MULT + fs, c->mult);
	oe_put32(e + FR_OFF_SHIFT + fs, c->shift);
	oe_put64(raw_base(e), c->sec);
	oe_put64(raw_base(e) + 8, c->nsec);
	orun_set_served_clocks(page, c);
}

/*
 * The CS_HRES_COARSE entry: RAW's clocksource fields (the kernel fills both from one
 * clocksource) but for mult, one step off as NTP's is (off a power of two on kvm-clock), and
 * for every served clock a base of its own, so that a reader taking another clock's base
 * cannot agree by chance: shifted nanoseconds for the high-resolution clocks, plain ones for
 * the coarse clocks.
 */
void orun_set_served_clocks(unsigned page, const struct orun_clock *c)
{
	static const unsigned hres[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI };
	static const unsigned coarse[] = { CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE };
	uint8_t *e = entry(page, 0);
	uint32_t fs = orun_kd.lay->field_shift;

	oe_put64(e + FR_OFF_CYCLE_LAST, c->cycle_last);
	if (fs)
		oe_put64(e + FR_OFF_MAX_CYCLES, c->max_cycles);
	oe_put64(e + FR_OFF_MASK + fs, ~0ULL);
	oe_put32(e + FR_OFF_MULT + fs, c->mult > 1 ? c->mult - 1 : c->mult + 1);
	oe_put32(e + FR_OFF_SHIFT + fs, c->shift);
	for (unsigned i = 0; i < 4; i++) {
		oe_put64(oe_clock_base(e, orun_kd.lay, hres[i]), c->sec + (hres[i] + 1) * 1000003ULL);
		oe_put64(oe_clock_base(e, orun_kd.lay, hres[i]) + 8, c->nsec + hres[i]);
	}
	for (unsigned i = 0; i < 2; i++) {
		oe_put64(oe_clock_base(e, orun_kd.lay, coarse[i]), c->sec + (coarse[i] + 1) * 1000003ULL);
		oe_put64(oe_clock_base(e, orun_kd.lay, coarse[i]) + 8,
			 ((c->shift < 64 ? c->nsec >> c->shift : 0) + coarse[i]) % 1000000000ULL);
	}
}

void orun_get_clock(unsigned page, struct orun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = orun_kd.lay->field_shift;

	c->cycle_last = oe_get64(e + FR_OFF_CYCLE_LAST);
	c->max_cycles = fs ? oe_get64(e + FR_OFF_MAX_CYCLES) : ~0ULL;
	c->mult = oe_get32(e + FR_OFF_MULT + fs);
	c->shift = oe_get32(e + FR_OFF_SHIFT + fs);
	c->sec = oe_get64(raw_base(e));
	c->nsec = oe_get64(raw_base(e) + 8);
}

void orun_set_timens(uint64_t off_sec, uint64_t off_nsec)
{
	oe_set_timens(orun_vc.vvar, orun_kd.lay, off_sec, off_nsec);
}

void orun_get_pv(struct orun_pv *p)
{
	const uint8_t *pv = orun_vc.vclock;

	p->tsc_timestamp = oe_get64(pv + FR_PV_TSC_TIMESTAMP);
	p->system_time = oe_get64(pv + FR_PV_SYSTEM_TIME);
	p->mul = oe_get32(pv + FR_PV_MUL);
	p->shift = (int8_t)pv[FR_PV_SHIFT];
	p->flags = pv[FR_PV_FLAGS];
}

void orun_set_pv(const struct orun_pv *p)
{
	uint8_t *pv = orun_vc.vclock;

	oe_put64(pv + FR_PV_TSC_TIMESTAMP, p->tsc_timestamp);
	oe_put64(pv + FR_PV_SYSTEM_TIME, p->system_time);
	oe_put32(pv + FR_PV_MUL, p->mul);
	pv[FR_PV_SHIFT] = (uint8_t)p->shift;
	pv[FR_PV_FLAGS] = p->flags;
}

void orun_get_hv(struct orun_hv *h)
{
	h->sequence = oe_get32(orun_vc.hvclock + FR_HV_SEQUENCE);
	h->scale = oe_get64(orun_vc.hvclock + FR_HV_SCALE);
	h->offset = oe_get64(orun_vc.hvclock + FR_HV_OFFSET);
}

void orun_set_hv(const struct orun_hv *h)
{
	oe_put32(orun_vc.hvclock + FR_HV_SEQUENCE, h->sequence);
	oe_put64(orun_vc.hvclock + FR_HV_SCALE, h->scale);
	oe_put64(orun_vc.hvclock + FR_HV_OFFSET, h->offset);
}
