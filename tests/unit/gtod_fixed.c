/* SPDX-License-Identifier: MIT */
/* Unit tests of 3.10's fixed-address gtod page: read only where a vDSO image's own code and a successful call prove it mapped. */
#include <check.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/utsname.h>

#include "arch/arch.h"
#include "calib/calib_source.h"
#include "elf/vdso_elf.h"
#include "kdata/gtod.h"
#include "gtod_pages.h"

static uint8_t page[4096] __attribute__((aligned(4096)));

/* A TSC clocksource of about 2.096 GHz, and RHEL 7's two paravirtual modes. */
static const struct gv tsc = { 42, 1, 0x0001234567890abcULL, ~0ULL, 8004479, 24 };
static const struct gv pvclock = { 42, 3, 0x0001234567890abcULL, ~0ULL, 1u << 22, 22 };
static const struct gv hvclock = { 42, 4, 0x0001234567890abcULL, ~0ULL, 2147483648u, 24 };

/*
 * What 3.10's __vdso_clock_gettime does first for CLOCK_MONOTONIC, as absolute loads from
 * VVAR_ADDRESS + 128 (vsyscall_gtod_data): seq (+0), vclock_mode (+8), monotonic_time_sec (+64),
 * monotonic_time_snsec (+56); then ret.
 */
static const uint8_t code_310[] = {
	0x8b, 0x04, 0x25, 0x80, 0xf0, 0x5f, 0xff,       /* mov 0xffffffffff5ff080,%eax */
	0x8b, 0x14, 0x25, 0x88, 0xf0, 0x5f, 0xff,       /* mov 0xffffffffff5ff088,%edx */
	0x48, 0x8b, 0x0c, 0x25, 0xc0, 0xf0, 0x5f, 0xff, /* mov 0xffffffffff5ff0c0,%rcx */
	0x48, 0x8b, 0x34, 0x25, 0xb8, 0xf0, 0x5f, 0xff, /* mov 0xffffffffff5ff0b8,%rsi */
	0xc3,
};
/* The same loads without seq's. */
static const uint8_t code_no_seq[] = {
	0x8b, 0x14, 0x25, 0x88, 0xf0, 0x5f, 0xff, 0x48, 0x8b, 0x0c, 0x25, 0xc0, 0xf0, 0x5f, 0xff, 0xc3,
};
/* Absolute loads outside the gtod data: jiffies (+0), vgetcpu_mode (+16), the vsyscall page. */
static const uint8_t code_elsewhere[] = {
	0x48, 0x8b, 0x04, 0x25, 0x00, 0xf0, 0x5f, 0xff, 0x8b, 0x04, 0x25, 0x10, 0xf0, 0x5f, 0xff,
	0x8b, 0x04, 0x25, 0x00, 0x00, 0x60, 0xff, 0xc3,
};
/* seq and mode loaded RIP-relative, as every later vDSO addresses its data: no absolute operand. */
static const uint8_t code_riprel[] = {
	0x8b, 0x05, 0x80, 0xf0, 0x5f, 0xff, 0x8b, 0x15, 0x88, 0xf0, 0x5f, 0xff, 0xc3,
};

/* The call seam: records what it was asked to run, answers with call_result. */
static int calls, call_result;
static void *called;

static int fake_call(void *fn)
{
	calls++;
	called = fn;
	return call_result;
}

/* A copy of this process's vDSO image in writable memory, and its clock_gettime's code there. */
struct image {
	uint8_t *base;
	size_t len;
	uint8_t *fn;
	size_t fn_size;
};

