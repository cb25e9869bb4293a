/* SPDX-License-Identifier: MIT */
/* The arm64 oracle's page editors: the RAW entry and the time-namespace page of the copy. */
#include <string.h>

#include "aorun.h"

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
	const struct fr_layout *lay = aorun_kd.lay;

	return aorun_ac.vvar + page * AC_PAGE + lay->data_off + idx * lay->clock_size;
}

uint8_t *aorun_entry(unsigned page)
{
	return entry(page, 1);
}

/* basetime[CLOCK_MONOTONIC_RAW] (or the namespace offset stored in its place) of an entry. */
static uint8_t *raw_base(uint8_t *e)
{
	return e + FR_OFF_BASETIME + aorun_kd.lay->field_shift + 16 * FR_CLOCK_RAW_ID;
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

	put32(entry(page, 0) + FR_OFF_MODE, (uint32_t)mode);
	put32(e + FR_OFF_MODE, (uint32_t)mode);
	put64(e + FR_OFF_CYCLE_LAST, c->cycle_last);
	put64(e + FR_OFF_MASK + fs, c->mask);
	put32(e + FR_OFF_MULT + fs, c->mult);
	put32(e + FR_OFF_SHIFT + fs, c->shift);
	put64(raw_base(e), c->sec);
	put64(raw_base(e) + 8, c->nsec);
}

void aorun_get_clock(unsigned page, struct aorun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = aorun_kd.lay->field_shift;

	c->cycle_last = get64(e + FR_OFF_CYCLE_LAST);
	c->mask = get64(e + FR_OFF_MASK + fs);
	c->mult = get32(e + FR_OFF_MULT + fs);
	c->shift = get32(e + FR_OFF_SHIFT + fs);
	c->sec = get64(raw_base(e));
	c->nsec = get64(raw_base(e) + 8);
}

void aorun_set_timens(uint64_t off_sec, uint64_t off_nsec)
{
	unsigned tp = aorun_timens_page();

	if (get32(entry(0, 1) + FR_OFF_MODE) != aorun_kd.lay->timens_mode) {
		memcpy(aorun_ac.vvar + tp * AC_PAGE, aorun_ac.vvar, AC_PAGE);
		memset(aorun_ac.vvar, 0, AC_PAGE);
		for (unsigned i = 0; i < 2; i++) {
			put32(entry(0, i) + FR_OFF_SEQ, 1);
			put32(entry(0, i) + FR_OFF_MODE, aorun_kd.lay->timens_mode);
		}
	}
	put64(raw_base(entry(0, 1)), off_sec);
	put64(raw_base(entry(0, 1)) + 8, off_nsec);
}
