/* SPDX-License-Identifier: MIT */
/* Runs one TSC value through the patched vDSO copy and through fr_raw_read_with / fr_raw_read_general_with, and tallies. */
#define _GNU_SOURCE
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/rawmath.h"
#include "exact/fastpath.h"
#include "../our_reads.h"

#define MAX_REPORTS 5

struct vcopy orun_vc;
struct fr_kdata orun_kd;
struct orun_summary *orun_sum;
int orun_pv_live;

/* The pvclock regimes' baseline data page and pvclock page (live or synthetic). */
static uint8_t base_page[VC_PAGE], base_pv[VC_PAGE];
static void (*hook_before)(void);
static vc_read_hook hook_read;

/*
 * A kvm-clock snapshot as this project's kvm-clock hosts show it (docs/kernel-data.md §1.2): a
 * 1 GHz clocksource (mult 2^23, shift 23, max_cycles 0x1cd42e4dffb) over a pvclock page with
 * mul 0xf446a645, shift -1 and the stable bit, its tsc_timestamp a little before now.
 */
static void synthetic_pvclock(void)
{
	const struct orun_pv p = {
		.tsc_timestamp = fr_arch_counter_unordered() - (1ULL << 30), .system_time = 1234567890123456ULL,
		.mul = 0xf446a645u, .shift = -1, .flags = FR_PV_STABLE_BIT,
	};
	const struct orun_clock c = {
		.cycle_last = p.system_time + 987654321, .max_cycles = 0x1cd42e4dffbULL, .mult = 1u << 23,
		.shift = 23, .sec = 1000000, .nsec = 123456789ULL << 23,
	};

	memset(orun_vc.vclock, 0, VC_PAGE);
	*(uint32_t *)(orun_vc.vclock + FR_PV_VERSION) = 0x10;
	orun_set_pv(&p);
	orun_set_clock(0, FR_MODE_PVCLOCK, &c);
}

const char *orun_open(int *fatal)
{
	const char *why = vcopy_open(&orun_vc, fatal);
	struct orun_pv p;

	if (why)
		return why;
	fr_kdata_init(&orun_kd, orun_vc.lay, orun_vc.vvar, orun_vc.vclock);
	orun_get_pv(&p);
	/* The live snapshot where it is a usable pvclock one, else a synthetic one on the same code. */
	orun_pv_live = orun_vc.live_mode == FR_MODE_PVCLOCK && (p.flags & FR_PV_STABLE_BIT) && p.tsc_timestamp;
	if (!orun_pv_live)
		synthetic_pvclock();
	memcpy(base_page, orun_vc.vvar, VC_PAGE);
	memcpy(base_pv, orun_vc.vclock, VC_PAGE);
	return NULL;
}

void orun_close(void)
{
	vcopy_close(&orun_vc);
}

void orun_set_hooks(void (*before)(void), vc_read_hook on_read)
{
	hook_before = before;
	hook_read = on_read;
}

void orun_reset_pages(void)
{
	memcpy(orun_vc.vvar, base_page, VC_PAGE);
	if (orun_timens_page())
		memset(orun_vc.vvar + orun_timens_page() * VC_PAGE, 0, VC_PAGE);
	memcpy(orun_vc.vclock, base_pv, VC_PAGE);
	memset(orun_vc.hvclock, 0, VC_PAGE);
}

int orun_has_reader(uint64_t tsc)
{
	struct timespec ts;
	struct vc_call call;

	vcopy_set_read_hook(NULL);
	vcopy_gettime(&orun_vc, CLOCK_MONOTONIC_RAW, tsc, &ts, &call);
	return call.rdtsc_traps > 0;
}

