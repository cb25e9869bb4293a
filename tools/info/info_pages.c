/* SPDX-License-Identifier: MIT */
/* The kernel's vDSO data pages as fastraw-info reports them: era, clock mode, RAW mult/shift, pvclock. */
#include <string.h>

#include "info/info.h"
#include "math/wide.h"

/* Mode, mult and shift of one clock entry, inside one seqcount window; 0 when it never settled. */
static int read_entry(const volatile uint8_t *e, uint32_t fs, struct info_pages *p)
{
	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		uint32_t seq = fr_seq_begin(e + FR_OFF_SEQ);

		if (seq & 1)
			return 0;
		p->mode = (int)FR_LD32(e + FR_OFF_MODE);
		p->mult = FR_LD32(e + FR_OFF_MULT + fs);
		p->shift = FR_LD32(e + FR_OFF_SHIFT + fs);
		if (!fr_seq_retry(e + FR_OFF_SEQ, seq))
			return 1;
	}
	return 0;
}

/* The pvclock page's scale and flags under its version protocol; 0 when it never settled. */
static int read_pvclock(const volatile uint8_t *pv, struct info_pages *p)
{
	for (int i = 0; i < FR_SEQ_TRIES; i++) {
		uint32_t version = fr_pvclock_begin(pv);

		p->pv_mul = FR_LD32(pv + FR_PV_MUL);
		p->pv_shift = FR_LDS8(pv + FR_PV_SHIFT);
		p->pv_flags = FR_LD8(pv + FR_PV_FLAGS);
		if (!fr_seq_retry(pv + FR_PV_VERSION, version))
			return 1;
	}
	return 0;
}

void info_pages_read(struct info_pages *p, const struct fr_status *st)
{
	struct fr_kdata own;
	const struct fr_kdata *kd;

	memset(p, 0, sizeof(*p));
	p->mode = p->timens = -1;
	/* The pages fr_init() found and checked, else the same choice start-up would make for its release. */
	p->problem = fr_tool_pages(st, &own, &p->pick, &kd);
	if (kd != &own) {
		p->era = kd->lay->name;
		p->era_note = st->pick.assumed ? st->pick.note : NULL;
	} else {
		p->era = strcmp(p->pick.era, "none") ? p->pick.era : NULL;
		p->era_note = p->pick.assumed ? p->pick.note : NULL;
		if (p->problem)
			return;
	}
	p->timens = fr_kdata_in_timens(kd);
	/* Inside a namespace page 0 holds only offsets: the real entry is on the timens page. */
	if (!read_entry(p->timens ? kd->raw_ns : kd->raw0, kd->lay->field_shift, p)) {
		p->mode = -1;
		p->problem = "data page never settled (seq odd or changing)";
		return;
	}
	p->have_mult = 1;
	/* The pvclock page is mapped only once the kernel has used pvclock mode: elsewhere it is SIGBUS. */
	if (fr_mode_is_pvclock(p->mode) && kd->vclock)
		p->have_pv = read_pvclock(kd->vclock, p);
}

/* A frequency beyond 64 bits is nonsense from nonsense fields: reported as 0, unknown. */
static uint64_t fit64(fr_u128 v)
{
	return fr_u128_gt64(v, UINT64_MAX) ? 0 : fr_u128_lo(v);
}

uint64_t info_mult_hz(uint32_t mult, uint32_t shift)
{
	/* ns = cycles * mult >> shift, so one cycle lasts mult / 2^shift ns. 1e9 < 2^30, shift < 64. */
	fr_u128 num;

	if (!mult || shift >= 64)
		return 0;
	num = fr_u128_shl(fr_u128_of(1000000000u), shift);
	return fit64(fr_u128_div64(fr_u128_add64(num, mult / 2), mult));
}

uint64_t info_pvclock_tsc_hz(uint32_t mul, int8_t shift)
{
	/*
	 * pvclock_scale_delta: ns = ((tsc_delta shifted left by tsc_shift, right when negative)
	 * * mul) >> 32, so one TSC tick lasts mul * 2^tsc_shift / 2^32 ns and
	 *     f = 1e9 * 2^32 / mul * 2^(-tsc_shift) = 1e9 * 2^(32 - tsc_shift) / mul  Hz.
	 * Here: mul 0xf446a645, tsc_shift -1 give 1e9 * 2^33 / 4098270789 = about 2.096 GHz.
	 * 1e9 < 2^30 keeps the numerator in 128 bits while 32 - tsc_shift <= 97.
	 */
	int e = 32 - shift;
	fr_u128 num = fr_u128_of(1000000000u), den = fr_u128_of(mul);

	if (!mul || e > 97)
		return 0;
	if (e >= 0)
		num = fr_u128_shl(num, (unsigned)e);
	else
		den = fr_u128_shl(den, (unsigned)-e);
	return fit64(fr_u128_div(fr_u128_add(num, fr_u128_shr(den, 1)), den));
}
