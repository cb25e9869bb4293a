/* SPDX-License-Identifier: MIT */
/* Calibrated mode's seed: may the counter be trusted, and its rate from the kernel's mult/shift or the CPU's report. */
#include "calib/calib_seed.h"
#include "math/wide.h"

#include <stddef.h>

#define NSEC_PER_SEC 1000000000ULL
#define USEC_PER_SEC 1000000ULL

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Whether word is one of the whitespace-separated words of [s, end): "tsc-early" is not "tsc". */
static int has_word(const char *s, const char *end, const char *word)
{
	while (s < end) {
		const char *w = word;

		while (s < end && is_space(*s))
			s++;
		while (s < end && *w && *s == *w) {
			s++;
			w++;
		}
		if (!*w && (s == end || is_space(*s)))
			return 1;
		while (s < end && !is_space(*s))
			s++;
	}
	return 0;
}

static const char *string_end(const char *s)
{
	while (*s)
		s++;
	return s;
}

/* Whether [s, end), without surrounding blanks, is exactly key. */
static int is_key(const char *s, const char *end, const char *key)
{
	while (s < end && is_space(*s))
		s++;
	while (end > s && is_space(end[-1]))
		end--;
	while (s < end && *key && *s == *key) {
		s++;
		key++;
	}
	return s == end && !*key;
}

/*
 * Finds the value of the "flags" line of the first processor in /proc/cpuinfo text: the first
 * block ends at a blank line or at the second "processor" line. Other keys that end in "flags"
 * ("vmx flags") do not count. Returns 1 and sets [*v, *v_end) when found.
 */
static int first_cpu_flags(const char *text, const char **v, const char **v_end)
{
	const char *p = text;
	int seen_line = 0, seen_processor = 0;

	while (*p) {
		const char *eol = p, *colon = NULL, *q;

		while (*eol && *eol != '\n') {
			if (*eol == ':' && !colon)
				colon = eol;
			eol++;
		}
		for (q = p; q < eol && is_space(*q); q++)
			;
		if (q == eol) {
			if (seen_line)
				return 0;
		} else {
			seen_line = 1;
			if (colon && is_key(p, colon, "processor")) {
				if (seen_processor)
					return 0;
				seen_processor = 1;
			} else if (colon && is_key(p, colon, "flags")) {
				*v = colon + 1;
				*v_end = eol;
				return 1;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

const char *fr_cal_seed_eligible(const struct fr_cpu_features *cpu, int kernel_counter,
				 const char *available_clocksource, const char *cpuinfo, const char *cmdline)
{
	const char *v, *v_end;

	if ((!cpu || !cpu->invariant_counter) && kernel_counter != 1)
		return kernel_counter == 0 ? FR_ARCH_INVARIANT_WHY " and the kernel's data page does not say clock mode "
					       FR_ARCH_COUNTER_WORD " (its clocksource is another)"
					   : FR_ARCH_INVARIANT_WHY;
	if (available_clocksource && has_word(available_clocksource, string_end(available_clocksource), FR_ARCH_CLOCKSOURCE))
		return NULL;
	if (cmdline && has_word(cmdline, string_end(cmdline), FR_ARCH_CMDLINE_UNSTABLE))
		return "the kernel was booted with " FR_ARCH_CMDLINE_UNSTABLE;
	if (cpuinfo && first_cpu_flags(cpuinfo, &v, &v_end) && has_word(v, v_end, FR_ARCH_CPUINFO_RELIABLE))
		return NULL;
	return FR_ARCH_UNTRUSTED_WHY;
}

/* round(num / den) when it fits in 64 bits and is nonzero, else 0 (unknown). */
static uint64_t div_round(fr_u128 num, uint64_t den)
{
	fr_u128 q;

	if (!den)
		return 0;
	q = fr_u128_div64(fr_u128_add64(num, den / 2), den);
	return fr_u128_gt64(q, UINT64_MAX) ? 0 : fr_u128_lo(q);
}

uint64_t fr_cal_seed_mult_from_khz(uint64_t khz)
{
	/* ns per tick = 1e6 / khz; in 32.32, 1e6 * 2^32 < 2^53 leaves room for any khz. */
	return div_round(fr_u128_shl(fr_u128_of(USEC_PER_SEC), 32), khz);
}

uint64_t fr_cal_seed_mult_from_shift(uint32_t mult, uint32_t shift)
{
	/* ns per tick = mult / 2^shift: mult << 32 still fits 64 bits, so no left shift overflows. */
	if (shift <= 32)
		return (uint64_t)mult << (32 - shift);
	if (shift >= 64)
		return 0;
	return mult >> (shift - 32);
}

uint64_t fr_cal_seed_mult_from_pvclock(uint32_t tsc_to_system_mul, int8_t tsc_shift)
{
	/*
	 * pvclock: ns = ((tsc scaled by 2^tsc_shift) * mul) >> 32, so one tick is mul * 2^tsc_shift
	 * in 32.32. A result beyond 64 bits (a tick of 2^32 ns or more) is no rate: 0.
	 */
	if (tsc_shift >= 0) {
		if (tsc_shift >= 64 || (uint64_t)tsc_to_system_mul > (UINT64_MAX >> tsc_shift))
			return 0;
		return (uint64_t)tsc_to_system_mul << tsc_shift;
	}
	if (tsc_shift <= -32)
		return 0;
	return tsc_to_system_mul >> -tsc_shift;
}

void fr_cal_seed_from_rates(const struct fr_arch_rates *rates, struct fr_cal_seed *out)
{
	out->mult = 0;
	out->source = "none";
	out->kmult = out->kshift = 0;
	if (!rates)
		return;
	/*
	 * A tick is 1e9 * hz_den / hz_num ns, in 32.32. A rate too slow to give a 64-bit mult
	 * (a tick of 2^32 ns or more), or a zero numerator or denominator, is no rate: the next
	 * candidate is tried.
	 */
	for (int i = 0; i < rates->n && i < FR_ARCH_RATES_MAX; i++) {
		const struct fr_arch_rate *r = &rates->r[i];
		uint64_t m = div_round(fr_u128_mul_w(fr_u128_shl(fr_u128_of(NSEC_PER_SEC), 32), r->hz_den), r->hz_num);

		if (m) {
			out->mult = m;
			out->source = r->source;
			return;
		}
	}
}
