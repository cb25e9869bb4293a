/* SPDX-License-Identifier: MIT */
/* Late conversion of a counter value to CLOCK_MONOTONIC_RAW with the data pages as they are now. */
#include "exact/convert.h"

#include "exact/fastpath.h"

/* kvmclock nanoseconds for tsc on the line of the pvclock page's current parameters. */
static int pvclock_at(const volatile uint8_t *pv, uint64_t tsc, uint64_t *out)
{
	struct fr_pvclock_vals p;

	if (fr_pvclock_snapshot(pv, NULL, &p, NULL) != FR_OK)
		return FR_PASS;
	*out = fr_pvclock_line(&p, tsc);
	return FR_OK;
}

/* Hyper-V reference time for tsc with the TSC page's current scale and offset (a line: exact). */
static int hvclock_at(const volatile uint8_t *hv, uint64_t tsc, uint64_t *out)
{
	struct fr_hvclock_vals h;

	if (fr_hvclock_snapshot(hv, NULL, &h, NULL) != FR_OK)
		return FR_PASS;
	*out = fr_hvclock_cycles(&h, tsc);
	return FR_OK;
}

/* cycles_of for a given tick value: the tick itself, or the vclock page's value on its line. */
static int tick_cycles(const struct fr_kdata *kd, int32_t mode, const void *ctx, uint64_t *cycles)
{
	uint64_t ticks = *(const uint64_t *)ctx;

	if (mode == FR_MODE_PVCLOCK)
		return kd->vclock ? pvclock_at(kd->vclock, ticks, cycles) : FR_PASS;
	if (mode == FR_MODE_TSC) {
		*cycles = ticks;
		return FR_OK;
	}
	if (mode == FR_MODE_HVCLOCK)
		return kd->hvclock ? hvclock_at(kd->hvclock, ticks, cycles) : FR_PASS;
	return FR_PASS;
}

int fr_ticks_to_ns(const struct fr_kdata *kd, uint64_t ticks, int64_t *out)
{
	struct fr_raw_vals v;
	uint64_t cycles, off_sec, off_nsec;

	if (fr_raw_snapshot(kd, kd->lay->rules, kd->lay->field_shift, tick_cycles, &ticks, &cycles, &v, &off_sec,
			    &off_nsec) != FR_OK)
		return FR_PASS;
	/* Masked as the vDSO masks its own shifts: a torn page must not make the shift undefined. */
	v.shift &= 127;
	*out = (int64_t)((uint64_t)fr_raw_line_ns(cycles, &v) + off_sec * FR_NSEC_PER_SEC + off_nsec);
	return FR_OK;
}
