/* SPDX-License-Identifier: MIT */
/* The kernel's vDSO data pages: layouts by era, finding them, and their consistency checks. */
#ifndef FR_KDATA_H
#define FR_KDATA_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "arch/arch.h"
#include "math/rawmath.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

#define FR_PAGE_SIZE 4096u

/*
 * vdso_clock_mode numbers (include/vdso/clocksource.h and the architecture's own): none is 0
 * everywhere; the rest are the architecture's, by role (FR_ARCH_CLOCK_MODES, arch/arch.h).
 * COUNTER and COUNTER_ALT read the CPU's counter (x86: TSC, one number, so COUNTER_ALT is
 * COUNTER; arm64: ARCHTIMER and ARCHTIMER_NOCOMPAT); PVCLOCK and HVCLOCK are x86's paravirtual
 * pages (FR_HAS_VCLOCK), -1 elsewhere, a value no clock_mode holds. FR_MODE_LAST is the highest.
 */
#define FR_ROLE_COUNTER 1
#define FR_ROLE_COUNTER_ALT 2
#define FR_ROLE_PVCLOCK 3
#define FR_ROLE_HVCLOCK 4
/* The value of a role, or -1 (a constant expression, also in #if). */
#define FR_MODE_IF_(want, role, value, name) +(FR_ROLE_##role == (want) ? (value) + 1 : 0)
#define FR_MODE_OF_(want) (-1 FR_ARCH_CLOCK_MODES(FR_MODE_IF_, want))
#define FR_MODE_ONE_(unused, role, value, name) +1
/* Whether the CPU has x86's paravirtual clock pages below the data page. */
#define FR_HAS_VCLOCK (FR_MODE_OF_(FR_ROLE_PVCLOCK) >= 0)

enum {
	FR_MODE_NONE = 0,
	FR_MODE_COUNTER = FR_MODE_OF_(FR_ROLE_COUNTER),
	FR_MODE_COUNTER_ALT = FR_MODE_OF_(FR_ROLE_COUNTER_ALT) >= 0 ? FR_MODE_OF_(FR_ROLE_COUNTER_ALT)
								      : FR_MODE_OF_(FR_ROLE_COUNTER),
	FR_MODE_PVCLOCK = FR_MODE_OF_(FR_ROLE_PVCLOCK),
	FR_MODE_HVCLOCK = FR_MODE_OF_(FR_ROLE_HVCLOCK),
	/* The values are 1, 2, ... in order (arch/arch.h): the last is their count. */
	FR_MODE_LAST = 0 FR_ARCH_CLOCK_MODES(FR_MODE_ONE_, 0),
};

/*
 * Whether a clock mode's value is the CPU's counter itself: one compare where both numbers are
 * one, or, where the architecture's vDSO reads the counter in every mode but none
 * (FR_ARCH_MODE_ANY_COUNTER), the same test as the kernel's.
 */
static inline __attribute__((always_inline)) int fr_mode_is_counter(int32_t mode)
{
	if (FR_ARCH_MODE_ANY_COUNTER)
		return mode != FR_MODE_NONE;
	return mode == FR_MODE_COUNTER || mode == FR_MODE_COUNTER_ALT;
}

/* Whether a clock mode is the paravirtual clock of a pvclock page (never, without FR_HAS_VCLOCK). */
static inline __attribute__((always_inline)) int fr_mode_is_pvclock(int32_t mode)
{
	return FR_HAS_VCLOCK && mode == FR_MODE_PVCLOCK;
}

/* The same for the Hyper-V TSC page. */
static inline __attribute__((always_inline)) int fr_mode_is_hvclock(int32_t mode)
{
	return FR_HAS_VCLOCK && mode == FR_MODE_HVCLOCK;
}

/* Whether the fast path computes a mode: the counter, or the pvclock. */
static inline int fr_mode_served(int32_t mode)
{
	return fr_mode_is_counter(mode) || fr_mode_is_pvclock(mode);
}

