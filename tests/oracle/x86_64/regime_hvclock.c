/* SPDX-License-Identifier: MIT */
/* Oracle regime 6: a synthetic Hyper-V TSC page and clock mode 3 fed to the kernel's hvclock reader, against ours. */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>

#include "math/rawmath.h"
#include "values.h"
#include "regimes.h"
#include "compare.h"

/*
 * Hyper-V reference time counts 100 ns units: the clocksource registers at 10 MHz, which gives
 * mult 100 << 24, shift 24 (clocks_calc_mult_shift); max_cycles keeps delta * mult below 2^64.
 */
static const struct orun_clock hv_clock = {
	.max_cycles = 0x23d70a3d7ULL, .mult = 100u << 24, .shift = 24, .sec = 50000, .nsec = 987654321ULL << 24,
};

/* A 2.5 GHz TSC: scale 2^64 / 250; the offset makes reference time start near 0 at TSC 2^44. */
static const struct orun_hv hv_page = { .sequence = 1, .scale = 0x010624dd2f1a9fbeULL, .offset = (uint64_t)-70368744177ULL };

static uint64_t ref(const struct orun_hv *h, uint64_t tsc)
{
	return fr_hvclock_cycles(&(struct fr_hvclock_vals){ h->scale, h->offset }, tsc);
}

/* Mode 3 on data page `page` with cycle_last at the reference time of tsc. */
static void hv_set(unsigned page, const struct orun_hv *h, uint64_t tsc)
{
	struct orun_clock c = hv_clock;

	orun_set_hv(h);
	c.cycle_last = ref(h, tsc) & FR_S64_MAX;
	orun_set_clock(page, FR_MODE_HVCLOCK, &c);
}

/* Regimes 6e/6f: the hypervisor rewrites the page (new sequence, scale, offset) at the first read. */
static struct orun_hv bump_from, bump_to;

static void hv_before(void)
{
	orun_set_hv(&bump_from);
}

static void hv_on_read(unsigned n)
{
	if (n == 0)
		orun_set_hv(&bump_to);
}

/* Where the reference time of tsc lands against cycle_last of page 0's RAW entry. */
struct hv_classes {
	unsigned normal, negative, over_max, bit63;
};

static void classify(struct hv_classes *cl, uint64_t tsc)
{
	struct orun_clock c;
	struct orun_hv h;
	uint64_t r, d;

	orun_get_clock(0, &c);
	orun_get_hv(&h);
	r = ref(&h, tsc);
	cl->bit63 += r >> 63;
	d = (r & FR_S64_MAX) - c.cycle_last;
	if (d & FR_BIT62)
		cl->negative++;
	else if (d <= c.max_cycles)
		cl->normal++;
	else
		cl->over_max++;
}

static void print_classes(const char *name, const struct hv_classes *cl)
{
	printf("oracle: %-44s reference time - cycle_last: normal=%u negative=%u over-max_cycles=%u; "
	       "reference time with bit 63 set=%u\n", name, cl->normal, cl->negative, cl->over_max, cl->bit63);
}

