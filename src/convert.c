/* SPDX-License-Identifier: MIT */
/* Late conversion of a counter value to CLOCK_MONOTONIC_RAW with the data pages as they are now. */
#include "convert.h"

#include "fastpath.h"

/* kvmclock nanoseconds for tsc from the pvclock page, under its version protocol. */
static int pvclock_at(const volatile uint8_t *pv, uint64_t tsc, uint64_t *out)
{
	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		struct fr_pvclock_vals p;
		uint32_t version = FR_LD32(pv + FR_PV_VERSION);

		if (version & 1) {
			__builtin_ia32_pause();
			continue;
		}
		FR_BARRIER();
		if (!(*(const volatile uint8_t *)(pv + FR_PV_FLAGS) & FR_PV_STABLE_BIT))
			return FR_PASS;
		p.tsc_timestamp = FR_LD64(pv + FR_PV_TSC_TIMESTAMP);
		p.system_time = FR_LD64(pv + FR_PV_SYSTEM_TIME);
		p.mul = FR_LD32(pv + FR_PV_MUL);
		p.shift = *(const volatile int8_t *)(pv + FR_PV_SHIFT);
		FR_BARRIER();
		if (FR_LD32(pv + FR_PV_VERSION) == version) {
			*out = fr_pvclock_line(&p, tsc);
			return FR_OK;
		}
	}
	return FR_PASS;
}

int fr_ticks_to_ns(const struct fr_kdata *kd, uint64_t ticks, int64_t *out)
{
	const volatile uint8_t *entry = kd->raw0;
	enum fr_rules rules = kd->lay->rules;
	uint32_t fs = kd->lay->field_shift;
	uint64_t off_sec = 0, off_nsec = 0;
	int in_ns = 0;

	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		const volatile uint8_t *base;
		struct fr_raw_vals v;
		uint64_t cycles;
		uint32_t seq = FR_LD32(entry + FR_OFF_SEQ);
		int32_t mode;

		if (seq & 1) {
			/* As fr_raw_read_general: a writer at work, or a namespace page with fixed offsets. */
			if (!in_ns && kd->raw_ns && FR_LD32(entry + FR_OFF_MODE) == kd->lay->timens_mode) {
				const volatile uint8_t *off = entry + FR_OFF_BASETIME + fs + 16 * FR_CLOCK_RAW_ID;

				off_sec = FR_LD64(off);
				off_nsec = FR_LD64(off + 8);
				entry = kd->raw_ns;
				in_ns = 1;
				continue;
			}
			__builtin_ia32_pause();
			continue;
		}
		FR_BARRIER();
		mode = (int32_t)FR_LD32(entry + FR_OFF_MODE);
		if (mode == FR_MODE_PVCLOCK) {
			if (!kd->vclock || pvclock_at(kd->vclock, ticks, &cycles) != FR_OK)
				return FR_PASS;
		} else if (mode == FR_MODE_TSC) {
			cycles = ticks;
		} else {
			return FR_PASS;
		}
		if (rules != FR_RULES_5_3)
			cycles &= FR_S64_MAX;
		if (!fr_cycles_ok(cycles))
			return FR_PASS;
		base = entry + FR_OFF_BASETIME + fs + 16 * FR_CLOCK_RAW_ID;
		v.cycle_last = FR_LD64(entry + FR_OFF_CYCLE_LAST);
		v.max_cycles = 0;
		v.mult = FR_LD32(entry + FR_OFF_MULT + fs);
		v.shift = FR_LD32(entry + FR_OFF_SHIFT + fs);
		v.base_sec = FR_LD64(base);
		v.base_nsec = FR_LD64(base + 8);
		FR_BARRIER();
		if (FR_LD32(entry + FR_OFF_SEQ) != seq)
			continue;
		/* Masked as the vDSO masks its own shifts: a torn page must not make the shift undefined. */
		v.shift &= 127;
		*out = (int64_t)((uint64_t)fr_raw_line_ns(cycles, &v) + off_sec * FR_NSEC_PER_SEC + off_nsec);
		return FR_OK;
	}
	return FR_PASS;
}
