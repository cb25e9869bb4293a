/* SPDX-License-Identifier: MIT */
/* Runs one TSC value through the patched vDSO copy and through fr_raw_read_with / fr_raw_read_general_with, and tallies. */
#define _GNU_SOURCE
#include "orun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/rawmath.h"
#include "source/fastpath.h"

#define MAX_REPORTS 5

struct vcopy orun_vc;
struct fr_kdata orun_kd;

static uint8_t pv_orig[VC_PAGE];
static uint64_t injected;
static uint64_t rng;

static uint64_t inject(void)
{
	return injected;
}

const char *orun_open(void)
{
	const char *why = vcopy_open(&orun_vc);

	if (why)
		return why;
	memcpy(pv_orig, orun_vc.vclock, VC_PAGE);
	fr_kdata_init(&orun_kd, fr_layout_by_name("6.17"), orun_vc.vvar, orun_vc.vclock);
	return NULL;
}

void orun_close(void)
{
	vcopy_close(&orun_vc);
}

void orun_seed(uint64_t salt)
{
	const char *s = getenv("ORACLE_SEED");

	rng = (s ? strtoull(s, NULL, 0) : 0x5eed0f0a11ce5ULL) ^ (salt * 0x9e3779b97f4a7c15ULL);
}

uint64_t orun_rand(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t orun_below(uint64_t n)
{
	return n ? orun_rand() % n : 0;
}

uint64_t orun_mag(unsigned bits)
{
	unsigned k = (unsigned)orun_below(bits + 1);

	return k ? orun_rand() >> (64 - k) : 0;
}

static uint8_t *entry(unsigned page, unsigned idx)
{
	const struct fr_layout *lay = orun_kd.lay;

	return orun_vc.vvar + page * VC_PAGE + lay->data_off + idx * lay->clock_size;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* basetime[CLOCK_MONOTONIC_RAW] (or the namespace offset stored in its place) of an entry. */
static uint8_t *raw_base(uint8_t *e)
{
	return e + FR_OFF_BASETIME + orun_kd.lay->field_shift + 16 * FR_CLOCK_RAW_ID;
}

void orun_reset_pages(void)
{
	memcpy(orun_vc.vvar, orun_vc.time_page, VC_PAGE);
	memset(orun_vc.vvar + VC_PAGE, 0, VC_PAGE);
	memcpy(orun_vc.vclock, pv_orig, VC_PAGE);
}

void orun_set_clock(unsigned page, int mode, const struct orun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = orun_kd.lay->field_shift;

	put32(entry(page, 0) + FR_OFF_MODE, (uint32_t)mode);
	put32(e + FR_OFF_MODE, (uint32_t)mode);
	put64(e + FR_OFF_CYCLE_LAST, c->cycle_last);
	put64(e + FR_OFF_MAX_CYCLES, c->max_cycles);
	put32(e + FR_OFF_MULT + fs, c->mult);
	put32(e + FR_OFF_SHIFT + fs, c->shift);
	put64(raw_base(e), c->sec);
	put64(raw_base(e) + 8, c->nsec);
}

void orun_get_clock(unsigned page, struct orun_clock *c)
{
	uint8_t *e = entry(page, 1);
	uint32_t fs = orun_kd.lay->field_shift;

	c->cycle_last = get64(e + FR_OFF_CYCLE_LAST);
	c->max_cycles = get64(e + FR_OFF_MAX_CYCLES);
	c->mult = get32(e + FR_OFF_MULT + fs);
	c->shift = get32(e + FR_OFF_SHIFT + fs);
	c->sec = get64(raw_base(e));
	c->nsec = get64(raw_base(e) + 8);
}

void orun_set_timens(uint64_t off_sec, uint64_t off_nsec)
{
	if (get32(entry(0, 1) + FR_OFF_MODE) != orun_kd.lay->timens_mode) {
		memcpy(orun_vc.vvar + orun_kd.lay->timens_page * VC_PAGE, orun_vc.vvar, VC_PAGE);
		memset(orun_vc.vvar, 0, VC_PAGE);
		for (unsigned i = 0; i < 2; i++) {
			put32(entry(0, i) + FR_OFF_SEQ, 1);
			put32(entry(0, i) + FR_OFF_MODE, orun_kd.lay->timens_mode);
		}
	}
	put64(raw_base(entry(0, 1)), off_sec);
	put64(raw_base(entry(0, 1)) + 8, off_nsec);
}

void orun_get_pv(struct orun_pv *p)
{
	const uint8_t *pv = orun_vc.vclock;

	p->tsc_timestamp = get64(pv + FR_PV_TSC_TIMESTAMP);
	p->system_time = get64(pv + FR_PV_SYSTEM_TIME);
	p->mul = get32(pv + FR_PV_MUL);
	p->shift = (int8_t)pv[FR_PV_SHIFT];
	p->flags = pv[FR_PV_FLAGS];
}

void orun_set_pv(const struct orun_pv *p)
{
	uint8_t *pv = orun_vc.vclock;

	put64(pv + FR_PV_TSC_TIMESTAMP, p->tsc_timestamp);
	put64(pv + FR_PV_SYSTEM_TIME, p->system_time);
	put32(pv + FR_PV_MUL, p->mul);
	pv[FR_PV_SHIFT] = (uint8_t)p->shift;
	pv[FR_PV_FLAGS] = p->flags;
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
	kc = (p.system_time + (uint64_t)(((unsigned __int128)d * p.mul) >> 32)) & FR_S64_MAX;
	v = (struct fr_raw_vals){ c.cycle_last, c.max_cycles, c.mult, c.shift, c.sec, c.nsec };
	ns = fr_raw_ns(FR_RULES_6_10, kc, &v);
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
	t->site = -1;
	if (expect == ORUN_PASS) {
		struct orun_pv p;
		struct vc_call call;

		orun_get_pv(&p);
		vcopy_gettime(&orun_vc, CLOCK_MONOTONIC_RAW, p.tsc_timestamp, &t->clamp_ref, &call);
	}
}

static void report(struct orun_tally *t, const char *what, uint64_t tsc, const struct timespec *k,
		   const struct timespec *f, int rf, const struct timespec *g, int rg)
{
	if (t->diff + t->bad_call > MAX_REPORTS)
		return;
	printf("oracle: %s: %s: tsc=%#llx kernel=%lld.%09ld fast(%d)=%lld.%09ld general(%d)=%lld.%09ld\n",
	       t->name, what, (unsigned long long)tsc, (long long)k->tv_sec, k->tv_nsec, rf,
	       (long long)f->tv_sec, f->tv_nsec, rg, (long long)g->tv_sec, g->tv_nsec);
}

void orun_one(struct orun_tally *t, uint64_t tsc)
{
	struct timespec k = { -1, -1 }, f = { -1, -1 }, g = { -1, -1 };
	struct vc_call call;
	int rf, rg;

	vcopy_gettime(&orun_vc, CLOCK_MONOTONIC_RAW, tsc, &k, &call);
	injected = tsc;
	rf = fr_raw_read_with(&orun_kd, inject, &f);
	rg = fr_raw_read_general_with(&orun_kd, inject, &g);
	t->n++;
	t->carry += call.carry_traps;
	t->fallbacks += call.syscalls != 0;
	if (call.ret != 0 || (!call.syscalls && call.rdtsc_traps != 1)) {
		t->bad_call++;
		report(t, "copy misbehaved", tsc, &k, &f, rf, &g, rg);
	}
	if (t->site < 0)
		t->site = call.rdtsc_site;
	else if (call.rdtsc_site != t->site)
		t->site_moves++;
	if ((rf == FR_OK && !same(&f, &k)) || (rg == FR_OK && !same(&g, &k))) {
		t->diff++;
		t->diff_carry32 += carry32_only(rf, &f, &k) && carry32_only(rg, &g, &k);
		report(t, "DIFFERENT", tsc, &k, &f, rf, &g, rg);
	}
	t->pass_fast += rf != FR_OK;
	t->pass_gen += rg != FR_OK;
	if (t->expect == ORUN_PASS && !call.syscalls) {
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

int orun_end(struct orun_tally *t)
{
	int ok = t->n > 0 && t->diff == 0 && t->bad_call == 0 && t->site_moves == 0;
	long site = t->site >= 0 ? (long)(orun_vc.rdtsc_at[t->site] - (uintptr_t)orun_vc.text) : -1;

	if (t->expect == ORUN_COMPUTE)
		ok = ok && t->pass_fast == 0 && t->pass_gen == 0 && t->fallbacks == 0;
	else
		ok = ok && t->pass_fast == t->n && t->pass_gen == t->n;
	printf("oracle: %-44s n=%u differences=%u pass(fast)=%u pass(general)=%u copy-fallbacks=%u "
	       "copy-bad=%u carry-closed-form=%u rdtsc-site=%#lx site-moves=%u%s\n",
	       t->name, t->n, t->diff, t->pass_fast, t->pass_gen, t->fallbacks, t->bad_call, t->carry, site,
	       t->site_moves, ok ? "" : "  <== FAILED");
	if (t->diff)
		printf("oracle: %-44s of the differences, %u differ only in tv_sec by a multiple of 2^32 "
		       "(the kernel carries seconds in a u32)\n", t->name, t->diff_carry32);
	if (t->expect == ORUN_PASS)
		printf("oracle: %-44s copy answered: clamped (== tsc_timestamp's answer)=%u mainline-wrap=%u "
		       "other=%u syscall=%u\n", t->name, t->clamped, t->wrapped, t->other, t->fallbacks);
	fflush(stdout);
	return ok;
}