static int image_copy(struct image *im, const char *test)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct fr_elfsyms s;
	long i;

	memset(im, 0, sizeof(*im));
	if (!eh || !FR_GTOD_FIXED_PAGE) {
		printf("SKIP: %s: %s\n", test, eh ? "no kernel of this CPU has a fixed gtod page" : "no vDSO (AT_SYSINFO_EHDR 0)");
		return 0;
	}
	im->len = ((size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize + 4095) & ~(size_t)4095;
	im->base = mmap(NULL, im->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(im->base, MAP_FAILED);
	memcpy(im->base, eh, im->len);
	ck_assert_int_eq(fr_vdso_open(im->base, &s), 0);
	i = fr_elfsyms_find(&s, FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION);
	ck_assert_int_ge(i, 0);
	im->fn = (uint8_t *)(s.bias + s.symtab[i].st_value);
	im->fn_size = s.symtab[i].st_size;
	ck_assert_msg(im->fn_size >= 64 && im->fn + im->fn_size + 64 <= im->base + im->len,
		      "clock_gettime too small or at the image's end (%zu bytes)", im->fn_size);
	/* No absolute operand of any kind is left in the function: ud2 all over. */
	for (size_t k = 0; k + 1 < im->fn_size; k += 2) {
		im->fn[k] = 0x0f;
		im->fn[k + 1] = 0x0b;
	}
	return 1;
}

/* A page that faults when read: the refusals must leave it untouched. */
static const volatile uint8_t *trap_page(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static const char *probe(const struct image *im, const volatile uint8_t *pg, int result, struct fr_gtod *g)
{
	const struct fr_gtod_fixed f = { .vdso = im->base, .page = pg, .call = fake_call };

	calls = 0;
	called = NULL;
	call_result = result;
	return fr_cal_gtod_fixed(&f, g);
}

/* The proof and a page of either 3.10 layout: read as the page holds it, the function called once. */
START_TEST(proven_page_read)
{
	static const enum fr_gtod_era shapes[] = { FR_GTOD_3_10, FR_GTOD_3_10_DEBUG };
	struct image im;
	struct fr_gtod g;
	const char *why;

	if (!image_copy(&im, "proven_page_read"))
		return;
	memcpy(im.fn, code_310, sizeof(code_310));
	for (size_t k = 0; k < 2; k++) {
		gtod_build_at(page, shapes[k], &tsc, &gtod_time_now);
		why = probe(&im, page, 0, &g);
		ck_assert_msg(why == NULL, "%s page: %s", fr_gtod_era_name(shapes[k]), why);
		ck_assert_int_eq(calls, 1);
		ck_assert_ptr_eq(called, im.fn);
		ck_assert_int_eq(g.era, shapes[k]);
		ck_assert_msg(g.tsc && g.mult == tsc.mult && g.shift == tsc.shift && g.cycle_last == tsc.cycle_last,
			      "%s: mode %u mult %u shift %u", fr_gtod_era_name(shapes[k]), g.mode, g.mult, g.shift);
	}
	munmap(im.base, im.len);
}
END_TEST

/* Without the proof the address is never read, and the vDSO is called only once the code is right. */
START_TEST(unproven_page_untouched)
{
	static const struct {
		const uint8_t *code;
		size_t len;
		int past_end; /* placed right after the function instead of in it */
		int result;
		const char *why;
		int calls;
	} cases[] = {
		{ NULL, 0, 0, 0, "does not address", 0 },
		{ code_no_seq, sizeof(code_no_seq), 0, 0, "does not address", 0 },
		{ code_elsewhere, sizeof(code_elsewhere), 0, 0, "does not address", 0 },
		{ code_riprel, sizeof(code_riprel), 0, 0, "does not address", 0 },
		{ code_310, sizeof(code_310), 1, 0, "does not address", 0 },
		{ code_310, sizeof(code_310), 0, -ENOSYS, "CLOCK_MONOTONIC failed", 1 },
		{ code_310, sizeof(code_310), 0, -EPERM, "CLOCK_MONOTONIC failed", 1 },
	};
	const volatile uint8_t *trap = trap_page();
	struct image im;
	struct fr_gtod g;

	if (!image_copy(&im, "unproven_page_untouched"))
		return;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint8_t *at = cases[c].past_end ? im.fn + im.fn_size : im.fn;
		uint8_t saved[64];
		const char *why;

		memcpy(saved, at, sizeof(saved));
		if (cases[c].code)
			memcpy(at, cases[c].code, cases[c].len);
		why = probe(&im, trap, cases[c].result, &g);
		ck_assert_msg(why && strstr(why, cases[c].why), "case %zu: %s, want \"%s\"", c, why ? why : "accepted",
			      cases[c].why);
		ck_assert_int_eq(calls, cases[c].calls);
		ck_assert_int_eq(g.tsc, 0);
		memcpy(at, saved, sizeof(saved));
	}
	munmap(im.base, im.len);
	/* No image at all, or one the program has unmapped: nothing read, nothing called. */
	{
		const struct fr_gtod_fixed none = { .vdso = NULL, .page = trap, .call = fake_call };
		const struct fr_gtod_fixed gone = { .vdso = im.base, .page = trap, .call = fake_call };

		calls = 0;
		ck_assert_ptr_nonnull(fr_cal_gtod_fixed(&none, &g));
		ck_assert_ptr_nonnull(fr_cal_gtod_fixed(&gone, &g));
		ck_assert_int_eq(calls, 0);
	}
	munmap((void *)(uintptr_t)trap, 4096);
}
END_TEST

/* Proven, but the page is of no 3.10 layout (or its seq never settles): refused, never tsc. */
START_TEST(proven_page_refused)
{
	struct image im;
	struct fr_gtod g;
	struct gv odd = tsc;
	const char *why;

	if (!image_copy(&im, "proven_page_refused"))
		return;
	memcpy(im.fn, code_310, sizeof(code_310));
	gtod_build_at(page, FR_GTOD_4_X, &tsc, &gtod_time_now);
	why = probe(&im, page, 0, &g);
	ck_assert_msg(why != NULL && !g.tsc, "a 3.16-4.19 page accepted at the fixed address as %s", fr_gtod_era_name(g.era));
	gtod_build_at(page, FR_GTOD_4_20, &tsc, &gtod_time_now);
	ck_assert_ptr_nonnull(probe(&im, page, 0, &g));
	memset(page, 0xa5, sizeof(page));
	memset(page + 128, 0, 4);
	ck_assert_ptr_nonnull(probe(&im, page, 0, &g));
	/*
	 * A debug kernel with CONFIG_LOCK_STAT too: its lockdep_map ends with cpu and ip, so the
	 * seqcount is 56 bytes and every field 16 further than in the 40-byte variant. Neither 3.10
	 * layout fits; the page is refused, not misread.
	 */
	for (int cpu = 0; cpu < 3; cpu++) {
		uint8_t debug[4096];
		const uint64_t ip = 0xffffffff810c4a3eULL;

		gtod_build_at(debug, FR_GTOD_3_10_DEBUG, &tsc, &gtod_time_now);
		memcpy(page, debug, 128 + 40);
		memset(page + 128 + 40, 0, 8);
		memcpy(page + 128 + 40, &cpu, sizeof(cpu));
		memcpy(page + 128 + 48, &ip, sizeof(ip));
		memcpy(page + 128 + 56, debug + 128 + 40, 4096 - 128 - 56);
		why = probe(&im, page, 0, &g);
		ck_assert_msg(why != NULL && !g.tsc, "a lock-stat page (cpu %d) accepted as %s", cpu, fr_gtod_era_name(g.era));
	}
	odd.seq = 43;
	gtod_build_at(page, FR_GTOD_3_10, &odd, &gtod_time_now);
	why = probe(&im, page, 0, &g);
	ck_assert_msg(why && strstr(why, "never settled"), "%s", why ? why : "accepted");
	ck_assert_int_eq(g.tsc, 0);
	munmap(im.base, im.len);
}
END_TEST

/*
 * The kernel's verdict seeds as on 4.x: clock mode TSC gives the page's mult and names the 3.10
 * layout; PVCLOCK and HVCLOCK are read but not TSC, so the seed comes from elsewhere.
 */
START_TEST(seed_from_page)
{
	static const struct {
		enum fr_gtod_era shape;
		const struct gv *v;
		const char *source; /* NULL: not the page's */
	} cases[] = {
		{ FR_GTOD_3_10, &tsc, "kernel gtod mult (3.10 layout)" },
		{ FR_GTOD_3_10_DEBUG, &tsc, "kernel gtod mult (3.10-debug layout)" },
		{ FR_GTOD_3_10, &pvclock, NULL },
		{ FR_GTOD_3_10, &hvclock, NULL },
		{ FR_GTOD_3_10_DEBUG, &hvclock, NULL },
	};
	struct image im;

	if (!image_copy(&im, "seed_from_page"))
		return;
	memcpy(im.fn, code_310, sizeof(code_310));
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct fr_gtod g;
		struct fr_cal_seed seed;
		const char *why;

		gtod_build_at(page, cases[c].shape, cases[c].v, &gtod_time_now);
		why = probe(&im, page, 0, &g);
		ck_assert_msg(why == NULL, "case %zu: %s", c, why);
		ck_assert_uint_eq(g.mode, cases[c].v->mode);
		ck_assert_int_eq(g.tsc, cases[c].source != NULL);
		fr_cal_seed_choose(NULL, 0, &g, &seed);
		if (cases[c].source) {
			ck_assert_str_eq(seed.source, cases[c].source);
			ck_assert_uint_eq(seed.kmult, cases[c].v->mult);
			ck_assert_uint_eq(seed.kshift, cases[c].v->shift);
		} else {
			ck_assert_msg(strstr(seed.source, "gtod") == NULL, "case %zu: seeded from a mode-%u page: %s", c,
				      cases[c].v->mode, seed.source);
		}
	}
	munmap(im.base, im.len);
}
END_TEST

