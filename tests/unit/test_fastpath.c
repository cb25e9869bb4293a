/* SPDX-License-Identifier: MIT */
/* Unit tests of fastpath.c, the RAW readers: fast and general readings of synthetic pages of every era, against the model. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run_suite.h"
#include "synth.h"

/* A TSC clocksource of about 2.1 GHz (mult 8004479, shift 24, as in docs/kernel-data.md §1.3). */
static const struct clockvals tsc_clock = {
	.seq = 2, .mode = FR_MODE_COUNTER, .L = 1000000000000ULL, .max = 0x7fffffffffULL,
	.mult = 8004479, .shift = 24, .sec = 1000, .B = (123456789ULL << 24) + 0x123,
};

#if FR_HAS_VCLOCK
/* kvm-clock as measured: mult 2^23, shift 23, max_cycles 0x1cd42e4dffb; its pvclock page. */
static const struct clockvals kvm_clock = {
	.seq = 4, .mode = FR_MODE_PVCLOCK, .max = 0x1cd42e4dffbULL, .mult = 1u << 23, .shift = 23,
	.sec = 86400, .B = 987654321ULL << 23,
};
static const struct pvvals kvm_pv = {
	.version = 0x10, .tsts = 0x123456789abcULL, .sys = 5000000000000ULL, .mul = 0xf446a645u, .shift = -1,
	.flags = FR_PV_STABLE_BIT,
};
#endif

START_TEST(tsc_deltas)
{
	static const uint64_t fwd[] = { 0, 1, 2500000, 1000000000, 5000000000ULL, 0x7fffffffffULL };
	static const uint64_t back[] = { 1, 1000000, 1000000000000ULL };
	struct synth s;
	struct clockvals v = tsc_clock;

	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	for (size_t k = 0; k < sizeof(fwd) / sizeof(fwd[0]); k++)
		synth_check_read(&s, &v, NULL, NULL, v.L + fwd[k], "tsc forward");
	for (size_t k = 0; k < sizeof(back) / sizeof(back[0]); k++)
		synth_check_read(&s, &v, NULL, NULL, v.L - back[k], "tsc below cycle_last");
	/* Beyond max_cycles (2^32 here): 2^42 * mult overflows 64 bits; 2^62 + 5 has bit 62. */
	v.L = 1000;
	v.max = 1ULL << 32;
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, NULL, NULL, v.L + (1ULL << 32), "tsc at max_cycles");
	synth_check_read(&s, &v, NULL, NULL, v.L + (1ULL << 32) + 1, "tsc past max_cycles");
	synth_check_read(&s, &v, NULL, NULL, v.L + (1ULL << 42), "tsc 2^42 past");
	synth_check_read(&s, &v, NULL, NULL, v.L + (1ULL << 61) + 12345, "tsc 2^61 past");
	synth_check_read(&s, &v, NULL, NULL, v.L + (1ULL << 62) + 5, "tsc bit 62");
	/* Bit 63 in the counter: <= 6.4 it is the invalid marker (pass); 6.5+ masks it off. */
	synth_check_read(&s, &v, NULL, NULL, (1ULL << 63) | (v.L + 5000), "tsc bit 63");
	synth_check_read(&s, &v, NULL, NULL, UINT64_MAX, "tsc all ones");
	synth_free(&s);
}
END_TEST

#if FR_HAS_VCLOCK
/* Readings of a pvclock page where the kvmclock value minus cycle_last is each of d[]. */
static void pv_sweep(struct synth *s, struct clockvals v, const struct pvvals *p, uint64_t tsc,
		     const uint64_t *d, size_t n, const char *what)
{
	uint64_t kc;

	ck_assert_int_eq(m_pvclock(tsc, p->tsts, p->sys, p->mul, p->shift, &kc), 1);
	synth_set_pv(s, p);
	for (size_t k = 0; k < n; k++) {
		v.L = kc - d[k];
		synth_set_clock(s, 0, &v);
		synth_check_read(s, &v, p, NULL, tsc, what);
	}
}

/* kvmclock minus cycle_last: ordinary, at and past max_cycles, negative, bit 62, huge. */
static const uint64_t pv_d[] = {
	0, 1, 999999, 4000000000ULL, 0x1cd42e4dffbULL, 0x1cd42e4dffcULL, 1ULL << 42, (1ULL << 61) + 3,
	(uint64_t)-1, (uint64_t)-1000000, (1ULL << 62) + 1, (1ULL << 63) + 1,
};
#define N_PV_D (sizeof(pv_d) / sizeof(pv_d[0]))

