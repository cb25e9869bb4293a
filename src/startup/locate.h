/* SPDX-License-Identifier: MIT */
/* Finding this process's kernel data pages and their layout: the release's own era, or one that the page and the vDSO prove. */
#ifndef FR_LOCATE_H
#define FR_LOCATE_H

#include <stdint.h>

#include "kdata/kdata.h"
#include "exact/fastpath.h"
#include "passthru/passthru.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/* What the vDSO's clock_gettime code says of the counter's S64_MAX mask (fr_arch_code_masks_counter). */
enum fr_code_mask {
	FR_CODE_UNKNOWN = 0, /* not read: no vDSO, no such symbol */
	FR_CODE_MASKS,       /* masks it: the 6.5+ delta rules */
	FR_CODE_NO_MASK,     /* does not: the 5.3-6.4 rules */
};

/* Where the vDSO's mappings are, and what its code says. */
struct fr_where {
	uintptr_t vdso;        /* [vdso] (AT_SYSINFO_EHDR); 0: no vDSO */
	uintptr_t vvar;        /* [vvar]; 0 when absent or unknown */
	uintptr_t vvar_vclock; /* [vvar_vclock]; 0 when absent or unknown */
	int from_maps;         /* 1: read from /proc/self/maps, so the distances are facts */
	enum fr_code_mask code; /* tells apart layouts that read one page alike */
};

/* The final judge of a layout that the release does not name: NULL when the fast path on kd
   agrees with the real vDSO, else why not. */
typedef const char *(*fr_judge_fn)(const struct fr_kdata *kd, void *ctx);

/* Which layout was chosen, and on what evidence. */
struct fr_pick {
	const char *era;  /* layout name, or "none" */
	int assumed;      /* 1: not the release's own layout: the page checks and the judge chose it */
	int judged;       /* 1: the judge (the self-test) has already passed on the chosen pages */
	char note[200];   /* when assumed: "assumed: <why>; page and vDSO agree"; else "" */
	char why[240];    /* storage of a composed reason that fr_locate_in returns */
};

/*
 * Chooses the layout of the pages at w and fills kd. The release's own era is taken when its
 * page checks pass (its self-test is the caller's). Otherwise, and only with /proc/self/maps,
 * other layouts are tried newest first (for a release newer than FR_NEWEST_KNOWN only the
 * newest): the first whose strict page checks (fr_kdata_check_strict) and judge pass is taken,
 * with pick->assumed set and pick->note saying why. Of two layouts that read the page alike and
 * differ in their delta rules (x86's 5.7-6.4 and 6.5-6.9), the one w->code names is taken;
 * newest first when the code was not read. Returns NULL, or why the pages cannot be used (kd is
 * then zeroed); the reason may point into pick->why.
 */
const char *fr_locate_in(const char *release, const struct fr_where *w, fr_judge_fn judge, void *ctx,
			 struct fr_kdata *kd, struct fr_pick *pick);

/* This process's mappings: /proc/self/maps, else only AT_SYSINFO_EHDR; and w->code from its vDSO. */
void fr_where_read(struct fr_where *w);

/*
 * Asks the kernel now whether the pages the release's own layout puts below the vDSO (and the
 * pvclock page, in pvclock mode) can be read, and keeps the answers for fr_locate: start-up's
 * constructor does, when initialisation waits for the first RAW read (startup/start.h).
 */
void fr_locate_probe(const char *release);

/* fr_locate_in for this process, judged by fr_self_test with counter against real. */
const char *fr_locate(const char *release, fr_counter_fn counter, fr_real_fn real, struct fr_kdata *kd,
		      struct fr_pick *pick);

#pragma GCC visibility pop

#endif