/* Offsets inside one clock entry (struct vdso_data 5.3-6.14, struct vdso_clock 6.15+). */
enum {
	FR_OFF_SEQ = 0,         /* u32 */
	FR_OFF_MODE = 4,        /* s32 clock_mode */
	FR_OFF_CYCLE_LAST = 8,  /* u64 */
	FR_OFF_MAX_CYCLES = 16, /* u64, only with GENERIC_VDSO_OVERFLOW_PROTECT (6.10+) */
	/* Without max_cycles: mask 16, mult 24, shift 28, basetime 32; with it, each 8 bytes later. */
	FR_OFF_MASK = 16,
	FR_OFF_MULT = 24,
	FR_OFF_SHIFT = 28,
	FR_OFF_BASETIME = 32,   /* struct vdso_timestamp {u64 sec; u64 nsec;} basetime[12] */
};

#define FR_CLOCK_RAW_ID 4 /* CLOCK_MONOTONIC_RAW: index into basetime[] and the timens offset[] */

/* struct pvclock_vcpu_time_info (arch/x86/include/asm/pvclock-abi.h), stable since 2.6. */
enum {
	FR_PV_VERSION = 0,
	FR_PV_TSC_TIMESTAMP = 8,
	FR_PV_SYSTEM_TIME = 16,
	FR_PV_MUL = 24,
	FR_PV_SHIFT = 28,
	FR_PV_FLAGS = 29,
	FR_PV_STABLE_BIT = 1,
};

/*
 * struct ms_hyperv_tsc_page (include/clocksource/hyperv_timer.h, hyperv-tlfs.h), stable since 4.11.
 * It is the page after the pvclock page in every era from 5.3 on, and faults until the kernel has
 * used clock mode hvclock.
 */
enum {
	FR_HV_SEQUENCE = 0, /* u32; 0 means the page is invalid */
	FR_HV_SCALE = 8,    /* u64 */
	FR_HV_OFFSET = 16,  /* s64 */
};

/* Where one era keeps the CS_RAW clock entry and its neighbours (include/vdso/datapage.h by era). */
struct fr_layout {
	const char *name;        /* the era, as FASTRAW_DEBUG prints it: "6.15-6.16" */
	enum fr_rules rules;     /* delta rules (rawmath.h) */
	uint32_t pages_below;    /* [vvar] starts this many pages below the vDSO image */
	uint32_t data_off;       /* offset of clock_data[0] in a data page */
	uint32_t clock_size;     /* sizeof one clock entry */
	uint32_t field_shift;    /* 8 where max_cycles precedes mask/mult/shift/basetime, else 0 */
	uint32_t hrtimer_off;    /* offset of hrtimer_res from clock_data[0] */
	uint32_t timens_page;    /* page of [vvar] holding the real data inside a time namespace; 0: none */
	uint32_t timens_mode;    /* clock_mode marking a namespace page: UINT_MAX in 5.6, INT_MAX from 5.7 */
	uint32_t vclock_page;    /* pvclock page, in pages from the start of [vvar] (when /proc is missing) */
};

/* The pages of one process. vclock may be NULL: then pvclock and hvclock modes pass through. */
struct fr_kdata {
	const struct fr_layout *lay;
	const volatile uint8_t *vvar;   /* start of [vvar] */
	const volatile uint8_t *vclock; /* the vCPU0 pvclock_vsyscall_time_info page */
	const volatile uint8_t *hvclock; /* the Hyper-V TSC page: vclock + 1 page, or NULL */
	const volatile uint8_t *raw0;   /* the CS_RAW entry on page 0 */
	const volatile uint8_t *raw_ns; /* the CS_RAW entry with the real data in a time namespace, or NULL */
	const volatile uint8_t *hres0;  /* the CS_HRES_COARSE entry on page 0 (served clocks) */
	const volatile uint8_t *hres_ns; /* the CS_HRES_COARSE entry with the real data in a namespace, or NULL */
	const volatile uint8_t *pv_fast; /* vclock, or a stand-in whose stable bit is clear: never NULL */
};