/* The scan itself: every absolute [disp32] form counts, RIP-relative and other addresses do not. */
START_TEST(abs_refs_scan)
{
	const uint64_t lo = FR_GTOD_FIXED_PAGE + 128;
	unsigned at;

	if (!FR_GTOD_FIXED_PAGE) {
		printf("SKIP: abs_refs_scan: no kernel of this CPU has a fixed gtod page\n");
		return;
	}
	ck_assert_uint_eq(fr_arch_abs_refs(code_310, sizeof(code_310), lo, lo + 144, &at), 4);
	ck_assert_uint_eq(at, 1);
	ck_assert_uint_eq(fr_arch_abs_refs(code_no_seq, sizeof(code_no_seq), lo, lo + 144, &at), 2);
	ck_assert_uint_eq(at, 0);
	ck_assert_uint_eq(fr_arch_abs_refs(code_elsewhere, sizeof(code_elsewhere), lo, lo + 144, &at), 0);
	ck_assert_uint_eq(fr_arch_abs_refs(code_elsewhere, sizeof(code_elsewhere), lo - 128, lo + 144, &at), 2);
	ck_assert_uint_eq(fr_arch_abs_refs(code_riprel, sizeof(code_riprel), lo, lo + 144, &at), 0);
	/* A load cut off by the end of the range is not counted. */
	ck_assert_uint_eq(fr_arch_abs_refs(code_310, 6, lo, lo + 144, &at), 0);
	ck_assert_uint_eq(fr_arch_abs_refs(code_310, 7, lo, lo + 144, &at), 1);
}
END_TEST

