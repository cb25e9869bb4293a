/* SPDX-License-Identifier: MIT */
/* Pure conversion math: counter value to CLOCK_MONOTONIC_RAW, by the vDSO rules of each kernel era and architecture. */
#ifndef FR_RAWMATH_H
#define FR_RAWMATH_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "base/access.h"
#include "math/wide.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

#define FR_NSEC_PER_SEC 1000000000ULL
#define FR_S64_MAX 0x7fffffffffffffffULL
#define FR_BIT62 (1ULL << 62)

/* Status of a computation: done, or "let the real vDSO answer this call". */
enum { FR_OK = 0, FR_PASS = 1 };

/*
 * How the vDSO turns (cycles - cycle_last) into nanoseconds; the rules changed twice.
 * FR_RULES_5_3:  5.3-6.4, arch/x86 vdso_calc_delta with "cycles > last".
 * FR_RULES_6_5:  6.5-6.9, commit 77750f78b0b3: bit 62 of the delta marks negative motion.
 * FR_RULES_6_10: 6.10+, commit 7e90ffb716d2: max_cycles and a 128-bit slow path.
 * Those three are x86's. Architectures whose vDSO keeps lib/vdso's default delta (arm64 in every
 * era from 5.3; no GENERIC_VDSO_OVERFLOW_PROTECT, no "invalid" counter marker) have one rule:
 * FR_RULES_MASKED: ((cycles - cycle_last) & mask) * mult + base, in 64 bits, >> shift.
 */
enum fr_rules { FR_RULES_5_3, FR_RULES_6_5, FR_RULES_6_10, FR_RULES_MASKED };
#define FR_RULES_COUNT 4

/* The values of one clock entry that one reading uses, taken inside one seqcount window. */
struct fr_raw_vals {
	uint64_t cycle_last;
	uint64_t max_cycles; /* only read under FR_RULES_6_10 */
	uint32_t mult;
	uint32_t shift;
	uint64_t base_sec;
	uint64_t base_nsec; /* already shifted left by shift */
	uint64_t mask;      /* only read under FR_RULES_MASKED (last: positional initialisers stay valid) */
};

/* The clocksource read must not have bit 63 set: the vDSO's "invalid" marker sends it to the syscall. */
static inline int fr_cycles_ok(uint64_t cycles)
{
	return (int64_t)cycles >= 0;
}

/* Nanoseconds since base_sec, unnormalised, exactly as the era's vDSO computes them. */
static inline uint64_t fr_raw_ns(enum fr_rules rules, uint64_t cycles, const struct fr_raw_vals *v)
{
	uint64_t delta;

	switch (rules) {
	case FR_RULES_5_3:
		/* The generic code's "& mask" went before 5.3 was released (commit 9d90b93bf325). */
		if (cycles > v->cycle_last)
			return (v->base_nsec + (cycles - v->cycle_last) * v->mult) >> v->shift;
		return v->base_nsec >> v->shift;
	case FR_RULES_6_5:
		delta = (cycles - v->cycle_last) & FR_S64_MAX;
		if (delta & FR_BIT62)
			return v->base_nsec >> v->shift;
		return (v->base_nsec + delta * v->mult) >> v->shift;
	case FR_RULES_MASKED:
		/* The kernel's shifts are machine shifts: the shift count is taken modulo 64. */
		return (((cycles - v->cycle_last) & v->mask) * v->mult + v->base_nsec) >> (v->shift & 63);
	case FR_RULES_6_10:
	default:
		delta = cycles - v->cycle_last;
		if (FR_UNLIKELY(delta > v->max_cycles)) {
			if (delta & FR_BIT62)
				return v->base_nsec >> v->shift;
			return fr_u128_lo(fr_u128_shr(fr_u128_add64(fr_u128_mul(delta & FR_S64_MAX, v->mult), v->base_nsec),
						      v->shift));
		}
		return (delta * v->mult + v->base_nsec) >> v->shift;
	}
}

/*
 * sec + ns split into a timespec. The kernel subtracts 1e9 in a loop (__iter_div_u64_rem)
 * whose quotient is a u32, so the carry into seconds wraps at 2^32; a division truncated to
 * 32 bits gives the same result and stays fast for the huge values a long pause can produce.
 */
static inline void fr_ts_set(struct timespec *ts, uint64_t sec, uint64_t ns)
{
	if (FR_LIKELY(ns < FR_NSEC_PER_SEC)) {
		/* Nothing to carry. */
	} else if (ns < 2 * FR_NSEC_PER_SEC) {
		ns -= FR_NSEC_PER_SEC;
		sec++;
	} else {
		sec += (uint32_t)(ns / FR_NSEC_PER_SEC);
		ns %= FR_NSEC_PER_SEC;
	}
#if __SIZEOF_LONG__ < 8 && defined(__USE_TIME_BITS64)
	/*
	 * 32-bit ABIs with 64-bit time_t (armhf under _TIME_BITS=64): tv_nsec is 32 bits followed by
	 * 32 bits of padding (little-endian), which the kernel's __kernel_timespec, the one its vDSO
	 * and clock_gettime64 write, fills with 0: so do we, all 16 bytes, as glibc's caller sees them.
	 */
	typedef struct {
		int64_t sec, nsec;
	} __attribute__((may_alias)) fr_kts;
	_Static_assert(sizeof(struct timespec) == sizeof(fr_kts), "a 64-bit-time timespec is 16 bytes");

	((fr_kts *)ts)->sec = (int64_t)sec;
	((fr_kts *)ts)->nsec = (int64_t)ns;
#else
	ts->tv_sec = (time_t)sec;
	ts->tv_nsec = (long)ns;
#endif
}

