/* SPDX-License-Identifier: MIT */
/* 128-bit integer steps as functions: the compiler's __int128 on 64-bit targets, two 64-bit halves on 32-bit ones (arm), which have none. */
#ifndef FR_WIDE_H
#define FR_WIDE_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * fr_w128: the portable form, two's complement in two halves, defined on every target so that
 * the unit tests compare it with __int128 where the compiler has one (tests/unit/test_wide.c).
 * Every function is pure and branch-light; none allocates or calls libc (the calibrated
 * readers run in signal handlers).
 */
typedef struct fr_w128 {
	uint64_t lo, hi;
} fr_w128;

static inline fr_w128 fr_w_of(uint64_t v)
{
	return (fr_w128){ v, 0 };
}

/* v sign-extended, as a cast of an int64_t to a 128-bit type. */
static inline fr_w128 fr_w_of_s(int64_t v)
{
	return (fr_w128){ (uint64_t)v, v < 0 ? ~0ULL : 0 };
}

static inline fr_w128 fr_w_add(fr_w128 a, fr_w128 b)
{
	uint64_t lo = a.lo + b.lo;

	return (fr_w128){ lo, a.hi + b.hi + (lo < a.lo) };
}

static inline fr_w128 fr_w_sub(fr_w128 a, fr_w128 b)
{
	return (fr_w128){ a.lo - b.lo, a.hi - b.hi - (a.lo < b.lo) };
}

static inline fr_w128 fr_w_neg(fr_w128 a)
{
	return fr_w_sub(fr_w_of(0), a);
}

/* a * b, the full 128-bit product of two unsigned 64-bit values. */
static inline fr_w128 fr_w_mul(uint64_t a, uint64_t b)
{
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	return (fr_w128){ (mid << 32) | (ll & 0xffffffffu), hh + (lh >> 32) + (hl >> 32) + (mid >> 32) };
}

/* a * b modulo 2^128 (a 128-bit value times a 64-bit one, as C's unsigned wrap-around). */
static inline fr_w128 fr_w_mul_w(fr_w128 a, uint64_t b)
{
	fr_w128 p = fr_w_mul(a.lo, b);

	p.hi += a.hi * b;
	return p;
}

/* a * b of two signed 64-bit values, exact in 128 bits. */
static inline fr_w128 fr_w_smul(int64_t a, int64_t b)
{
	fr_w128 p = fr_w_mul(a < 0 ? 0 - (uint64_t)a : (uint64_t)a, b < 0 ? 0 - (uint64_t)b : (uint64_t)b);

	return (a < 0) != (b < 0) ? fr_w_neg(p) : p;
}

/* a << s, s < 128. */
static inline fr_w128 fr_w_shl(fr_w128 a, unsigned s)
{
	if (s >= 64)
		return (fr_w128){ 0, a.lo << (s - 64) };
	if (s == 0)
		return a;
	return (fr_w128){ a.lo << s, (a.hi << s) | (a.lo >> (64 - s)) };
}

/* a >> s, s < 128: logical (unsigned) or arithmetic (signed, a floor). */
static inline fr_w128 fr_w_shr(fr_w128 a, unsigned s)
{
	if (s >= 64)
		return (fr_w128){ a.hi >> (s - 64), 0 };
	if (s == 0)
		return a;
	return (fr_w128){ (a.lo >> s) | (a.hi << (64 - s)), a.hi >> s };
}

static inline fr_w128 fr_w_sar(fr_w128 a, unsigned s)
{
	uint64_t fill = (int64_t)a.hi < 0 ? ~0ULL : 0;

	if (s >= 64)
		return (fr_w128){ s == 64 ? a.hi : (uint64_t)((int64_t)a.hi >> (s - 64)), fill };
	if (s == 0)
		return a;
	return (fr_w128){ (a.lo >> s) | (a.hi << (64 - s)), (uint64_t)((int64_t)a.hi >> s) };
}

static inline int fr_w_eq(fr_w128 a, fr_w128 b)
{
	return a.lo == b.lo && a.hi == b.hi;
}

