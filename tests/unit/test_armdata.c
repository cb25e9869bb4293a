/* SPDX-License-Identifier: MIT */
/* Unit tests of 32-bit ARM's pre-5.5 vdso_data (kdata/armdata.c) and its finder (calib/calib_gtod.c), on synthetic pages: CPU-neutral. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "arch/arch.h"
#include "calib/calib_source.h"
#include "kdata/armdata.h"
#include "kdata/gtod.h"
#include "proc/readable.h"
#include "run_suite.h"

/* The fields of struct vdso_data (arch/arm/include/asm/vdso_datapage.h, 4.1-5.4) a test sets. */
struct av {
	uint32_t seq;
	uint16_t cntvct, shift;
	uint32_t mult;
	uint64_t cycle_last, mask;
	uint32_t sec;      /* xtime_clock_sec and xtime_coarse_sec */
	uint64_t snsec;    /* xtime_clock_snsec; the coarse nsec is snsec >> shift */
	uint32_t wtm_sec, wtm_nsec;
};

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* One page as update_vsyscall leaves it, at the offsets the kernel's struct gives. */
static void build(uint8_t *pg, const struct av *v)
{
	memset(pg, 0, 4096);
	put32(pg + 0, v->seq);
	put16(pg + 4, v->cntvct);
	put16(pg + 6, v->shift);
	put32(pg + 8, v->sec);
	put32(pg + 12, v->shift ? (uint32_t)(v->snsec >> v->shift) : 0);
	put32(pg + 16, v->wtm_sec);
	put32(pg + 20, v->wtm_nsec);
	put32(pg + 24, v->sec);
	put32(pg + 28, v->mult);
	put64(pg + 32, v->cycle_last);
	put64(pg + 40, v->mask);
	put64(pg + 48, v->snsec);
}

static uint8_t page[4096] __attribute__((aligned(4096)));

/*
 * The arch timer of QEMU's virt board at 62.5 MHz as 4.19 registers it: a 56-bit mask, shift 24,
 * mult about 16 ns * 2^24 (NTP-adjusted by a few parts), half a second into second 1700000000.
 */
#define MASK56 ((1ULL << 56) - 1)
static const struct av cntvct = { 42, 1, 24, 268435455, 0x123456789abULL, MASK56, 1700000000u,
				  500000000ULL << 24, 4294u, 123456789u };

START_TEST(read_cntvct)
{
	struct fr_gtod g;
	const char *why;

	build(page, &cntvct);
	why = fr_armdata_read(page, &g);
	ck_assert_msg(why == NULL, "%s", why);
	ck_assert_int_eq(g.era, FR_GTOD_ARM_4_1);
	ck_assert_int_eq(g.tsc, 1);
	ck_assert_uint_eq(g.mult, cntvct.mult);
	ck_assert_uint_eq(g.shift, 24);
	ck_assert_uint_eq(g.cycle_last, cntvct.cycle_last);
	ck_assert_uint_eq(g.mask, MASK56);
	ck_assert_uint_eq(g.rt_sec, 1700000000u);
	ck_assert_uint_eq(g.coarse_nsec, 500000000u);
	ck_assert_str_eq(fr_gtod_era_name(g.era), "arm-4.1-5.4");
	/* A 64-bit counter's mask (later kernels widen it) is the arch timer's too. */
	{
		struct av v = cntvct;

		v.mask = ~0ULL;
		build(page, &v);
		ck_assert_ptr_null(fr_armdata_read(page, &g));
		ck_assert_int_eq(g.tsc, 1);
	}
}
END_TEST

