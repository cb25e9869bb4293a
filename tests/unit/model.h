/* SPDX-License-Identifier: MIT */
/* An independent model of the vDSO's RAW arithmetic (x86's three delta rules and the generic masked one), written from docs/kernel-data.md with u128. */
#ifndef FR_TEST_MODEL_H
#define FR_TEST_MODEL_H

#include <stdint.h>
#include <time.h>

#include "math/wide.h"

/*
 * Deliberately not sharing code with src/: every product is formed at full 128-bit width and
 * only then reduced to the 64 bits the kernel keeps, so a slip in the library's 64-bit
 * shortcuts shows up as a difference. The one thing shared is math/wide.h's 128-bit type, which
 * is the compiler's own where it has one (so on 64-bit targets the model is plain C); on 32-bit
 * targets its portable form, which tests/unit/test_wide.c checks against __int128 on 64-bit ones.
 */
typedef fr_u128 m_u128;

/* (a * b + add) as 128 bits, then >> s. */
static inline m_u128 m_mul_add(uint64_t a, uint64_t b, uint64_t add)
{
	return fr_u128_add64(fr_u128_mul(a, b), add);
}

/* The low 64 bits of (a * b) >> s, s < 128. */
static inline uint64_t m_mul_shr(uint64_t a, uint64_t b, unsigned s)
{
	return fr_u128_lo(fr_u128_shr(fr_u128_mul(a, b), s));
}

/* The delta rules: x86's three eras, and lib/vdso's generic masked delta (arm64, every era). */
enum m_era { M_5_3, M_6_5, M_6_10, M_MASKED };

#define M_S64_MAX ((uint64_t)INT64_MAX)
#define M_BIT62 ((uint64_t)1 << 62)
#define M_NSEC 1000000000ULL

/* Low 64 bits of ((B + d * mult) >> shift) as the kernel forms it in 64 bits (wrapping). */
static inline uint64_t m_wrap64(uint64_t d, uint32_t mult, uint64_t B, uint32_t shift)
{
	m_u128 full = m_mul_add(d, mult, B);

	return fr_u128_lo(full) >> shift; /* truncate first: the kernel's sum wraps at 2^64 */
}

/*
 * Nanoseconds since basetime.sec, unnormalised (§3):
 * 5.3-6.4:  c > L ? (B + (c-L)*mult) >> s : B >> s, in 64 bits.
 * 6.5-6.9:  d = (c-L) & S64_MAX; bit 62 of d ? B >> s : (B + d*mult) >> s, in 64 bits.
 * 6.10+:    d = c-L; d > max ? (bit 62 ? B >> s : ((u128)(d & S64_MAX)*mult + B) >> s)
 *                            : (d*mult + B) >> s in 64 bits.
 */
static inline uint64_t m_raw_ns(enum m_era era, uint64_t c, uint64_t L, uint64_t max, uint32_t mult,
				uint32_t shift, uint64_t B)
{
	uint64_t d;

	if (era == M_5_3)
		return c > L ? m_wrap64(c - L, mult, B, shift) : B >> shift;
	if (era == M_6_5) {
		d = (c - L) & M_S64_MAX;
		return (d & M_BIT62) ? B >> shift : m_wrap64(d, mult, B, shift);
	}
	d = c - L;
	if (d <= max)
		return m_wrap64(d, mult, B, shift);
	if (d & M_BIT62)
		return B >> shift;
	return fr_u128_lo(fr_u128_shr(m_mul_add(d & M_S64_MAX, mult, B), shift));
}

/*
 * The generic masked delta (lib/vdso vdso_calc_ns without GENERIC_VDSO_OVERFLOW_PROTECT, the
 * arm64 kernel-data section): d = (c - L) & mask; ns = (d * mult + B) >> shift. The product is
 * formed in 128 bits, then cut to the 64 bits the kernel's u64 arithmetic keeps; the shift is a
 * machine shift (count modulo 64). No test of bit 62 or 63: a counter behind cycle_last wraps
 * through the mask to a huge delta, as in the kernel.
 */
static inline uint64_t m_raw_masked(uint64_t c, uint64_t L, uint64_t mask, uint32_t mult, uint32_t shift,
				    uint64_t B)
{
	m_u128 full = m_mul_add((c - L) & mask, mult, B);

	return fr_u128_lo(full) >> (shift % 64);
}

/*
 * sec + ns as a normalised timespec. The vDSO carries with __iter_div_u64_rem (include/vdso/math64.h),
 * whose quotient is a u32: the seconds carried wrap at 2^32, the remainder is exact.
 */
static inline struct timespec m_ts(uint64_t sec, uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(sec + (uint32_t)(ns / M_NSEC));
	ts.tv_nsec = (long)(ns % M_NSEC);
	return ts;
}

/*
 * kvmclock ns for one TSC value (§6): (u64)((u128)(delta scaled by 2^tsc_shift) * mul >> 32)
 * + system_time. Returns 0 when the TSC lies below tsc_timestamp (as s64): kernels disagree
 * there (mainline wraps, some vendors clamp), so the library must pass the call on.
 */
static inline int m_pvclock(uint64_t tsc, uint64_t tsc_timestamp, uint64_t system_time, uint32_t mul,
			    int8_t tsc_shift, uint64_t *out)
{
	uint64_t delta = tsc - tsc_timestamp;

	if ((int64_t)delta < 0)
		return 0;
	if (tsc_shift < 0)
		delta >>= -tsc_shift;
	else
		delta <<= tsc_shift; /* the kernel shifts a u64: high bits are lost */
	*out = system_time + m_mul_shr(delta, mul, 32);
	return 1;
}

/*
 * Hyper-V reference time for one TSC value (docs/kernel-data.md §7): the high 64 bits of the full
 * 128-bit product tsc * scale, plus offset modulo 2^64. Returns 0 for sequence 0 (invalid page:
 * the vDSO makes the system call).
 */
static inline int m_hvclock(uint64_t tsc, uint32_t sequence, uint64_t scale, uint64_t offset, uint64_t *out)
{
	if (sequence == 0)
		return 0;
	*out = m_mul_shr(tsc, scale, 64) + offset;
	return 1;
}

/* A small deterministic generator (xorshift64*) for the randomised comparisons. */
static inline uint64_t m_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
