/* SPDX-License-Identifier: MIT */
/* Synthetic vDSO data pages of each era, laid out from docs/kernel-data.md, and their expected readings. */
#ifndef FR_TEST_SYNTH_H
#define FR_TEST_SYNTH_H

#include <check.h>
#include <stdint.h>
#include <time.h>

#include "kdata/kdata.h"
#include "model.h"
#include "cpu_test.h"

/*
 * One era's page geometry as docs/kernel-data.md states it (x86: §2.4-2.7 offsets, §5 modes, §8
 * namespaces; arm64: its own section), kept apart from src/kdata/eras_<cpu>.c's table so that
 * the pages test the library's offsets. Each architecture has its own eras (synth.c).
 */
struct era {
	const char *name;      /* key for fr_layout_by_name */
	enum m_era rules;      /* delta rules of the model */
	uint32_t raw;          /* CS_RAW entry (clock_data[1]) in the data page */
	uint32_t size;         /* one clock entry: clock_data[0] is at raw - size */
	int has_max;           /* max_cycles at +16, and mask/mult/shift/basetime 8 bytes later (x86 6.10+) */
	uint32_t hrtimer;      /* hrtimer_res in the data page */
	uint32_t timens_page;  /* page of [vvar] with the real data inside a namespace; 0: no namespaces */
	uint32_t timens_mode;  /* clock_mode marking a namespace page */
	const char *full;      /* the layout's whole name, as FASTRAW_DEBUG prints it */
	const char *release;   /* a kernel release of this era */
	uint32_t below;        /* [vvar] starts this many pages below the vDSO image */
	uint32_t vclock;       /* the pvclock page, in pages from [vvar] (x86; 0 elsewhere) */
	enum fr_rules lib_rules; /* the library's name for the delta rules */
	uint64_t mask;         /* the clocksource mask the kernel's pages carry */
};

/*
 * The architecture's eras, oldest first. x86-64: 5.3 to 6.17+, eight layouts; arm64: 5.10-6.14,
 * 6.15-6.16, 6.17+ (no max_cycles, the masked delta, a 56-bit counter mask).
 */
#define N_ERAS FRT_N_ERAS
extern const struct era eras[N_ERAS];

/* The arm64 generic timer's mask (at least 56 bits wide; CLOCKSOURCE_MASK(56) in arm_arch_timer.c). */
#define SYNTH_MASK56 ((1ULL << 56) - 1)

/*
 * A clock mode the fast path serves other than FR_MODE_COUNTER where there is one (x86:
 * pvclock, arm64: archtimer_nocompat), for tests that need two served modes.
 */
#if FR_HAS_VCLOCK
#define SYNTH_OTHER_MODE FR_MODE_PVCLOCK
#else
#define SYNTH_OTHER_MODE FR_MODE_COUNTER_ALT
#endif

#define SYNTH_PAGES 4

/*
 * Pages of one era: [vvar] (four pages, enough for every timens slot) and a pvclock page. Only
 * page 0 is accessible at first; writing a page makes it accessible, as using it does in the kernel.
 */
struct synth {
	const struct era *era;
	uint8_t *vvar;
	uint8_t *pv;   /* the pvclock page; the Hyper-V TSC page follows it, as in the kernel */
	uint8_t *hv;
	int pv_open, hv_open;
	unsigned open; /* bit n: [vvar] page n accessible */
	struct fr_kdata kd;
};

/* The fields a test writes into both clock entries of a data page. */
struct clockvals {
	uint32_t seq;
	uint32_t mode;
	uint64_t L;     /* cycle_last */
	uint64_t max;   /* max_cycles (6.10+) */
	uint32_t mult;
	uint32_t shift;
	uint64_t sec;   /* basetime[CLOCK_MONOTONIC_RAW].sec */
	uint64_t B;     /* basetime[CLOCK_MONOTONIC_RAW].nsec, shifted left by shift */
	uint64_t mask;  /* the clocksource mask; 0: the era's (synth_mask) */
};

/* The mask pages with v carry: v->mask, or the era's when v leaves it 0. */
uint64_t synth_mask(const struct era *e, const struct clockvals *v);

