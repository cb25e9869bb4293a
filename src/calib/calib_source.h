/* SPDX-License-Identifier: MIT */
/* Calibrated mode at run time: sandwiches with the kernel's RAW clock, a published line, and its readers. */
#ifndef FR_CALIB_SOURCE_H
#define FR_CALIB_SOURCE_H

#include <stdint.h>

#include "calib/calib_seed.h"
#include "arch/arch.h"
#include "passthru/passthru.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Until the estimate's predicted error fits its budget every call is answered by the kernel
 * (one RAW call through the real vDSO, or its system call), and the counter read around it
 * becomes a sandwich: the first call never waits for more than that one kernel call. Then
 * readers compute the published line; a reader that finds the newest sandwich older than the
 * refresh period takes one more (no thread, no timer, no signal). Everything lives in static
 * memory, so a forked child keeps a valid state; a vfork or CLONE_VM child, which shares it,
 * only reads it (proc/memid.h).
 */

/* Starts calibrated mode with a seed rate (0 for none). Called once, by the initialiser. */
void fr_cal_setup(uint64_t seed_mult);

/* The calibrated reader for a counter read, in libc's convention. */
fr_raw_fn fr_cal_raw_for(enum fr_counter_mode mode);
/* The same reading as one integer of nanoseconds (fastraw_now_ns), -1 when even the kernel failed. */
fr_now_fn fr_cal_now_for(enum fr_counter_mode mode);

struct fr_gtod;

/*
 * The pre-5.3 gtod page of this kernel, in the layout it holds (kdata/gtod.h): 0 and *g filled,
 * or -1 (5.3+, no [vvar], 3.10's fixed page not proven mapped, a page no layout fits). Start-up
 * reads it once and hands it to both functions below (NULL when there is none).
 */
int fr_cal_gtod(const char *release, struct fr_gtod *g);

/*
 * 3.10's fixed-address page and the proof that it is mapped, a seam: the unit tests give a
 * synthetic vDSO image, page and call. The page is read only when the vDSO image's
 * clock_gettime (FR_ARCH_VDSO_CLOCK_GETTIME) loads gtod fields from FR_GTOD_FIXED_PAGE,
 * seq among them, and call(that function) returned 0.
 */
struct fr_gtod_fixed {
	const void *vdso;             /* the vDSO image (AT_SYSINFO_EHDR) */
	const volatile uint8_t *page; /* read once proven: FR_GTOD_FIXED_PAGE itself */
	int (*call)(void *fn);        /* fn(CLOCK_MONOTONIC, &ts), the vDSO's result (0 or -errno) */
};

/* Reads f->page in a 3.10 layout once proven: NULL and *g filled, or why not (g->tsc 0). */
const char *fr_cal_gtod_fixed(const struct fr_gtod_fixed *f, struct fr_gtod *g);

/*
 * 32-bit ARM's pre-5.5 page, a seam: the unit tests give a synthetic image's symbols, page and
 * readability. The vDSO's exports are the proof of the era (docs/kernel-data.md, "32-bit ARM
 * before 5.5"): the pre-5.5 vDSO exports __vdso_clock_gettime and __vdso_gettimeofday alone
 * (the first one nulled when the kernel found no usable virtual counter); 5.5's generic vDSO
 * adds __vdso_clock_gettime64 and __vdso_clock_getres.
 */
struct fr_armdata_where {
	const void *vdso;                          /* the vDSO image (its [vdso] start) */
	const volatile uint8_t *vvar;              /* the [vvar] start, NULL when absent */
	void *(*sym)(const void *vdso, const char *name, const char *version); /* fr_vdso_sym */
	int (*readable)(const volatile void *p);   /* fr_readable: 1 readable, else not known to be */
};

/* The era's reason (FASTRAW_DEBUG) where the vDSO's exports prove a pre-5.5 32-bit ARM kernel. */
#define FR_ARMDATA_ERA_WHY                                                                          \
	"32-bit ARM kernel before 5.5: its vDSO serves no CLOCK_MONOTONIC_RAW (pre-5.5 arm by its "      \
	"exports: neither __vdso_clock_gettime64 nor __vdso_clock_getres)"

/* Reads w->vvar as 32-bit ARM's 4.1-5.4 vdso_data once the exports prove that era: NULL and *g filled, or why not. */
const char *fr_cal_armdata(const struct fr_armdata_where *w, struct fr_gtod *g);

/*
 * The seed for this machine: the kernel's pvclock or TSC-mode data page when usable (the gtod
 * page g before 5.3), else the rate the CPU reports (fr_arch_counter_rates).
 */
struct fr_kdata;
void fr_cal_seed_choose(const struct fr_kdata *kd, int have_kd, const struct fr_gtod *g, struct fr_cal_seed *out);

/*
 * Reads the eligibility inputs (sysfs and /proc; before 5.3 the gtod page g's clock mode) with
 * plain system calls and applies the rule.
 */
const char *fr_cal_eligible(const struct fr_cpu_features *cpu, const struct fr_gtod *g);

#pragma GCC visibility pop

#endif
