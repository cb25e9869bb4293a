/* SPDX-License-Identifier: MIT */
/* Byte access to a copied vvar page and its RAW entries, shared by every architecture's page editors. */
#ifndef FR_ORACLE_OENTRY_H
#define FR_ORACLE_OENTRY_H

#include <stdint.h>
#include <string.h>

#include "kdata/kdata.h"

#define OENTRY_PAGE 4096u

static inline void oe_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static inline void oe_put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static inline uint32_t oe_get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t oe_get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Entry idx (0 = high-resolution clocks, 1 = RAW's) of data page `page` in the copy at vvar. */
static inline uint8_t *oe_entry(uint8_t *vvar, const struct fr_layout *lay, unsigned page, unsigned idx)
{
	return vvar + page * OENTRY_PAGE + lay->data_off + idx * lay->clock_size;
}

/* basetime[CLOCK_MONOTONIC_RAW] (or the namespace offset stored in its place) of an entry. */
static inline uint8_t *oe_raw_base(uint8_t *e, const struct fr_layout *lay)
{
	return e + FR_OFF_BASETIME + lay->field_shift + 16 * FR_CLOCK_RAW_ID;
}

/* basetime[clk] (or the namespace offset stored in its place) of an entry. */
static inline uint8_t *oe_clock_base(uint8_t *e, const struct fr_layout *lay, unsigned clk)
{
	return e + FR_OFF_BASETIME + lay->field_shift + 16 * clk;
}

/*
 * The namespace offsets as the kernel fills them (timens_setup_vdso_data) for a monotonic
 * offset (sec, nsec): RAW, MONOTONIC and MONOTONIC_COARSE take it, BOOTTIME (and BOOTTIME_ALARM)
 * a boot offset of its own, here OE_BOOT_EXTRA seconds more, REALTIME and TAI none.
 */
#define OE_BOOT_EXTRA 86400u

/* Put the copy in a time namespace (data moved to the timens page) with RAW offset (sec, nsec). */
void oe_set_timens(uint8_t *vvar, const struct fr_layout *lay, uint64_t off_sec, uint64_t off_nsec);

#endif