static int same(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/*
 * What mainline (no clamp) would answer on page 0 for a TSC below tsc_timestamp: the unsigned
 * delta wraps. The seconds carry is the kernel's 32-bit one (__iter_div_u64_rem returns u32).
 */
static void mainline_wrap(uint64_t tsc, struct timespec *w)
{
	struct orun_pv p;
	struct orun_clock c;
	struct fr_raw_vals v;
	uint64_t d, kc, ns;

	orun_get_pv(&p);
	orun_get_clock(0, &c);
	d = tsc - p.tsc_timestamp;
	d = p.shift < 0 ? d >> -p.shift : d << p.shift;
	kc = p.system_time + (uint64_t)(((unsigned __int128)d * p.mul) >> 32);
	if (orun_kd.lay->rules != FR_RULES_5_3)
		kc &= FR_S64_MAX;
	v = (struct fr_raw_vals){ .cycle_last = c.cycle_last,
				  .max_cycles = c.max_cycles,
				  .mult = c.mult,
				  .shift = c.shift,
				  .base_sec = c.sec,
				  .base_nsec = c.nsec,
				  .mask = ~0ULL };
	ns = fr_raw_ns(orun_kd.lay->rules, kc, &v);
	w->tv_sec = (time_t)(c.sec + (uint32_t)(ns / FR_NSEC_PER_SEC));
	w->tv_nsec = (long)(ns % FR_NSEC_PER_SEC);
}

/*
 * Whether a, if computed, differs from the kernel's k only by a multiple of 2^32 seconds: the
 * kernel's carry loop counts seconds in a u32 (__iter_div_u64_rem), a 64-bit division does not.
 */
static int carry32_only(int r, const struct timespec *a, const struct timespec *k)
{
	return r != FR_OK || same(a, k) ||
	       (a->tv_nsec == k->tv_nsec && ((uint64_t)a->tv_sec - (uint64_t)k->tv_sec) % (1ULL << 32) == 0);
}

void orun_begin(struct orun_tally *t, const char *name, enum orun_expect expect)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->expect = expect;
	t->reads = 1;
	t->site = -1;
	if (expect == ORUN_PASS) {
		struct orun_pv p;
		struct vc_call call;

		orun_get_pv(&p);
		vcopy_set_read_hook(NULL);
		vcopy_gettime(&orun_vc, CLOCK_MONOTONIC_RAW, p.tsc_timestamp, &t->clamp_ref, &call);
	}
}

static void report(struct orun_tally *t, const char *what, uint64_t tsc, const struct timespec *k, int kfb,
		   const struct timespec *f, int rf, const struct timespec *g, int rg)
{
	if (t->diff + t->bad_call + t->mismatch > MAX_REPORTS)
		return;
	printf("oracle: %s: %s: tsc=%#llx kernel%s=%lld.%09ld fast(%d)=%lld.%09ld general(%d)=%lld.%09ld\n",
	       t->name, what, (unsigned long long)tsc, kfb ? "(syscall)" : "", (long long)k->tv_sec, k->tv_nsec, rf,
	       (long long)f->tv_sec, f->tv_nsec, rg, (long long)g->tv_sec, g->tv_nsec);
}

static void served_one(struct orun_tally *t, uint64_t tsc, uint64_t tsc2);

