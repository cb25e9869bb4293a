/* SPDX-License-Identifier: MIT */
/* One exact CLOCK_MONOTONIC_RAW reading from the kernel's data pages, generic over the counter read. */
#ifndef FR_FASTPATH_H
#define FR_FASTPATH_H

#include <stdint.h>
#include <time.h>

#include "kdata.h"
#include "rawmath.h"

/* A counter read: rdtsc, lfence;rdtsc or rdtscp in production, a synthetic value in tests. */
typedef uint64_t (*fr_counter_fn)(void);

#define FR_LD32(p) (*(const volatile uint32_t *)(p))
#define FR_LD64(p) (*(const volatile uint64_t *)(p))
#define FR_BARRIER() __asm__ volatile("" ::: "memory")

/*
 * kvmclock nanoseconds from the pvclock page, as the vDSO's pvclock reader computes them.
 * Returns FR_PASS when the stable bit is clear (the vDSO then makes the system call), when the
 * TSC is below the page's timestamp, or when the version never settles.
 */
static inline __attribute__((always_inline)) int
fr_pvclock_read(const volatile uint8_t *pv, fr_counter_fn counter, uint64_t *cycles)
{
	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		struct fr_pvclock_vals p;
		uint32_t version = FR_LD32(pv + FR_PV_VERSION) & ~1u;
		uint64_t tsc;

		FR_BARRIER();
		if (__builtin_expect(!(*(const volatile uint8_t *)(pv + FR_PV_FLAGS) & FR_PV_STABLE_BIT), 0))
			return FR_PASS;
		p.tsc_timestamp = FR_LD64(pv + FR_PV_TSC_TIMESTAMP);
		p.system_time = FR_LD64(pv + FR_PV_SYSTEM_TIME);
		p.mul = FR_LD32(pv + FR_PV_MUL);
		p.shift = *(const volatile int8_t *)(pv + FR_PV_SHIFT);
		tsc = counter();
		FR_BARRIER();
		/* An odd version never equals the even one taken above, so an update in progress retries. */
		if (__builtin_expect(FR_LD32(pv + FR_PV_VERSION) == version, 1))
			return fr_pvclock_cycles(&p, tsc, cycles);
	}
	return FR_PASS;
}

/*
 * Reads CLOCK_MONOTONIC_RAW into ts exactly as the era's vDSO would for the same counter value,
 * or returns FR_PASS for the real vDSO to answer: a clock mode we do not compute (none, hvclock),
 * a cleared pvclock stable bit, the vDSO's "invalid" counter marker, or a seqcount that never
 * settles. Nothing is cached: every call reads seq, mode and fields afresh.
 */
static inline __attribute__((always_inline)) int
fr_raw_read_inline(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts)
{
	const struct fr_layout *lay = kd->lay;
	const volatile uint8_t *entry = fr_raw_entry(kd, 0);
	const uint32_t fs = lay->field_shift;
	uint64_t off_sec = 0, off_nsec = 0;
	int in_ns = 0;

	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		struct fr_raw_vals v;
		uint64_t cycles;
		uint32_t seq = FR_LD32(entry + FR_OFF_SEQ);
		int32_t mode;

		if (__builtin_expect(seq & 1, 0)) {
			/*
			 * Odd: a writer is at work, or this is a time-namespace page (seq 1 and the
			 * marker mode). The namespace offsets never change; the real data is on
			 * another page with its own seqcount.
			 */
			if (!in_ns && lay->timens_page && FR_LD32(entry + FR_OFF_MODE) == lay->timens_mode) {
				const volatile uint8_t *off = entry + FR_OFF_BASETIME + fs + 16 * FR_CLOCK_RAW_ID;

				off_sec = FR_LD64(off);
				off_nsec = FR_LD64(off + 8);
				entry = fr_raw_entry(kd, lay->timens_page);
				in_ns = 1;
				continue;
			}
			__builtin_ia32_pause();
			continue;
		}
		FR_BARRIER();
		mode = (int32_t)FR_LD32(entry + FR_OFF_MODE);
		v.cycle_last = FR_LD64(entry + FR_OFF_CYCLE_LAST);
		v.max_cycles = fs ? FR_LD64(entry + FR_OFF_MAX_CYCLES) : 0;
		v.mult = FR_LD32(entry + FR_OFF_MULT + fs);
		v.shift = FR_LD32(entry + FR_OFF_SHIFT + fs);
		v.base_sec = FR_LD64(entry + FR_OFF_BASETIME + fs + 16 * FR_CLOCK_RAW_ID);
		v.base_nsec = FR_LD64(entry + FR_OFF_BASETIME + fs + 16 * FR_CLOCK_RAW_ID + 8);

		if (__builtin_expect(mode == FR_MODE_PVCLOCK, 1)) {
			/* The pvclock page is mapped only once the kernel has used pvclock mode. */
			if (!kd->vclock || fr_pvclock_read(kd->vclock, counter, &cycles) != FR_OK)
				return FR_PASS;
		} else if (mode == FR_MODE_TSC) {
			cycles = counter();
		} else {
			return FR_PASS;
		}
		if (lay->rules != FR_RULES_5_3)
			cycles &= FR_S64_MAX;
		if (__builtin_expect(!fr_cycles_ok(cycles), 0))
			return FR_PASS;
		FR_BARRIER();
		if (__builtin_expect(FR_LD32(entry + FR_OFF_SEQ) != seq, 0))
			continue;

		/* Outside the loop body's reads: a race could make a huge value and a slow carry. */
		fr_ts_set(ts, v.base_sec + off_sec, fr_raw_ns(lay->rules, cycles, &v) + off_nsec);
		return FR_OK;
	}
	return FR_PASS;
}

/* The same with any counter, not inlined: for tests and tools. */
int fr_raw_read_with(const struct fr_kdata *kd, fr_counter_fn counter, struct timespec *ts);

/* The production counter reads, as functions (their reads are inlined into the fast paths). */
#include "counter.h"
fr_counter_fn fr_counter_for(enum fr_counter_mode mode);

#endif