/* tk_is_cntvct 0: the kernel's verdict, with clock fields stale or never written: a layout, tsc 0. */
START_TEST(read_not_cntvct)
{
	struct av v = cntvct;
	struct fr_gtod g;
	const char *why;

	v.cntvct = 0;
	build(page, &v);
	/* Stale clock fields: update_vsyscall stopped writing them, the coarse pair moved on. */
	put32(page + 8, v.sec + 77);
	why = fr_armdata_read(page, &g);
	ck_assert_msg(why == NULL, "%s", why);
	ck_assert_int_eq(g.era, FR_GTOD_ARM_4_1);
	ck_assert_int_eq(g.tsc, 0);
	why = fr_cal_eligible(NULL, &g);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "tk_is_cntvct 0") != NULL, "%s", why);
	/* A page the kernel never updated (no usable counter at boot): all zero. */
	memset(page, 0, sizeof(page));
	ck_assert_ptr_null(fr_armdata_read(page, &g));
	ck_assert_int_eq(g.tsc, 0);
}
END_TEST

START_TEST(read_odd_seq)
{
	struct av v = cntvct;
	struct fr_gtod g;
	const char *why;

	v.seq = 43;
	build(page, &v);
	why = fr_armdata_read(page, &g);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "never settled") != NULL, "%s", why);
	ck_assert_int_eq(g.tsc, 0);
}
END_TEST

/* Pages of another shape or with impossible values: each refused, tsc 0. */
START_TEST(read_implausible)
{
	static const char *const want[] = { "tk_is_cntvct", "nanosecond", "nanosecond", "mult or shift", "mult or shift",
					    "mult or shift", "mask", "mask", "disagree", "disagree", "mult or shift" };
	struct av v = cntvct;
	struct fr_gtod g;
	const char *why;
	int i = _i;

	switch (i) {
	case 0: v.cntvct = 2; break;
	case 1: v.wtm_nsec = 1000000000u; break;
	case 2: v.snsec = 1000000000ULL << 24; break;
	case 3: v.mult = 0; break;
	case 4: v.shift = 0; break;
	case 5: v.shift = 64; break;
	case 6: v.mask = 0xffffffffULL; break;
	case 7: v.mask = MASK56 - 1; break;
	default: break;
	}
	build(page, &v);
	if (i == 8)
		put32(page + 8, v.sec + 1);
	if (i == 9)
		put32(page + 12, (uint32_t)(v.snsec >> 24) + 1);
	if (i == 10) {
		/*
		 * 5.5's generic vdso_data with the arch timer: seq, then clock_mode 1 as an s32, so the
		 * u16 at +6 (cs_shift here) is 0.
		 */
		memset(page, 0, sizeof(page));
		put32(page + 0, 42);
		put32(page + 4, 1);
		put64(page + 8, cntvct.cycle_last);
		put64(page + 16, MASK56);
		put32(page + 24, cntvct.mult);
		put32(page + 28, 24);
	}
	why = fr_armdata_read(page, &g);
	ck_assert_msg(why && strstr(why, want[i]), "case %d: %s, want \"%s\"", i, why ? why : "accepted", want[i]);
	ck_assert_int_eq(g.tsc, 0);
}
END_TEST

/* Random pages: none is taken for the layout with tk_is_cntvct 1. */
START_TEST(read_garbage)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int accepted = 0;

	for (int n = 0; n < 2000; n++) {
		struct fr_gtod g;

		for (size_t k = 0; k < 64; k += 8) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memcpy(page + k, &x, 8);
		}
		page[0] &= 0xfe; /* an even seq: the checks, not the seqcount, must refuse */
		if (!fr_armdata_read(page, &g) && g.tsc)
			accepted++;
	}
	ck_assert_int_eq(accepted, 0);
	ck_assert_ptr_nonnull(fr_armdata_read(NULL, &(struct fr_gtod){ 0 }));
}
END_TEST

/*
 * A writer following the kernel's protocol against the reader: every accepted read is one whole
 * update. Update n writes cycle_last n in both halves, mult n | 1, shift 1 + n % 31, and a base
 * of n s + (n % 1000) ns with its coarse copy.
 */
static uint8_t race_page[4096] __attribute__((aligned(4096)));
static int race_stop;

