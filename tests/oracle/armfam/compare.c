/* SPDX-License-Identifier: MIT */
/* Runs one counter value through the ARM family's vDSO copy and through fr_raw_read_with / fr_raw_read_general_with, and tallies. */
#define _GNU_SOURCE
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>

#include "exact/fastpath.h"
#include "../our_reads.h"

#define MAX_REPORTS 5

struct acopy aorun_ac;
struct fr_kdata aorun_kd;
struct aorun_summary *aorun_sum;

static void (*hook_before)(void);
static ac_read_hook hook_read;

/*
 * ORACLE_VDSO_IMAGE=file ORACLE_ERA=name: another kernel's vDSO image (carved from its vmlinux)
 * instead of this process's, on synthetic pages only; it also runs under qemu-user, which gives
 * a process no vDSO. NULL, or why the image cannot be used.
 */
static const char *image_source(const uint8_t **vdso, const struct fr_layout **lay)
{
	static uint8_t img[AC_MAX_VDSO_PAGES * AC_PAGE] __attribute__((aligned(AC_PAGE)));
	const char *era = getenv("ORACLE_ERA");
	FILE *f = fopen(getenv("ORACLE_VDSO_IMAGE"), "rb");
	size_t n;

	if (!f)
		return "ORACLE_VDSO_IMAGE cannot be opened";
	n = fread(img, 1, sizeof(img), f);
	fclose(f);
	*lay = era ? fr_layout_by_name(era) : NULL;
	if (!*lay)
		return "ORACLE_ERA names no layout";
	*vdso = img;
	return n >= 64 ? NULL : "ORACLE_VDSO_IMAGE is too short";
}

const char *aorun_open(int *fatal)
{
	const uint8_t *vdso = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	const struct fr_layout *lay;
	struct acopy_geom g;
	struct utsname u;
	const char *why;
	enum fr_release_kind kind;
	int image = getenv("ORACLE_VDSO_IMAGE") != NULL;

	*fatal = 0;
	if (image) {
		*fatal = 1;
		why = image_source(&vdso, &lay);
		if (why)
			return why;
		goto copy;
	}
	if (!vdso)
		return "no vDSO in this process (qemu-user gives none)";
	if (uname(&u) != 0)
		return "uname failed";
	lay = fr_layout_for_release_kind(u.release, &why, &kind);
	/* A release before the first era has nothing the library would read: a legitimate absence. */
	if (!lay && kind == FR_REL_OLD)
		return why;
	/* From here on a vDSO with RAW data exists: anything that stops the oracle is a failure. */
	*fatal = 1;
	if (!lay)
		return why;
copy:
	g = (struct acopy_geom){ .pages_below = lay->pages_below, .raw_off = lay->data_off + lay->clock_size,
				 .clock_size = lay->clock_size, .timens_page = lay->timens_page, .image = image };
	why = acopy_open(&aorun_ac, vdso, &g);
	if (why)
		return why;
	fr_kdata_init(&aorun_kd, lay, aorun_ac.vvar, NULL);
	return NULL;
}

void aorun_close(void)
{
	acopy_close(&aorun_ac);
}

void aorun_set_hooks(void (*before)(void), ac_read_hook on_read)
{
	hook_before = before;
	hook_read = on_read;
}

static int same(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

void aorun_begin(struct aorun_tally *t, const char *name, enum aorun_expect expect)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->expect = expect;
	t->reads = 1;
	t->site = -1;
}

static void report(struct aorun_tally *t, const char *what, uint64_t cnt, const struct timespec *k, int kfb,
		   const struct timespec *f, int rf, const struct timespec *g, int rg)
{
	struct aorun_clock c;

	if (t->diff + t->bad_call + t->mismatch > MAX_REPORTS)
		return;
	aorun_get_clock(0, &c);
	printf("oracle: %s: %s: counter=%#llx kernel%s=%lld.%09ld fast(%d)=%lld.%09ld general(%d)=%lld.%09ld "
	       "[page 0: cycle_last=%#llx mask=%#llx mult=%u shift=%u sec=%#llx nsec=%#llx]\n",
	       t->name, what, (unsigned long long)cnt, kfb ? "(syscall)" : "", (long long)k->tv_sec, k->tv_nsec, rf,
	       (long long)f->tv_sec, f->tv_nsec, rg, (long long)g->tv_sec, g->tv_nsec,
	       (unsigned long long)c.cycle_last, (unsigned long long)c.mask, c.mult, c.shift,
	       (unsigned long long)c.sec, (unsigned long long)c.nsec);
}

/* The served clocks, taken in turn: one per value, so each sub-regime meets every one. */
static const clockid_t served_clocks[] = {
	CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME, CLOCK_TAI, CLOCK_MONOTONIC_COARSE, CLOCK_REALTIME_COARSE,
};

/*
 * One value through the copy and ours for a served clock: a high-resolution clock does what
 * RAW does (answers what the copy answers, passes where it makes its system call); a coarse one
 * reads no counter and always answers.
 */