/* struct pvclock_vcpu_time_info, §6. */
struct pvvals {
	uint32_t version;
	uint64_t tsts;
	uint64_t sys;
	uint32_t mul;
	int8_t shift;
	uint8_t flags;
};

/* struct ms_hyperv_tsc_page, §7. */
struct hvvals {
	uint32_t seq;
	uint64_t scale;
	uint64_t offset;
};

/* The RAW offset of a time namespace ({s64 sec, u64 nsec} in place of basetime[4]). */
struct nsoff {
	int64_t sec;
	uint64_t nsec;
};

void synth_init(struct synth *s, int era_index);
void synth_free(struct synth *s);
/* Writes both entries of data page `page` (RAW gets v; clock_data[0] a different clocksource) and hrtimer_res. */
void synth_set_clock(struct synth *s, uint32_t page, const struct clockvals *v);
/* Gives clock_data[0] the RAW entry's cycle_last and max_cycles, as the kernel does (one clocksource). */
void synth_share_clocksource(struct synth *s, uint32_t page);
void synth_set_pv(struct synth *s, const struct pvvals *p);
/* Makes the pvclock page fault again, as it does while the clock mode is not pvclock. */
void synth_close_pv(struct synth *s);
void synth_set_hv(struct synth *s, const struct hvvals *h);
void synth_close_hv(struct synth *s);
/* Makes page 0 a time-namespace page with RAW offset off; the real data belongs on era->timens_page. */
void synth_set_timens(struct synth *s, const struct nsoff *off, uint32_t marker);
/* A field of an entry: idx 0 = clock_data[0], 1 = CS_RAW; off from §2.4 (without the max_cycles shift). */
uint8_t *synth_field(struct synth *s, uint32_t page, int idx, uint32_t off);
void synth_put32(uint8_t *p, uint32_t v);
void synth_put64(uint8_t *p, uint64_t v);

/*
 * What the era's vDSO answers for these pages and one counter value (§3, §6, §8): 1 and *ts,
 * or 0 when the library must leave the call to the real vDSO (syscall, or kernels disagree).
 */
int synth_expect(const struct era *e, const struct clockvals *v, const struct pvvals *p,
		 const struct nsoff *ns, uint64_t counter, struct timespec *ts);
/* synth_expect with the Hyper-V page too (h used in hvclock mode, p in pvclock mode). */
int synth_expect_vclock(const struct era *e, const struct clockvals *v, const struct pvvals *p,
			const struct hvvals *h, const struct nsoff *ns, uint64_t counter, struct timespec *ts);

/* The synthetic counter: first at the first call (after adding 2 to the u32 at bump, if set), then later. */
void synth_ctr_set(uint64_t first, uint64_t later, uint8_t *bump);
unsigned synth_ctr_calls(void);
/* One reading with the synthetic counter: g = 0 the fast path, g = 1 the reference (general) path. */
int synth_read(struct synth *s, int g, struct timespec *ts);
/* Both readings with counter value c give the era's answer for c (or both pass the call on). */
void synth_check_read(struct synth *s, const struct clockvals *v, const struct pvvals *p,
		      const struct nsoff *ns, uint64_t c, const char *what);
/* synth_check_read in hvclock mode, with the Hyper-V page's values h. */
void synth_check_read_hv(struct synth *s, const struct clockvals *v, const struct hvvals *h,
			 const struct nsoff *ns, uint64_t c, const char *what);

/* Test cases of fr_kdata_check and the layout tables (kdata_check.c). */
TCase *kdata_check_tcase(void);
TCase *kdata_release_tcase(void);
/* Test cases of fr_kdata_check_strict and fr_locate_in on synthetic pages (kdata_pick.c). */
TCase *kdata_pick_tcase(void);

/* Test cases of the hvclock readers (fastpath_hv.c). */
TCase *fastpath_hvclock_tcase(void);
/* Test cases of the readers under the generic masked delta (fastpath_masked.c). */
TCase *fastpath_masked_tcase(void);

#endif