static void *race_writer(void *arg)
{
	volatile uint8_t *p = race_page;
	uint32_t seq = 0;

	(void)arg;
	for (uint32_t n = 1; !__atomic_load_n(&race_stop, __ATOMIC_RELAXED); n++) {
		uint32_t shift = 1 + n % 31;

		*(volatile uint32_t *)p = ++seq;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		*(volatile uint16_t *)(p + 6) = (uint16_t)shift;
		*(volatile uint32_t *)(p + 8) = n;
		*(volatile uint32_t *)(p + 12) = n % 1000;
		*(volatile uint32_t *)(p + 24) = n;
		*(volatile uint32_t *)(p + 28) = n | 1;
		*(volatile uint64_t *)(p + 32) = (uint64_t)n << 32 | n;
		*(volatile uint64_t *)(p + 48) = (uint64_t)(n % 1000) << shift;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		*(volatile uint32_t *)p = ++seq;
	}
	return NULL;
}

START_TEST(read_concurrent_writer)
{
	struct av v = { 0, 1, 1, 1, 0, ~0ULL, 0, 0, 0, 0 };
	pthread_t t;
	int settled = 0, unsettled = 0;

	build(race_page, &v);
	ck_assert_int_eq(pthread_create(&t, NULL, race_writer, NULL), 0);
	for (int i = 0; i < 100000; i++) {
		struct fr_gtod g;
		const char *why = fr_armdata_read(race_page, &g);
		uint32_t lo = (uint32_t)g.cycle_last;

		/* Test, then assert: each Check assertion records a mark point, slow under emulation. */
		if (why) {
			if (!strstr(why, "never settled"))
				ck_abort_msg("read %d: %s", i, why);
			unsettled++;
			continue;
		}
		settled++;
		if (!((g.cycle_last >> 32) == lo && g.mult == (lo | 1) && g.shift == 1 + lo % 31 && g.rt_sec == lo && g.tsc))
			ck_abort_msg("torn read %d: cycle_last %#llx mult %u shift %u", i, (unsigned long long)g.cycle_last,
				     g.mult, g.shift);
	}
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	ck_assert_msg(settled > 0, "no read settled (%d did not)", unsettled);
}
END_TEST

/* The finder's seams: the exports of a synthetic vDSO (a list of names) and readability. */
static const char *const *exports;

static void *fake_sym(const void *vdso, const char *name, const char *version)
{
	(void)version;
	for (const char *const *e = exports; e && *e; e++) {
		if (!strcmp(*e, name))
			return (void *)vdso;
	}
	return NULL;
}

static int always_readable(const volatile void *p)
{
	(void)p;
	return 1;
}

static const char *const pre55[] = { "__vdso_clock_gettime", "__vdso_gettimeofday", NULL };
static const char *const nulled[] = { "__vdso_gettimeofday", NULL };
static const char *const gen55[] = { "__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_clock_getres",
				     "__vdso_clock_gettime64", NULL };
static const char *const gen55_no_getres[] = { "__vdso_clock_gettime", "__vdso_gettimeofday",
					       "__vdso_clock_gettime64", NULL };

/* Two pages, [vvar] then the (fake) [vdso], as arch/arm/kernel/vdso.c maps them. */
static uint8_t *pair(void)
{
	uint8_t *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	build(p, &cntvct);
	return p;
}

static const char *find(const char *const *ex, const uint8_t *vvar, const uint8_t *vdso, int (*readable)(const volatile void *),
			struct fr_gtod *g)
{
	const struct fr_armdata_where w = { .vdso = vdso, .vvar = vvar, .sym = fake_sym, .readable = readable };

	exports = ex;
	return fr_cal_armdata(&w, g);
}

