/* SPDX-License-Identifier: MIT */
/* The oracle's page editors: the RAW entry, the namespace page, the pvclock and Hyper-V pages of the copy. */
#include <string.h>

#include "orun.h"

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint8_t *entry(unsigned page, unsigned idx)
{
	const struct fr_layout *lay = orun_kd.lay;

	return orun_vc.vvar + page * VC_PAGE + lay->data_off + idx * lay->clock_size;
}

/* basetime[CLOCK_MONOTONIC_RAW] (or the namespace offset stored in its place) of an entry. */
static uint8_t *raw_base(uint8_t *e)
{
	return e + FR_OFF_BASETIME + orun_kd.lay->field_shift + 16 * FR_CLOCK_RAW_ID;
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

	put32(entry(page, 0) + FR_OFF_MODE, (uint32_t)mode);
	put32(e + FR_OFF_MODE, (uint32_t)mode);
	put64(e + FR_OFF_CYCLE_LAST, c->cycle_last);
	/* Before 6.10 there is no max_cycles: offset 16 is the mask. */
	if (fs)
		put64(e + FR_OFF_MAX_CYCLES, c->max_cycles);
	put64(e + FR_OFF_MASK + fs, ~0ULL);
	put32(e + FR_OFF_MULT + fs, c->mult);
	put32(e + FR_OFF_SHIFT + fs, c->shift);
	put64(raw_base(e), c->sec);
	put64(raw_base(e) + 8, c->nsec);
}

void orun_get_clock(unsigned page, struct orun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = orun_kd.lay->field_shift;

	c->cycle_last = get64(e + FR_OFF_CYCLE_LAST);
	c->max_cycles = fs ? get64(e + FR_OFF_MAX_CYCLES) : ~0ULL;
	c->mult = get32(e + FR_OFF_MULT + fs);
	c->shift = get32(e + FR_OFF_SHIFT + fs);
	c->sec = get64(raw_base(e));
	c->nsec = get64(raw_base(e) + 8);
}

void orun_set_timens(uint64_t off_sec, uint64_t off_nsec)
{
	unsigned tp = orun_timens_page();

	if (get32(entry(0, 1) + FR_OFF_MODE) != orun_kd.lay->timens_mode) {
		memcpy(orun_vc.vvar + tp * VC_PAGE, orun_vc.vvar, VC_PAGE);
		memset(orun_vc.vvar, 0, VC_PAGE);
		for (unsigned i = 0; i < 2; i++) {
			put32(entry(0, i) + FR_OFF_SEQ, 1);
			put32(entry(0, i) + FR_OFF_MODE, orun_kd.lay->timens_mode);
		}
	}
	put64(raw_base(entry(0, 1)), off_sec);
	put64(raw_base(entry(0, 1)) + 8, off_nsec);
}

void orun_get_pv(struct orun_pv *p)
{
	const uint8_t *pv = orun_vc.vclock;

	p->tsc_timestamp = get64(pv + FR_PV_TSC_TIMESTAMP);
	p->system_time = get64(pv + FR_PV_SYSTEM_TIME);
	p->mul = get32(pv + FR_PV_MUL);
	p->shift = (int8_t)pv[FR_PV_SHIFT];
	p->flags = pv[FR_PV_FLAGS];
}

void orun_set_pv(const struct orun_pv *p)
{
	uint8_t *pv = orun_vc.vclock;

	put64(pv + FR_PV_TSC_TIMESTAMP, p->tsc_timestamp);
	put64(pv + FR_PV_SYSTEM_TIME, p->system_time);
	put32(pv + FR_PV_MUL, p->mul);
	pv[FR_PV_SHIFT] = (uint8_t)p->shift;
	pv[FR_PV_FLAGS] = p->flags;
}

void orun_get_hv(struct orun_hv *h)
{
	h->sequence = get32(orun_vc.hvclock + FR_HV_SEQUENCE);
	h->scale = get64(orun_vc.hvclock + FR_HV_SCALE);
	h->offset = get64(orun_vc.hvclock + FR_HV_OFFSET);
}

void orun_set_hv(const struct orun_hv *h)
{
	put32(orun_vc.hvclock + FR_HV_SEQUENCE, h->sequence);
	put64(orun_vc.hvclock + FR_HV_SCALE, h->scale);
	put64(orun_vc.hvclock + FR_HV_OFFSET, h->offset);
}