/*
 * A timespec as glibc's 32-bit-time one (its clock_gettime on 32-bit ABIs, 2.31+): -EOVERFLOW,
 * *sec and *nsec untouched, when tv_sec leaves int32_t; else 0 with both fields.
 */
static inline int fr_ts_to32(const struct timespec *ts, int32_t *sec, int32_t *nsec)
{
	if ((int64_t)ts->tv_sec != (int32_t)ts->tv_sec)
		return -EOVERFLOW;
	*sec = (int32_t)ts->tv_sec;
	*nsec = (int32_t)ts->tv_nsec;
	return 0;
}

/* Below this many nanoseconds fr_ts_set's carry into seconds is a plain division (2^32 s). */
#define FR_NS_CARRY_EXACT (FR_NSEC_PER_SEC << 32)

/*
 * tv_sec * 1e9 + tv_nsec of the timespec fr_ts_set(sec, ns) makes, in 64-bit two's complement,
 * without splitting: below FR_NS_CARRY_EXACT the split and the sum are the same number.
 */
static inline int64_t fr_ts_ns(uint64_t sec, uint64_t ns)
{
	if (FR_LIKELY(ns < FR_NS_CARRY_EXACT))
		return (int64_t)(sec * FR_NSEC_PER_SEC + ns);
	sec += (uint32_t)(ns / FR_NSEC_PER_SEC);
	return (int64_t)(sec * FR_NSEC_PER_SEC + ns % FR_NSEC_PER_SEC);
}

/*
 * The RAW clock in nanoseconds on the line of one snapshot, for a counter value before or
 * after cycle_last: sec * 1e9 + floor((B + (cycles - L) * mult) / 2^shift), in 128 bits.
 * The kernel accumulates RAW exactly (B grows by (L' - L) * mult, whole seconds carried), so
 * every snapshot of one clocksource lies on the same line: for cycles >= L this is what the
 * era's vDSO returns, and for cycles < L what a reading from an earlier snapshot returned.
 * (The vDSO itself clamps cycles < L to the base: that is a live reading racing a CPU whose
 * counter lags, not a conversion.)
 */
static inline int64_t fr_raw_line_ns(uint64_t cycles, const struct fr_raw_vals *v)
{
	fr_s128 x = fr_s128_add(fr_s128_mul((int64_t)(cycles - v->cycle_last), v->mult),
				fr_s128_of_u(fr_u128_of(v->base_nsec)));

	/* The shift is arithmetic: a floor. */
	return (int64_t)(v->base_sec * FR_NSEC_PER_SEC + (uint64_t)fr_s128_lo(fr_s128_sar(x, v->shift)));
}

/* struct pvclock_vcpu_time_info (arch/x86/include/asm/pvclock-abi.h), the values one reading uses. */
struct fr_pvclock_vals {
	uint64_t tsc_timestamp;
	uint64_t system_time;
	uint32_t mul;
	int8_t shift;
};

/*
 * (u64)((delta * mul) >> 32) with a 128-bit product, computed as two independent 64-bit
 * products of the halves of delta: the same bits, a shorter dependent chain than mul + shrd.
 */
static inline uint64_t fr_mul_u64_u32_shr32(uint64_t delta, uint32_t mul)
{
	return (delta >> 32) * mul + (((delta & 0xffffffffu) * mul) >> 32);
}

/*
 * kvmclock nanoseconds for one TSC value. Returns FR_PASS when the TSC is below tsc_timestamp:
 * mainline lets the unsigned delta wrap there while some vendor kernels clamp it to zero, so
 * only the running kernel's own code can answer exactly.
 */
static inline int fr_pvclock_cycles(const struct fr_pvclock_vals *p, uint64_t tsc, uint64_t *out)
{
	uint64_t delta = tsc - p->tsc_timestamp;

	if (FR_UNLIKELY((int64_t)delta < 0))
		return FR_PASS;
	if (p->shift < 0)
		delta >>= -p->shift;
	else
		delta <<= p->shift;
	*out = p->system_time + fr_mul_u64_u32_shr32(delta, p->mul);
	return FR_OK;
}

/*
 * kvmclock nanoseconds for a TSC value on the line of one pvclock snapshot, extrapolated
 * backwards below tsc_timestamp (which a live reading never is: there the result is an
 * estimate, the hypervisor having re-based the clock since).
 */
static inline uint64_t fr_pvclock_line(const struct fr_pvclock_vals *p, uint64_t tsc)
{
	uint64_t out, back = p->tsc_timestamp - tsc;

	if (fr_pvclock_cycles(p, tsc, &out) == FR_OK)
		return out;
	if (p->shift < 0)
		back >>= -p->shift;
	else
		back <<= p->shift;
	return p->system_time - fr_mul_u64_u32_shr32(back, p->mul);
}

/* struct ms_hyperv_tsc_page (include/clocksource/hyperv_timer.h, 4.11+), the values one reading uses. */
struct fr_hvclock_vals {
	uint64_t scale;
	uint64_t offset; /* s64 in the page: added modulo 2^64 */
};

/*
 * Hyper-V reference time (100 ns units) for one TSC value, as hv_read_tsc_page_tsc computes it:
 * mul_u64_u64_shr(tsc, scale, 64) + offset, the high half of the full 128-bit product. The
 * whole 64-bit TSC is used (bit 63 included); the 6.5+ "& S64_MAX" and the bit-63 "invalid"
 * test apply to the result, in the caller, as for every clocksource value.
 */
static inline uint64_t fr_hvclock_cycles(const struct fr_hvclock_vals *h, uint64_t tsc)
{
	return fr_u128_lo(fr_u128_shr(fr_u128_mul(tsc, h->scale), 64)) + h->offset;
}

#pragma GCC visibility pop

#endif