START_TEST(pvclock_kvm)
{
	struct synth s;
	struct clockvals v = kvm_clock;
	struct pvvals p = kvm_pv;
	static const uint64_t wrap_d[] = { 8, 9, 10, 11, 12 };

	synth_init(&s, _i);
	pv_sweep(&s, v, &p, p.tsts + 2000000000ULL, pv_d, N_PV_D, "kvm pvclock");
	pv_sweep(&s, v, &p, p.tsts, pv_d, N_PV_D, "kvm pvclock at tsc_timestamp");
	/* B + d * 2^23 wraps at d = 10 when B = 2^64 - 10 * 2^23: every era keeps the low 64 bits. */
	v.B = 0 - (10ULL << 23);
	pv_sweep(&s, v, &p, p.tsts + 777777, wrap_d, 5, "kvm pvclock, B + d*mult wraps");
	/* TSC below tsc_timestamp: kernels disagree (wrap or clamp), so the call passes. */
	v = kvm_clock;
	v.L = p.sys;
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, &p, NULL, p.tsts - 1, "tsc below tsc_timestamp");
	/*
	 * The same with mul 2^29, tsc_shift 0: a wrapping kernel would see sys + (2^64 - 1) * 2^29 / 2^32
	 * = sys + 2^61 - 1, a plausible 1000 past this cycle_last; a clamping one sees sys. Still pass.
	 */
	p.mul = 1u << 29;
	p.shift = 0;
	v.L = p.sys + (1ULL << 61) - 1 - 1000;
	synth_set_pv(&s, &p);
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, &p, NULL, p.tsts - 1, "tsc below tsc_timestamp, small mul");
	p = kvm_pv;
	synth_set_pv(&s, &p);
	/* A kvmclock value with bit 63: the invalid marker <= 6.4, masked from 6.5. */
	p.sys = (1ULL << 63) + 5000000000000ULL;
	pv_sweep(&s, v, &p, p.tsts + 1000, pv_d, 4, "kvm pvclock, bit 63");
	/* cycle_last at or above 2^62 and a positive tsc_shift. */
	p = kvm_pv;
	v.L = (1ULL << 62) + 5;
	synth_set_pv(&s, &p);
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, &p, NULL, p.tsts + 1000, "cycle_last above 2^62");
	p.shift = 1;
	p.mul = 1u << 31;
	pv_sweep(&s, kvm_clock, &p, p.tsts + 123456, pv_d, N_PV_D, "tsc_shift +1");
	synth_free(&s);
}
END_TEST

START_TEST(pvclock_other_mult)
{
	struct synth s;
	struct clockvals v = kvm_clock;
	struct pvvals p = kvm_pv;

	synth_init(&s, _i);
	/* A non-power-of-two mult with shift 22, and a large one with shift 31. */
	v.mult = (1u << 22) + 12345;
	v.shift = 22;
	v.B = 5ULL << 22;
	pv_sweep(&s, v, &p, p.tsts + 3000000000ULL, pv_d, N_PV_D, "pvclock mult 2^22+12345");
	v.mult = 0xfffffff1u;
	v.shift = 31;
	v.B = 999999999ULL << 31;
	pv_sweep(&s, v, &p, p.tsts + 3000000000ULL, pv_d, N_PV_D, "pvclock mult 0xfffffff1");
	/* mult 2^shift with shift >= 32 is not expressible; mult 1, shift 0 is. */
	v.mult = 1;
	v.shift = 0;
	v.B = 999999999ULL;
	pv_sweep(&s, v, &p, p.tsts + 3000000000ULL, pv_d, N_PV_D, "pvclock mult 1 shift 0");
	synth_free(&s);
}
END_TEST
#endif