START_TEST(regime6_hvclock)
{
	const uint64_t tsc0 = (1ULL << 44) + 123456789;
	struct orun_tally t;
	struct hv_classes cl = { 0 };
	struct orun_hv h;
	int ok = 1;

	if (!oracle_ready("6 (hvclock, synthetic Hyper-V TSC page)"))
		return;
	orun_reset_pages();
	hv_set(0, &hv_page, tsc0);
	if (!oracle_has_reader("6 (hvclock, synthetic Hyper-V TSC page)", "the Hyper-V TSC page (CONFIG_HYPERV_TIMER off)",
			       tsc0 + 1000))
		return;
	orng_seed(6);
	vcopy_set_carry_shortcut(&orun_vc, 1);
	orun_begin(&t, "6a hvclock tsc around cycle_last's", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		uint64_t tsc = tsc0 - (1ULL << 38) + orng_below(1ULL << 44);

		classify(&cl, tsc);
		orun_one(&t, tsc);
	}
	ok &= orun_end(&t);
	print_classes(t.name, &cl);
	ok &= cl.normal > 0 && cl.negative > 0 && (cl.over_max > 0 || orun_kd.lay->rules != FR_RULES_6_10);
	/* Large scale and offset, any clock: values with bit 63 set are masked (6.5+) or invalid (before). */
	cl = (struct hv_classes){ 0 };
	orun_begin(&t, "6b hvclock random scale/offset/clock, any tsc", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		struct orun_clock c = ogen_random_clock();
		uint64_t tsc = i % 3 ? orng_rand() : orng_mag(64);

		h = (struct orun_hv){ (uint32_t)orng_rand() | 1, i % 2 ? orng_rand() : orng_mag(64), orng_rand() };
		orun_set_hv(&h);
		c.cycle_last = (ref(&h, tsc) & FR_S64_MAX) - orng_mag(62) + orng_mag(40);
		orun_set_clock(0, FR_MODE_HVCLOCK, &c);
		classify(&cl, tsc);
		orun_one(&t, tsc);
	}
	ok &= orun_end(&t);
	print_classes(t.name, &cl);
	ok &= cl.bit63 > 0;
	/* TSC with bit 63 set (the whole TSC is multiplied) and reference times across bit 63. */
	cl = (struct hv_classes){ 0 };
	orun_begin(&t, "6c hvclock tsc with bit 63 set", ORUN_COMPUTE);
	for (int i = 0; i < ORUN_N; i++) {
		uint64_t tsc = (1ULL << 63) | orng_rand();

		h = hv_page;
		h.offset = 0;
		h.offset = (1ULL << 63) - ref(&h, tsc) + orng_below(1ULL << 34) - (1ULL << 33);
		hv_set(0, &h, tsc - orng_below(1ULL << 36));
		classify(&cl, tsc);
		orun_one(&t, tsc);
	}
	ok &= orun_end(&t);
	print_classes(t.name, &cl);
	ok &= cl.bit63 > 0 && cl.bit63 < t.n;
	/* Sequence 0: the page is invalid; the kernel makes its system call, ours passes. */
	orun_begin(&t, "6d hvclock sequence 0 (invalid page)", ORUN_FALLBACK);
	h = hv_page;
	h.sequence = 0;
	for (int i = 0; i < ORUN_N / 10; i++) {
		hv_set(0, &h, tsc0);
		orun_one(&t, tsc0 + orng_below(1ULL << 40));
	}
	ok &= orun_end(&t);
	/* The sequence changes at the counter read: both retry with the new page and the second value. */
	orun_begin(&t, "6e hvclock sequence changed at the counter read", ORUN_COMPUTE);
	t.reads = 2;
	orun_set_hooks(hv_before, hv_on_read);
	for (int i = 0; i < ORUN_N; i++) {
		uint64_t tsc = tsc0 + orng_below(1ULL << 36);

		bump_from = hv_page;
		bump_from.sequence = (uint32_t)orng_rand() | 1;
		bump_to = bump_from;
		bump_to.sequence = bump_from.sequence + 1 + (uint32_t)orng_below(1000);
		bump_to.scale = hv_page.scale + orng_below(1ULL << 40);
		bump_to.offset = hv_page.offset + orng_below(1ULL << 30);
		hv_set(0, &bump_to, tsc0);
		orun_one2(&t, tsc, tsc + orng_below(1ULL << 32));
	}
	ok &= orun_end(&t);
	/* The sequence changes to 0 at the counter read: the retry finds the page invalid. */
	orun_begin(&t, "6f hvclock sequence changed to 0 at the read", ORUN_FALLBACK);
	for (int i = 0; i < ORUN_N / 10; i++) {
		bump_from = hv_page;
		bump_to = hv_page;
		bump_to.sequence = 0;
		hv_set(0, &hv_page, tsc0);
		orun_one2(&t, tsc0 + orng_below(1ULL << 36), tsc0 + (1ULL << 37));
	}
	orun_set_hooks(NULL, NULL);
	ok &= orun_end(&t);
	if (orun_timens_page()) {
		uint64_t sec, nsec;

		orun_reset_pages();
		orun_begin(&t, "6g hvclock in a time namespace, random offsets", ORUN_COMPUTE);
		for (int i = 0; i < ORUN_N; i++) {
			uint64_t tsc = tsc0 - (1ULL << 38) + orng_below(1ULL << 44);

			ogen_offset(&sec, &nsec);
			orun_set_timens(sec, nsec);
			hv_set(orun_timens_page(), &hv_page, tsc0);
			orun_one(&t, tsc);
		}
		ok &= orun_end(&t);
	}
	orun_reset_pages();
	ck_assert_msg(ok, "regime 6: the kernel's hvclock reader and ours disagree (see the lines above)");
}
END_TEST

void oracle_add_hvclock(TCase *tc)
{
	tcase_add_test(tc, regime6_hvclock);
}