START_TEST(find_by_exports)
{
	uint8_t *p = pair();
	struct fr_gtod g;
	const char *why;

	why = find(pre55, p, p + 4096, always_readable, &g);
	ck_assert_msg(why == NULL, "%s", why);
	ck_assert_int_eq(g.era, FR_GTOD_ARM_4_1);
	ck_assert_int_eq(g.tsc, 1);
	ck_assert_uint_eq(g.mult, cntvct.mult);

	why = find(gen55, p, p + 4096, always_readable, &g);
	ck_assert_msg(why && strstr(why, "5.5"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
	why = find(gen55_no_getres, p, p + 4096, always_readable, &g);
	ck_assert_msg(why && strstr(why, "5.5"), "%s", why ? why : "accepted");
	why = find(nulled, p, p + 4096, always_readable, &g);
	ck_assert_msg(why && strstr(why, "no __vdso_clock_gettime"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
	why = find(pre55, NULL, p + 4096, always_readable, &g);
	ck_assert_msg(why && strstr(why, "directly below"), "%s", why ? why : "accepted");
	/* A [vvar] not adjacent to [vdso] is not this kernel's. */
	why = find(pre55, p, p + 4096 + 64, always_readable, &g);
	ck_assert_msg(why && strstr(why, "directly below"), "%s", why ? why : "accepted");
	why = find(pre55, p, NULL, always_readable, &g);
	ck_assert_msg(why && strstr(why, "no vDSO"), "%s", why ? why : "accepted");
	ck_assert_int_eq(munmap(p, 8192), 0);
}
END_TEST

/* A [vvar] that faults when read is asked about, not read: refused, no signal. */
START_TEST(find_unreadable)
{
	uint8_t *p = pair();
	struct fr_gtod g;
	const char *why;

	ck_assert_int_eq(mprotect(p, 4096, PROT_NONE), 0);
	why = find(pre55, p, p + 4096, fr_readable, &g);
	ck_assert_msg(why && strstr(why, "cannot be read"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
	ck_assert_int_eq(munmap(p, 8192), 0);
}
END_TEST

/* The seed from the page: its mult/shift in 32.32, and the debug line's source. */
START_TEST(seed_from_page)
{
	struct fr_cal_seed seed;
	struct fr_gtod g;

	build(page, &cntvct);
	ck_assert_ptr_null(fr_armdata_read(page, &g));
	fr_cal_seed_choose(NULL, 0, &g, &seed);
	ck_assert_str_eq(seed.source, "kernel vdso_data mult (arm-4.1-5.4 layout)");
	ck_assert_uint_eq(seed.kmult, cntvct.mult);
	ck_assert_uint_eq(seed.kshift, 24);
	ck_assert_uint_eq(seed.mult, (uint64_t)cntvct.mult << 8);
}
END_TEST

START_TEST(era_for_release)
{
	static const struct {
		const char *release;
		int arm;
	} cases[] = {
		{ "4.1.0", 1 },        { "4.9.65-rt23", 1 },   { "4.19.108", 1 },  { "4.20.17", 1 },
		{ "5.4.83-v7l+", 1 },  { "5.4", 1 },           { "4.0.9", 0 },     { "3.18.140", 0 },
		{ "5.5.0", 0 },        { "6.1.0-28-armmp", 0 }, { "5.10.0", 0 },   { "", 0 },
	};

	/* Only a 32-bit ARM build gives the layout by number; no other build ever does. */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int era = fr_gtod_era_for_release(cases[i].release);

		if (FR_ARCH_OLD_DATA == FR_OLD_DATA_ARM)
			ck_assert_msg(era == (cases[i].arm ? FR_GTOD_ARM_4_1 : -1), "\"%s\": %d", cases[i].release, era);
		else
			ck_assert_msg(era != FR_GTOD_ARM_4_1, "\"%s\": the arm layout", cases[i].release);
	}
}
END_TEST

static Suite *armdata_suite(void)
{
	Suite *s = suite_create("armdata");
	TCase *tc = tcase_create("page");

	tcase_add_test(tc, read_cntvct);
	tcase_add_test(tc, read_not_cntvct);
	tcase_add_test(tc, read_odd_seq);
	tcase_add_loop_test(tc, read_implausible, 0, 11);
	tcase_add_test(tc, read_garbage);
	tcase_add_test(tc, read_concurrent_writer);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);

	tc = tcase_create("find");
	tcase_add_test(tc, find_by_exports);
	tcase_add_test(tc, find_unreadable);
	tcase_add_test(tc, seed_from_page);
	tcase_add_test(tc, era_for_release);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(armdata_suite());
}