/* a < b, unsigned and signed. */
static inline int fr_w_ult(fr_w128 a, fr_w128 b)
{
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

static inline int fr_w_slt(fr_w128 a, fr_w128 b)
{
	return (int64_t)a.hi < (int64_t)b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/* n / d, unsigned, d != 0: restoring binary long division (at most 128 steps, no libgcc helper). */
static inline fr_w128 fr_w_udiv(fr_w128 n, fr_w128 d)
{
	fr_w128 q = fr_w_of(0), r = fr_w_of(0);

	if (!d.hi && !n.hi)
		return fr_w_of(n.lo / d.lo);
	for (int i = 127; i >= 0; i--) {
		r = fr_w_shl(r, 1);
		r.lo |= (i >= 64 ? n.hi >> (i - 64) : n.lo >> i) & 1;
		if (!fr_w_ult(r, d)) {
			r = fr_w_sub(r, d);
			if (i >= 64)
				q.hi |= 1ULL << (i - 64);
			else
				q.lo |= 1ULL << i;
		}
	}
	return q;
}

/*
 * fr_u128 and fr_s128, what the library's code uses: the compiler's types where it has them,
 * so that the 64-bit builds compile exactly the expressions they always did; fr_w128 elsewhere.
 * The functions below are the only operations: each is one C operator on the native types.
 */
#if defined(__SIZEOF_INT128__) && !defined(FR_WIDE_PORTABLE)
typedef unsigned __int128 fr_u128;
typedef __int128 fr_s128;

static inline fr_u128 fr_u128_of(uint64_t v) { return v; }
static inline fr_u128 fr_u128_of_s(int64_t v) { return (fr_u128)v; }
static inline fr_u128 fr_u128_mul(uint64_t a, uint64_t b) { return (fr_u128)a * b; }
static inline fr_u128 fr_u128_mul_w(fr_u128 a, uint64_t b) { return a * b; }
static inline fr_u128 fr_u128_add(fr_u128 a, fr_u128 b) { return a + b; }
static inline fr_u128 fr_u128_add64(fr_u128 a, uint64_t b) { return a + b; }
static inline fr_u128 fr_u128_shl(fr_u128 a, unsigned s) { return a << s; }
static inline fr_u128 fr_u128_shr(fr_u128 a, unsigned s) { return a >> s; }
static inline fr_u128 fr_u128_div(fr_u128 a, fr_u128 b) { return a / b; }
static inline fr_u128 fr_u128_div64(fr_u128 a, uint64_t b) { return a / b; }
static inline uint64_t fr_u128_lo(fr_u128 a) { return (uint64_t)a; }
static inline int fr_u128_gt64(fr_u128 a, uint64_t b) { return a > b; }
static inline int fr_u128_is0(fr_u128 a) { return a == 0; }

static inline fr_s128 fr_s128_of(int64_t v) { return v; }
static inline fr_s128 fr_s128_of_u(fr_u128 v) { return (fr_s128)v; }
static inline fr_u128 fr_s128_to_u(fr_s128 v) { return (fr_u128)v; }
static inline fr_s128 fr_s128_mul(int64_t a, int64_t b) { return (fr_s128)a * b; }
static inline fr_s128 fr_s128_add(fr_s128 a, fr_s128 b) { return a + b; }
static inline fr_s128 fr_s128_sub(fr_s128 a, fr_s128 b) { return a - b; }
static inline fr_s128 fr_s128_neg(fr_s128 a) { return -a; }
static inline fr_s128 fr_s128_half(fr_s128 a) { return a / 2; }
/* >> of a negative __int128 is arithmetic in GCC and Clang: a floor. */
static inline fr_s128 fr_s128_sar(fr_s128 a, unsigned s) { return a >> s; }
static inline int fr_s128_lt(fr_s128 a, fr_s128 b) { return a < b; }
static inline int fr_s128_eq(fr_s128 a, fr_s128 b) { return a == b; }
static inline int64_t fr_s128_lo(fr_s128 a) { return (int64_t)a; }
#else
typedef fr_w128 fr_u128;
typedef fr_w128 fr_s128;

static inline fr_u128 fr_u128_of(uint64_t v) { return fr_w_of(v); }
static inline fr_u128 fr_u128_of_s(int64_t v) { return fr_w_of_s(v); }
static inline fr_u128 fr_u128_mul(uint64_t a, uint64_t b) { return fr_w_mul(a, b); }
static inline fr_u128 fr_u128_mul_w(fr_u128 a, uint64_t b) { return fr_w_mul_w(a, b); }
static inline fr_u128 fr_u128_add(fr_u128 a, fr_u128 b) { return fr_w_add(a, b); }
static inline fr_u128 fr_u128_add64(fr_u128 a, uint64_t b) { return fr_w_add(a, fr_w_of(b)); }
static inline fr_u128 fr_u128_shl(fr_u128 a, unsigned s) { return fr_w_shl(a, s); }
static inline fr_u128 fr_u128_shr(fr_u128 a, unsigned s) { return fr_w_shr(a, s); }
static inline fr_u128 fr_u128_div(fr_u128 a, fr_u128 b) { return fr_w_udiv(a, b); }
static inline fr_u128 fr_u128_div64(fr_u128 a, uint64_t b) { return fr_w_udiv(a, fr_w_of(b)); }
static inline uint64_t fr_u128_lo(fr_u128 a) { return a.lo; }
static inline int fr_u128_gt64(fr_u128 a, uint64_t b) { return a.hi != 0 || a.lo > b; }
static inline int fr_u128_is0(fr_u128 a) { return !a.hi && !a.lo; }

static inline fr_s128 fr_s128_of(int64_t v) { return fr_w_of_s(v); }
static inline fr_s128 fr_s128_of_u(fr_u128 v) { return v; }
static inline fr_u128 fr_s128_to_u(fr_s128 v) { return v; }
static inline fr_s128 fr_s128_mul(int64_t a, int64_t b) { return fr_w_smul(a, b); }
static inline fr_s128 fr_s128_add(fr_s128 a, fr_s128 b) { return fr_w_add(a, b); }
static inline fr_s128 fr_s128_sub(fr_s128 a, fr_s128 b) { return fr_w_sub(a, b); }
static inline fr_s128 fr_s128_neg(fr_s128 a) { return fr_w_neg(a); }
/* a / 2 truncated toward zero, as C's signed division. */
static inline fr_s128 fr_s128_half(fr_s128 a)
{
	return (int64_t)a.hi < 0 ? fr_w_neg(fr_w_shr(fr_w_neg(a), 1)) : fr_w_shr(a, 1);
}
static inline fr_s128 fr_s128_sar(fr_s128 a, unsigned s) { return fr_w_sar(a, s); }
static inline int fr_s128_lt(fr_s128 a, fr_s128 b) { return fr_w_slt(a, b); }
static inline int fr_s128_eq(fr_s128 a, fr_s128 b) { return fr_w_eq(a, b); }
static inline int64_t fr_s128_lo(fr_s128 a) { return (int64_t)a.lo; }
#endif

#pragma GCC visibility pop

#endif