START_TEST(passes_the_call)
{
	/* None, the first number past the architecture's modes, both namespace markers as a mode. */
	static const uint32_t modes[] = { FR_MODE_NONE, FR_MODE_LAST + 1, 4, 0x7FFFFFFFu, 0xFFFFFFFFu };
	struct synth s;
	struct clockvals v = tsc_clock;

	synth_init(&s, _i);
	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		v.mode = modes[k];
		synth_set_clock(&s, 0, &v);
		synth_check_read(&s, &v, NULL, NULL, v.L + 1000, "mode none/unknown");
	}
	/* A seq that stays odd (writer never finishes): bounded retries, then pass. */
	v = tsc_clock;
	v.seq = 3;
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, NULL, NULL, v.L + 1000, "seq stuck odd, tsc");
#if FR_HAS_VCLOCK
	struct pvvals p = kvm_pv;

	v = kvm_clock;
	v.seq = 5;
	v.L = p.sys;
	synth_set_clock(&s, 0, &v);
	synth_set_pv(&s, &p);
	synth_check_read(&s, &v, &p, NULL, p.tsts + 1000, "seq stuck odd, pvclock");
	/* pvclock: stable bit clear (alone, or with only GUEST_STOPPED), then a version stuck odd. */
	v.seq = 4;
	synth_set_clock(&s, 0, &v);
	for (uint8_t flags = 0; flags < 8; flags++) {
		p.flags = flags;
		synth_set_pv(&s, &p);
		synth_check_read(&s, &v, &p, NULL, p.tsts + 1000, "pvclock flags");
	}
	p = kvm_pv;
	p.version = 0x11;
	synth_set_pv(&s, &p);
	synth_check_read(&s, &v, &p, NULL, p.tsts + 1000, "pvclock version odd");
	/* No pvclock page known: pvclock mode passes instead of touching it. */
	p = kvm_pv;
	synth_set_pv(&s, &p);
	fr_kdata_init(&s.kd, s.kd.lay, s.vvar, NULL);
	synth_check_read(&s, &v, NULL, NULL, p.tsts + 1000, "vclock NULL");
#endif
	synth_free(&s);
}
END_TEST

/* A writer (or hypervisor) bumps *bump by 2 at the first counter read: the read retries with the second. */
static void check_retry(struct synth *s, const struct clockvals *v, const struct pvvals *p,
			const struct nsoff *ns, uint8_t *bump, uint64_t c1, uint64_t c2, const char *what)
{
	struct timespec want, got;
	uint32_t saved;

	ck_assert_int_eq(synth_expect(s->era, v, p, ns, c2, &want), 1);
	memcpy(&saved, bump, sizeof(saved));
	for (int g = 0; g < 2; g++) {
		int r;

		synth_put32(bump, saved);
		synth_ctr_set(c1, c2, bump);
		r = synth_read(s, g, &got);
		ck_assert_msg(r == FR_OK && synth_ctr_calls() >= 2 && got.tv_sec == want.tv_sec && got.tv_nsec == want.tv_nsec,
			      "%s, era %s, %s reading: %d after %u counter reads, {%lld, %ld} != {%lld, %ld}", what,
			      s->era->name, g ? "general" : "fast", r, synth_ctr_calls(), (long long)got.tv_sec,
			      got.tv_nsec, (long long)want.tv_sec, want.tv_nsec);
	}
}

START_TEST(seq_change_retries)
{
	struct synth s;
	struct clockvals v = tsc_clock;

	synth_init(&s, _i);
	synth_set_clock(&s, 0, &v);
	check_retry(&s, &v, NULL, NULL, synth_field(&s, 0, 1, 0), v.L + 1000, v.L + 2000000, "tsc, seq bumped");
#if FR_HAS_VCLOCK
	struct pvvals p = kvm_pv;

	v = kvm_clock;
	v.L = p.sys;
	synth_set_clock(&s, 0, &v);
	synth_set_pv(&s, &p);
	check_retry(&s, &v, &p, NULL, synth_field(&s, 0, 1, 0), p.tsts + 1000, p.tsts + 3000000,
		    "pvclock, seq bumped");
	check_retry(&s, &v, &p, NULL, s.pv, p.tsts + 1000, p.tsts + 3000000, "pvclock, version bumped");
#endif
	synth_free(&s);
}
END_TEST

#if FR_HAS_VCLOCK
/*
 * The clock mode changes at run time (pvclock, then none, then TSC, then pvclock again, each
 * with a new seq as the kernel's writer makes): every call follows the page as it is now. The
 * pvclock page faults while the mode is not pvclock, so a cached pointer use would crash.
 */
START_TEST(mode_flips_between_calls)
{
	struct synth s;
	struct clockvals v = kvm_clock;
	struct pvvals p = kvm_pv;

	synth_init(&s, _i);
	v.L = p.sys;
	synth_set_clock(&s, 0, &v);
	synth_set_pv(&s, &p);
	synth_check_read(&s, &v, &p, NULL, p.tsts + 5000, "pvclock before the flip");
	synth_close_pv(&s);
	v.seq += 2;
	v.mode = FR_MODE_NONE;
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, NULL, NULL, p.tsts + 6000, "flipped to none");
	v = tsc_clock;
	v.seq = 10;
	synth_set_clock(&s, 0, &v);
	synth_check_read(&s, &v, NULL, NULL, v.L + 7000, "flipped to tsc");
	v = kvm_clock;
	v.seq = 12;
	v.L = p.sys;
	synth_set_clock(&s, 0, &v);
	synth_set_pv(&s, &p);
	synth_check_read(&s, &v, &p, NULL, p.tsts + 8000, "back to pvclock");
	synth_free(&s);
}
END_TEST
#else
/* The clock mode changes at run time (archtimer, none, archtimer_nocompat, archtimer): every call follows the page. */
START_TEST(mode_flips_between_calls)
{
	static const uint32_t modes[] = { FR_MODE_COUNTER, FR_MODE_NONE, FR_MODE_COUNTER_ALT, FR_MODE_COUNTER };
	struct synth s;
	struct clockvals v = tsc_clock;

	synth_init(&s, _i);
	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		v.mode = modes[k];
		v.seq += 2;
		v.L += 1000000;
		synth_set_clock(&s, 0, &v);
		synth_check_read(&s, &v, NULL, NULL, v.L + 5000 * (k + 1), "mode flipped");
	}
	synth_free(&s);
}
END_TEST
#endif