void orun_one2(struct orun_tally *t, uint64_t tsc, uint64_t tsc2)
{
	struct timespec k = { -1, -1 };
	struct oours o = { -1, -1, { -1, -1 }, { -1, -1 } };
	struct vc_call call;
	int kfb;

	if (hook_before)
		hook_before();
	vcopy_set_read_hook(hook_read);
	vcopy_gettime2(&orun_vc, CLOCK_MONOTONIC_RAW, tsc, tsc2, &k, &call);
	vcopy_set_read_hook(NULL);
	oours_read(&orun_kd, hook_before, hook_read, tsc, tsc2, &o);
	kfb = call.syscalls != 0;
	t->n++;
	t->carry += call.carry_traps;
	t->fallbacks += kfb;
	if (call.ret != 0 || (!kfb && call.rdtsc_traps != t->reads)) {
		t->bad_call++;
		report(t, "copy misbehaved", tsc, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	}
	if (call.rdtsc_traps) {
		if (t->site < 0)
			t->site = call.rdtsc_site;
		else if (call.rdtsc_site != t->site)
			t->site_moves++;
	}
	if (!kfb && ((o.rf == FR_OK && !same(&o.f, &k)) || (o.rg == FR_OK && !same(&o.g, &k)))) {
		t->diff++;
		t->diff_carry32 += carry32_only(o.rf, &o.f, &k) && carry32_only(o.rg, &o.g, &k);
		report(t, "DIFFERENT", tsc, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	}
	if (kfb && (o.rf == FR_OK || o.rg == FR_OK)) {
		t->mismatch++;
		report(t, "kernel fell back, ours answered", tsc, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	} else if (kfb) {
		t->both_fallback++;
	} else if (t->expect != ORUN_PASS && (o.rf != FR_OK || o.rg != FR_OK)) {
		t->mismatch++;
		report(t, "kernel answered, ours passed", tsc, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	}
	t->pass_fast += o.rf != FR_OK;
	t->pass_gen += o.rg != FR_OK;
	served_one(t, tsc, tsc2);
	if (t->expect == ORUN_PASS && !kfb) {
		struct timespec w;

		mainline_wrap(tsc, &w);
		if (same(&k, &t->clamp_ref))
			t->clamped++;
		else if (same(&k, &w))
			t->wrapped++;
		else
			t->other++;
	}
}

/* The served clocks, taken in turn: one per value, so each sub-regime meets every one. */
static const clockid_t served_clocks[] = {
	CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME, CLOCK_TAI, CLOCK_MONOTONIC_COARSE, CLOCK_REALTIME_COARSE,
};

/*
 * One value through the copy and ours for a served clock. A high-resolution clock must do what
 * RAW does in the regime: answer what the copy answers, pass where the copy makes its system
 * call, and pass every value of a PASS regime. A coarse one reads no counter and never passes.
 */
static void served_one(struct orun_tally *t, uint64_t tsc, uint64_t tsc2)
{
	clockid_t clk = served_clocks[t->s_n % (sizeof(served_clocks) / sizeof(served_clocks[0]))];
	int coarse = clk == CLOCK_MONOTONIC_COARSE || clk == CLOCK_REALTIME_COARSE;
	struct timespec k = { -1, -1 };
	struct oours o = { -1, -1, { -1, -1 }, { -1, -1 } };
	struct vc_call call;
	int kfb, bad = 0, ours_ok;

	if (hook_before)
		hook_before();
	vcopy_set_read_hook(hook_read);
	vcopy_gettime2(&orun_vc, clk, tsc, tsc2, &k, &call);
	vcopy_set_read_hook(NULL);
	oours_read_clock(&orun_kd, clk, hook_before, hook_read, tsc, tsc2, &o);
	kfb = call.syscalls != 0;
	ours_ok = o.rf == FR_OK && o.rg == FR_OK;
	t->s_n++;
	t->s_per[clk]++;
	t->s_pass += o.rf != FR_OK || o.rg != FR_OK;
	if (call.ret != 0 || (coarse && (kfb || call.rdtsc_traps)) || (!coarse && !kfb && !call.rdtsc_traps)) {
		t->s_bad++;
		bad = 1;
	} else if (!kfb && ((o.rf == FR_OK && !same(&o.f, &k)) || (o.rg == FR_OK && !same(&o.g, &k)))) {
		t->s_diff++;
		bad = 1;
	} else if ((kfb && (o.rf == FR_OK || o.rg == FR_OK)) ||
		   (!kfb && (coarse || t->expect == ORUN_COMPUTE) && !ours_ok) ||
		   (!coarse && t->expect == ORUN_PASS && (o.rf == FR_OK || o.rg == FR_OK))) {
		t->s_mismatch++;
		bad = 1;
	}
	if (bad && t->s_diff + t->s_mismatch + t->s_bad <= MAX_REPORTS)
		printf("oracle: %s: served clock %d: tsc=%#llx kernel%s=%lld.%09ld (reads %u) fast(%d)=%lld.%09ld "
		       "general(%d)=%lld.%09ld\n",
		       t->name, (int)clk, (unsigned long long)tsc, kfb ? "(syscall)" : "", (long long)k.tv_sec, k.tv_nsec,
		       call.rdtsc_traps, o.rf, (long long)o.f.tv_sec, o.f.tv_nsec, o.rg, (long long)o.g.tv_sec,
		       o.g.tv_nsec);
}

void orun_one(struct orun_tally *t, uint64_t tsc)
{
	orun_one2(t, tsc, tsc);
}

int orun_end(struct orun_tally *t)
{
	int ok = t->n > 0 && t->diff == 0 && t->bad_call == 0 && t->site_moves == 0 && t->mismatch == 0;
	long site = t->site >= 0 ? (long)orun_vc.sites.read[t->site].at : -1;

	int served_ok = t->s_n == t->n && t->s_diff == 0 && t->s_mismatch == 0 && t->s_bad == 0;

	if (t->expect == ORUN_COMPUTE)
		ok = ok && t->both_fallback < t->n;
	else if (t->expect == ORUN_PASS)
		ok = ok && t->pass_fast == t->n && t->pass_gen == t->n;
	else
		ok = ok && t->both_fallback == t->n;
	printf("oracle: %-44s n=%u differences=%u mismatches=%u both-fell-back=%u pass(fast)=%u pass(general)=%u "
	       "copy-fallbacks=%u copy-bad=%u carry-closed-form=%u counter-site=%#lx site-moves=%u%s\n",
	       t->name, t->n, t->diff, t->mismatch, t->both_fallback, t->pass_fast, t->pass_gen, t->fallbacks,
	       t->bad_call, t->carry, site, t->site_moves, ok ? "" : "  <== FAILED");
	printf("oracle: %-44s served clocks: n=%u (REALTIME %u, MONOTONIC %u, BOOTTIME %u, TAI %u, "
	       "REALTIME_COARSE %u, MONOTONIC_COARSE %u) differences=%u mismatches=%u copy-bad=%u pass=%u%s\n",
	       t->name, t->s_n, t->s_per[CLOCK_REALTIME], t->s_per[CLOCK_MONOTONIC], t->s_per[CLOCK_BOOTTIME],
	       t->s_per[CLOCK_TAI], t->s_per[CLOCK_REALTIME_COARSE], t->s_per[CLOCK_MONOTONIC_COARSE], t->s_diff,
	       t->s_mismatch, t->s_bad, t->s_pass, served_ok ? "" : "  <== FAILED");
	ok = ok && served_ok;
	if (t->diff)
		printf("oracle: %-44s of the differences, %u differ only in tv_sec by a multiple of 2^32 "
		       "(the kernel carries seconds in a u32)\n", t->name, t->diff_carry32);
	if (t->expect == ORUN_PASS)
		printf("oracle: %-44s copy answered: clamped (== tsc_timestamp's answer)=%u mainline-wrap=%u "
		       "other=%u syscall=%u\n", t->name, t->clamped, t->wrapped, t->other, t->fallbacks);
	fflush(stdout);
	if (orun_sum) {
		orun_sum->compared += t->n + t->s_n;
		orun_sum->differences += t->diff + t->mismatch + t->bad_call + t->s_diff + t->s_mismatch + t->s_bad;
	}
	return ok;
}

void orun_skip(const char *regime, const char *why)
{
	printf("SKIP: oracle regime %s: %s\n", regime, why);
	fflush(stdout);
	if (orun_sum) {
		size_t n = strlen(orun_sum->reasons);

		orun_sum->skipped++;
		snprintf(orun_sum->reasons + n, sizeof(orun_sum->reasons) - n, "%s%s: %s", n ? "; " : "", regime, why);
	}
}
