/* SPDX-License-Identifier: MIT */
/* math/wide.h: the portable 128-bit steps against the compiler's __int128 where it has one, and against identities everywhere. */
#include <check.h>
#include <stdint.h>

#include "math/wide.h"
#include "run_suite.h"

/* xorshift64*, with magnitudes spread over every bit length. */
static uint64_t next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	x *= 0x2545F4914F6CDD1DULL;
	return x >> (x % 64);
}

#ifdef __SIZEOF_INT128__
static unsigned __int128 native(fr_w128 w)
{
	return (unsigned __int128)w.hi << 64 | w.lo;
}

static fr_w128 portable(unsigned __int128 v)
{
	return (fr_w128){ (uint64_t)v, (uint64_t)(v >> 64) };
}

/* Every fr_w_* step against the same operator on __int128, over random operands. */
START_TEST(portable_against_native)
{
	uint64_t seed = 0x5eed;

	for (int n = 0; n < 20000; n++) {
		uint64_t a = next(&seed), b = next(&seed), c = next(&seed);
		int64_t sa = (int64_t)a * ((n & 1) ? 1 : -1), sb = (int64_t)b * ((n & 2) ? 1 : -1);
		unsigned s = (unsigned)(c % 128);
		unsigned __int128 x = (unsigned __int128)a << 64 | c, y = (unsigned __int128)b * c + 1;
		fr_w128 px = portable(x), py = portable(y);

		ck_assert(native(fr_w_mul(a, b)) == (unsigned __int128)a * b);
		ck_assert(native(fr_w_mul_w(px, b)) == x * b);
		ck_assert(native(fr_w_smul(sa, sb)) == (unsigned __int128)((__int128)sa * sb));
		ck_assert(native(fr_w_of_s(sa)) == (unsigned __int128)(__int128)sa);
		ck_assert(native(fr_w_add(px, py)) == x + y);
		ck_assert(native(fr_w_sub(px, py)) == x - y);
		ck_assert(native(fr_w_neg(px)) == -x);
		ck_assert(native(fr_w_shl(px, s)) == x << s);
		ck_assert(native(fr_w_shr(px, s)) == x >> s);
		ck_assert(native(fr_w_sar(px, s)) == (unsigned __int128)((__int128)x >> s));
		ck_assert_int_eq(fr_w_ult(px, py), x < y);
		ck_assert_int_eq(fr_w_slt(px, py), (__int128)x < (__int128)y);
		ck_assert(native(fr_w_udiv(px, py)) == x / y);
		ck_assert(native(fr_w_udiv(px, fr_w_of(b | 1))) == x / (b | 1));
	}
}
END_TEST
#endif

/* Identities that hold on every target, whichever form fr_u128 has here. */
START_TEST(identities)
{
	uint64_t seed = 0xa11;

	/* By hand: (2^64 - 1)^2 = 2^128 - 2^65 + 1. */
	ck_assert_uint_eq(fr_w_mul(UINT64_MAX, UINT64_MAX).hi, UINT64_MAX - 1);
	ck_assert_uint_eq(fr_w_mul(UINT64_MAX, UINT64_MAX).lo, 1);
	ck_assert_uint_eq(fr_u128_lo(fr_u128_shr(fr_u128_mul(1ULL << 63, 4), 64)), 2);
	ck_assert_int_eq(fr_s128_lo(fr_s128_sar(fr_s128_of(-5), 1)), -3);
	ck_assert_int_eq(fr_s128_lo(fr_s128_half(fr_s128_of(-5))), -2);
	for (int n = 0; n < 10000; n++) {
		uint64_t a = next(&seed), b = next(&seed) | 1, add = next(&seed) % b;
		fr_u128 p = fr_u128_add64(fr_u128_mul(a, b), add);
		int64_t sa = (int64_t)(a >> 1) * ((n & 1) ? 1 : -1), sb = (int64_t)(b >> 1) * ((n & 2) ? 1 : -1);

		/* Division undoes the product, whatever the remainder below the divisor. */
		ck_assert_uint_eq(fr_u128_lo(fr_u128_div64(p, b)), a);
		ck_assert(!fr_u128_gt64(fr_u128_div64(p, b), UINT64_MAX));
		/* A shift left then right by the same count is the identity while no bit falls off. */
		ck_assert_uint_eq(fr_u128_lo(fr_u128_shr(fr_u128_shl(fr_u128_of(a), 63), 63)), a);
		/* The signed product's sign and magnitude. */
		ck_assert(fr_s128_lt(fr_s128_mul(sa, sb), fr_s128_of(0)) == ((sa < 0) != (sb < 0) && sa && sb));
		ck_assert(fr_s128_eq(fr_s128_add(fr_s128_mul(sa, sb), fr_s128_mul(-sa, sb)), fr_s128_of(0)));
	}
}
END_TEST

static Suite *wide_suite(void)
{
	Suite *s = suite_create("wide");
	TCase *tc = tcase_create("wide");

#ifdef __SIZEOF_INT128__
	tcase_add_test(tc, portable_against_native);
#endif
	tcase_add_test(tc, identities);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(wide_suite());
}