START_TEST(time_namespace)
{
	static const struct nsoff offs[] = { { 100000, 123456789 }, { -5000, 999999999 }, { 0, 0 }, { -1, 1 } };
	const struct era *e = &eras[_i];
	struct synth s;
	struct clockvals v = tsc_clock;
#if FR_HAS_VCLOCK
	struct pvvals p = kvm_pv;
#endif

	if (!e->timens_page)
		return;
	synth_init(&s, _i);
	for (size_t k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
		v = tsc_clock;
		v.sec = 1000000;
		synth_close_pv(&s);
		synth_set_timens(&s, &offs[k], e->timens_mode);
		synth_set_clock(&s, e->timens_page, &v);
		synth_check_read(&s, &v, NULL, &offs[k], v.L + 2500000, "timens, tsc");
		synth_check_read(&s, &v, NULL, &offs[k], v.L + 3000000000ULL, "timens, tsc, carry");
		synth_check_read(&s, &v, NULL, &offs[k], v.L - 10, "timens, tsc below cycle_last");
#if FR_HAS_VCLOCK
		v = kvm_clock;
		v.L = p.sys + 1000;
		synth_set_pv(&s, &p);
		synth_set_clock(&s, e->timens_page, &v);
		synth_check_read(&s, &v, &p, &offs[k], p.tsts + 40000000, "timens, pvclock");
		synth_check_read(&s, &v, &p, &offs[k], p.tsts + 4000000000ULL, "timens, pvclock, carry");
#else
		v.mode = SYNTH_OTHER_MODE;
		synth_set_clock(&s, e->timens_page, &v);
		synth_check_read(&s, &v, NULL, &offs[k], v.L + 2500000, "timens, the other counter mode");
#endif
	}
#if FR_HAS_VCLOCK
	/* The real page mid-update forever, with a counter that would give a plausible value: pass. */
	v.seq = 7;
	synth_set_clock(&s, e->timens_page, &v);
	synth_check_read(&s, &v, &p, NULL, p.tsts + 40000000, "timens, real seq stuck odd, pvclock");
	v = tsc_clock;
	v.seq = 9;
	synth_close_pv(&s);
	synth_set_clock(&s, e->timens_page, &v);
	synth_check_read(&s, &v, NULL, NULL, v.L + 2500000, "timens, real seq stuck odd, tsc");
	v = kvm_clock;
	v.L = p.sys + 1000;
	/* Only this era's marker means a namespace: the other one is a page that never settles. */
	v.seq = 8;
	synth_set_clock(&s, e->timens_page, &v);
	synth_set_timens(&s, &offs[0], e->timens_mode ^ 0x80000000u);
	v.seq = 1;
	synth_check_read(&s, &v, &p, NULL, p.tsts + 1000, "timens, the other era's marker");
#else
	v = tsc_clock;
	v.seq = 9;
	synth_set_clock(&s, e->timens_page, &v);
	synth_check_read(&s, &v, NULL, NULL, v.L + 2500000, "timens, real seq stuck odd");
	v.seq = 8;
	synth_set_clock(&s, e->timens_page, &v);
	synth_set_timens(&s, &offs[0], e->timens_mode ^ 0x80000000u);
	v.seq = 1;
	synth_check_read(&s, &v, NULL, NULL, v.L + 1000, "timens, the other era's marker");
#endif
	synth_free(&s);
}
END_TEST

#if FRT_HAS_ERA_BEFORE_NAMESPACES
START_TEST(no_namespace_before_5_6)
{
	/* 5.3 knows no namespaces: seq 1 with the INT_MAX marker is an odd seq that never settles. */
	static const struct nsoff off = { 100, 0 };
	struct synth s;
	struct clockvals v = tsc_clock;

	synth_init(&s, 0);
	ck_assert_str_eq(s.era->name, "5.3");
	for (uint32_t page = 1; page < SYNTH_PAGES; page++)
		synth_set_clock(&s, page, &v);
	synth_set_timens(&s, &off, 0x7FFFFFFFu);
	v.seq = 1;
	synth_check_read(&s, &v, NULL, NULL, v.L + 1000, "5.3 with a namespace-like page");
	synth_free(&s);
}
END_TEST
#endif