/* Fills kd for the pages at vvar (and the pvclock page at vclock, the Hyper-V page after it, or NULL). */
void fr_kdata_init(struct fr_kdata *kd, const struct fr_layout *lay, const volatile uint8_t *vvar,
		   const volatile uint8_t *vclock);

/*
 * The newest kernel release whose data-page layout and vDSO code this build was checked against
 * (7.2 and 7.3 from Debian's headers and vDSO binaries; docs/kernel-data.md §11).
 * A newer release is not refused for its number: see startup/locate.h.
 */
#define FR_NEWEST_KNOWN_MAJOR 7u
#define FR_NEWEST_KNOWN_MINOR 3u
#define FR_NEWEST_KNOWN "7.3"

/* Where a release stands against the known layouts. */
enum fr_release_kind {
	FR_REL_KNOWN,     /* one era's release range covers it */
	FR_REL_OLD,       /* before 5.3: no RAW data by its number */
	FR_REL_NEWER,     /* after FR_NEWEST_KNOWN */
	FR_REL_UNPARSED,  /* not "MAJOR.MINOR..." */
};

/* The major and minor of a release ("6.18.44-fc" gives 6, 18); 0, or -1 when it has no "N.N" start. */
int fr_release_parse(const char *release, unsigned *major, unsigned *minor);

/*
 * The layout for a kernel release ("6.18.44-fc"), or NULL with *why set: pre-5.3, newer than
 * known, or unparsable. *kind (may be NULL) says which.
 */
const struct fr_layout *fr_layout_for_release_kind(const char *release, const char **why,
						   enum fr_release_kind *kind);
const struct fr_layout *fr_layout_for_release(const char *release, const char **why);

/* The layout whose name starts with name ("5.3", "6.10", "6.15"...), for tests and tools. */
const struct fr_layout *fr_layout_by_name(const char *name);

/* The known layouts newest first: i = 0 is the newest; NULL past the oldest. */
const struct fr_layout *fr_layout_newest(unsigned i);

/* The CS_RAW entry of a data page (page index 0, or timens_page for the real data in a namespace). */
static inline const volatile uint8_t *fr_raw_entry(const struct fr_kdata *kd, uint32_t page)
{
	return kd->vvar + (size_t)page * FR_PAGE_SIZE + kd->lay->data_off + kd->lay->clock_size;
}

/* The CS_HRES_COARSE entry, the one before CS_RAW's, of a data page (every era's first entry). */
static inline const volatile uint8_t *fr_hres_entry(const struct fr_kdata *kd, uint32_t page)
{
	return kd->vvar + (size_t)page * FR_PAGE_SIZE + kd->lay->data_off;
}

/*
 * Checks that the pages at kd look like the era claims: even (or namespace) seq, a known mode,
 * mask ~0, shift < 64, one seq in both entries, a plausible hrtimer_res. Returns NULL, or a
 * static string naming the first inconsistency.
 */
const char *fr_kdata_check(const struct fr_kdata *kd);

/*
 * fr_kdata_check, and more, for a layout that the release number does not name: a wrong layout
 * must not pass. The clock mode is one the fast path computes (TSC or pvclock), hrtimer_res is
 * exactly 1, and both entries, which the kernel fills from one clocksource, agree on cycle_last,
 * mask, shift (and max_cycles); inside a namespace both entries carry its marker. NULL, or why not.
 */
const char *fr_kdata_check_strict(const struct fr_kdata *kd);

/* Whether the page at kd is inside a time namespace (namespace marker in the RAW entry). */
int fr_kdata_in_timens(const struct fr_kdata *kd);

/* The clock mode of the RAW entry on the page holding the real data. */
int fr_kdata_mode(const struct fr_kdata *kd);

const char *fr_mode_name(int mode);

/* Retries of the seqcount loops before giving the call to the real vDSO: never a hang. */
#define FR_SEQ_TRIES 128

#pragma GCC visibility pop

#endif
