/* SPDX-License-Identifier: MIT */
/* Late conversion of a counter value to CLOCK_MONOTONIC_RAW with the data pages as they are now. */
#include "exact/convert.h"

#include "exact/fastpath.h"

int fr_ticks_to_ns(const struct fr_kdata *kd, uint64_t ticks, int64_t *out)
{
	const struct fr_read r = { .kd = kd, .rules = kd->lay->rules, .fs = kd->lay->field_shift };
	struct fr_raw_vals v;
	uint64_t cycles, off_sec, off_nsec;

	if (fr_raw_snapshot(&r, ticks, &cycles, &v, &off_sec, &off_nsec) != FR_OK)
		return FR_PASS;
	/* Masked as the vDSO masks its own shifts: a torn page must not make the shift undefined. */
	v.shift &= 127;
	*out = (int64_t)((uint64_t)fr_raw_line_ns(cycles, &v) + off_sec * FR_NSEC_PER_SEC + off_nsec);
	return FR_OK;
}