START_TEST(random_pages)
{
	uint64_t seed = 0x5eed0000ULL + (uint64_t)_i;
	struct synth s;

	synth_init(&s, _i);
	for (int n = 0; n < 20000; n++) {
		uint64_t r = m_rand(&seed), c;
		struct clockvals v = { .seq = (uint32_t)(r & 0xfffe), .sec = m_rand(&seed) >> 34 };
#if FR_HAS_VCLOCK
		struct pvvals p = { .version = (uint32_t)(r >> 16) & 0xfe, .tsts = m_rand(&seed) >> 2,
				    .sys = m_rand(&seed) >> (r >> 40) % 4, .mul = (uint32_t)m_rand(&seed),
				    .shift = (int8_t)((int)((r >> 24) % 7) - 4), .flags = FR_PV_STABLE_BIT };
#else
		const struct pvvals *pp = NULL;
#endif

		v.shift = (uint32_t)(r >> 32) % 33;
		v.mult = (r & 0x10000) && v.shift < 32 ? 1u << v.shift : (uint32_t)m_rand(&seed) | 1;
		v.B = (r & 0x20000) ? m_rand(&seed) : (m_rand(&seed) % 1000000000ULL) << v.shift;
		v.max = m_rand(&seed) >> (r >> 48) % 40;
		/* TSC first, with the pvclock page faulting; then pvclock. */
#if FR_HAS_VCLOCK
		const struct pvvals *pp = &p;

		if (n >= 10000) {
			uint64_t tsc = p.tsts + (m_rand(&seed) >> (1 + (r >> 52) % 40)), kc = 0;

			v.mode = FR_MODE_PVCLOCK;
			m_pvclock(tsc, p.tsts, p.sys, p.mul, p.shift, &kc);
			v.L = kc - (m_rand(&seed) >> (r >> 56) % 64) + ((r & 0x80000) ? 0 : m_rand(&seed) % 4096);
			c = tsc;
			synth_set_pv(&s, &p);
		} else {
			v.mode = FR_MODE_COUNTER;
			synth_close_pv(&s);
			v.L = m_rand(&seed) >> 1;
			c = v.L + (m_rand(&seed) >> (r >> 56) % 64) - ((r & 0x80000) ? 0 : m_rand(&seed) % 4096);
		}
#else
		/* Both counter modes, a 56-bit or a 64-bit mask, cycle_last and the counter anywhere. */
		v.mode = (r & 0x40000) ? FR_MODE_COUNTER : FR_MODE_COUNTER_ALT;
		v.mask = (r & 0x80000) ? ~0ULL : SYNTH_MASK56;
		v.L = m_rand(&seed) >> ((r >> 8) & 1) * 8;
		c = v.L + (m_rand(&seed) >> (r >> 56) % 64) - ((r & 0x100000) ? 0 : m_rand(&seed) % 4096);
#endif
		synth_set_clock(&s, 0, &v);
		synth_check_read(&s, &v, pp, NULL, c, "random");
	}
	synth_free(&s);
}
END_TEST

static Suite *fastpath_suite(void)
{
	Suite *s = suite_create("fastpath");
	TCase *tc = tcase_create("read");

	tcase_add_loop_test(tc, tsc_deltas, 0, N_ERAS);
#if FR_HAS_VCLOCK
	tcase_add_loop_test(tc, pvclock_kvm, 0, N_ERAS);
	tcase_add_loop_test(tc, pvclock_other_mult, 0, N_ERAS);
#endif
	tcase_add_loop_test(tc, passes_the_call, 0, N_ERAS);
	tcase_add_loop_test(tc, seq_change_retries, 0, N_ERAS);
	tcase_add_loop_test(tc, mode_flips_between_calls, 0, N_ERAS);
	tcase_add_loop_test(tc, time_namespace, 0, N_ERAS);
#if FRT_HAS_ERA_BEFORE_NAMESPACES
	tcase_add_test(tc, no_namespace_before_5_6);
#endif
	tcase_add_loop_test(tc, random_pages, 0, N_ERAS);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, fastpath_hvclock_tcase());
	suite_add_tcase(s, fastpath_masked_tcase());
	return s;
}

int main(void)
{
	return fr_run_suite(fastpath_suite());
}