/*
 * The live kernel, told it is 3.10: on any other kernel its vDSO does not address the fixed
 * page, so the address is never read (a fault would end this test); on a 3.10 kernel the page
 * reads in a 3.10 layout.
 */
START_TEST(live_never_faults)
{
	struct fr_gtod g;
	struct utsname u;
	int r = fr_cal_gtod("3.10.0-1160.el7.x86_64", &g);

	ck_assert_int_eq(uname(&u), 0);
	if (fr_gtod_era_for_release(u.release) != FR_GTOD_3_10)
		ck_assert_msg(r == -1, "a %s kernel's page read as 3.10's fixed page", u.release);
	else if (r == 0)
		ck_assert_msg(g.era == FR_GTOD_3_10 || g.era == FR_GTOD_3_10_DEBUG, "era %d", g.era);
	ck_assert_int_eq(fr_cal_gtod("2.6.32-754.el6.x86_64", &g), -1);
}
END_TEST

TCase *gtod_fixed_tcase(void)
{
	TCase *tc = tcase_create("fixed");

	tcase_add_test(tc, proven_page_read);
	tcase_add_test(tc, unproven_page_untouched);
	tcase_add_test(tc, proven_page_refused);
	tcase_add_test(tc, seed_from_page);
	tcase_add_test(tc, abs_refs_scan);
	tcase_add_test(tc, live_never_faults);
	return tc;
}