static void served_one(struct aorun_tally *t, uint64_t cnt, uint64_t cnt2)
{
	clockid_t clk = served_clocks[t->s_n % (sizeof(served_clocks) / sizeof(served_clocks[0]))];
	int coarse = clk == CLOCK_MONOTONIC_COARSE || clk == CLOCK_REALTIME_COARSE;
	struct timespec k = { -1, -1 };
	struct oours o = { -1, -1, { -1, -1 }, { -1, -1 } };
	struct ac_call call;
	int kfb, bad = 0;

	if (hook_before)
		hook_before();
	acopy_set_read_hook(hook_read);
	acopy_gettime2(&aorun_ac, clk, cnt, cnt2, &k, &call);
	acopy_set_read_hook(NULL);
	oours_read_clock(&aorun_kd, clk, hook_before, hook_read, cnt, cnt2, &o);
	kfb = call.syscalls != 0;
	t->s_n++;
	t->s_per[clk]++;
	t->s_pass += o.rf != FR_OK || o.rg != FR_OK;
	if (call.ret != 0 || call.bad_carry || (coarse && (kfb || call.reads)) || (!coarse && !kfb && !call.reads)) {
		t->s_bad++;
		bad = 1;
	} else if (!kfb && ((o.rf == FR_OK && !same(&o.f, &k)) || (o.rg == FR_OK && !same(&o.g, &k)))) {
		t->s_diff++;
		bad = 1;
	} else if ((kfb && (o.rf == FR_OK || o.rg == FR_OK)) || (!kfb && (o.rf != FR_OK || o.rg != FR_OK))) {
		t->s_mismatch++;
		bad = 1;
	}
	if (bad && t->s_diff + t->s_mismatch + t->s_bad <= MAX_REPORTS)
		printf("oracle: %s: served clock %d: counter=%#llx kernel%s=%lld.%09ld (reads %u) fast(%d)=%lld.%09ld "
		       "general(%d)=%lld.%09ld\n",
		       t->name, (int)clk, (unsigned long long)cnt, kfb ? "(syscall)" : "", (long long)k.tv_sec, k.tv_nsec,
		       call.reads, o.rf, (long long)o.f.tv_sec, o.f.tv_nsec, o.rg, (long long)o.g.tv_sec, o.g.tv_nsec);
}

void aorun_one2(struct aorun_tally *t, uint64_t cnt, uint64_t cnt2)
{
	struct timespec k = { -1, -1 };
	struct oours o = { -1, -1, { -1, -1 }, { -1, -1 } };
	struct ac_call call;
	int kfb;

	if (hook_before)
		hook_before();
	acopy_set_read_hook(hook_read);
	acopy_gettime2(&aorun_ac, CLOCK_MONOTONIC_RAW, cnt, cnt2, &k, &call);
	acopy_set_read_hook(NULL);
	oours_read(&aorun_kd, hook_before, hook_read, cnt, cnt2, &o);
	kfb = call.syscalls != 0;
	t->n++;
	t->carry += call.carries;
	t->fallbacks += kfb;
	if (call.ret != 0 || call.bad_carry || (!kfb && call.reads != t->reads)) {
		t->bad_call++;
		report(t, "copy misbehaved", cnt, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	}
	if (call.reads) {
		if (t->site < 0)
			t->site = call.read_site;
		else if (call.read_site != t->site)
			t->site_moves++;
	}
	if (!kfb && ((o.rf == FR_OK && !same(&o.f, &k)) || (o.rg == FR_OK && !same(&o.g, &k)))) {
		t->diff++;
		report(t, "DIFFERENT", cnt, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	}
	if (kfb && (o.rf == FR_OK || o.rg == FR_OK)) {
		t->mismatch++;
		report(t, "kernel fell back, ours answered", cnt, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	} else if (kfb) {
		t->both_fallback++;
	} else if (o.rf != FR_OK || o.rg != FR_OK) {
		t->mismatch++;
		report(t, "kernel answered, ours passed", cnt, &k, kfb, &o.f, o.rf, &o.g, o.rg);
	}
	t->pass_fast += o.rf != FR_OK;
	t->pass_gen += o.rg != FR_OK;
	served_one(t, cnt, cnt2);
}

void aorun_one(struct aorun_tally *t, uint64_t cnt)
{
	aorun_one2(t, cnt, cnt);
}

int aorun_end(struct aorun_tally *t)
{
	int ok = t->n > 0 && t->diff == 0 && t->bad_call == 0 && t->site_moves == 0 && t->mismatch == 0;
	long site = t->site >= 0 ? (long)aorun_ac.sites.read[t->site].at : -1;

	int served_ok = t->s_n == t->n && t->s_diff == 0 && t->s_mismatch == 0 && t->s_bad == 0;

	if (t->expect == AORUN_COMPUTE)
		ok = ok && t->both_fallback < t->n;
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
	fflush(stdout);
	if (aorun_sum) {
		aorun_sum->compared += t->n + t->s_n;
		aorun_sum->differences += t->diff + t->mismatch + t->bad_call + t->s_diff + t->s_mismatch + t->s_bad;
	}
	return ok && served_ok;
}

void aorun_skip(const char *regime, const char *why)
{
	printf("SKIP: oracle regime %s: %s\n", regime, why);
	fflush(stdout);
	if (aorun_sum) {
		size_t n = strlen(aorun_sum->reasons);

		aorun_sum->skipped++;
		snprintf(aorun_sum->reasons + n, sizeof(aorun_sum->reasons) - n, "%s%s: %s", n ? "; " : "", regime, why);
	}
}
