/* SPDX-License-Identifier: MIT */
/* The pre-5.3 kernel data page (vsyscall_gtod_data): its layouts, which one a page holds, and one consistent read of it. */
#ifndef FR_GTOD_H
#define FR_GTOD_H

#include <stdint.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * The pre-5.3 data page (vsyscall_gtod_data at vvar+128), in the layouts of
 * docs/kernel-data.md §2.1-2.3: 3.10, 3.10 built with lockdep (a 40-byte seqcount), 3.16-4.19,
 * 4.20-5.2. It has no RAW data; its mult is the NTP-adjusted one, good enough for a seed. Clock
 * mode numbers differ by era (§5 table).
 */
enum fr_gtod_era { FR_GTOD_3_10, FR_GTOD_4_X, FR_GTOD_4_20, FR_GTOD_3_10_DEBUG, FR_GTOD_ARM_4_1 };
/* x86's layouts, the ones fr_gtod_read knows, come first. */
#define FR_GTOD_ERAS 4
/*
 * FR_GTOD_ARM_4_1 is 32-bit ARM's struct vdso_data of 4.1-5.4 (kdata/armdata.h), the same kind
 * of page: no RAW data, the NTP-adjusted mult, read only for calibrated mode's seed. Its
 * fr_gtod.tsc is the page's tk_is_cntvct (the vDSO reads the counter) and mode holds that flag.
 */

struct fr_gtod {
	int tsc;        /* the clock mode is TSC */
	int era;        /* the layout it was read with (enum fr_gtod_era) */
	uint32_t mode;  /* raw mode value */
	uint64_t cycle_last, mask;
	uint32_t mult, shift;
	/*
	 * The realtime base (seconds, nanoseconds << shift) and its coarse copy (seconds,
	 * nanoseconds) as this layout places them: the kernel writes all four from the same
	 * timekeeper fields in each update, so they agree only where the layout is the page's own.
	 */
	uint64_t rt_sec, rt_snsec, coarse_sec, coarse_nsec;
};

/*
 * 3.10's gtod page (RHEL 7's): VVAR_ADDRESS, a fixmap page at -10 MiB - 4 KiB, above every user
 * mapping, which its vDSO addresses with absolute operands (fr_arch_abs_refs). Later kernels map
 * the page as [vvar] instead. 0 where the CPU's kernels had no gtod data.
 */
#define FR_GTOD_FIXED_PAGE (FR_ARCH_OLD_DATA == FR_OLD_DATA_GTOD ? 0xffffffffff5ff000ULL : 0ULL)

/*
 * The era for a release string ("3.10.0-1160.el7.x86_64", "4.19.0"): x86's by its number where
 * FR_ARCH_OLD_DATA is FR_OLD_DATA_GTOD, FR_GTOD_ARM_4_1 for 4.1-5.4 where it is FR_OLD_DATA_ARM;
 * -1 for later, unknown, or an architecture with neither.
 */
int fr_gtod_era_for_release(const char *release);
/* The layout's name as docs/kernel-data.md gives it ("3.10", "3.10-debug", "3.16-4.19", "4.20-5.2", "arm-4.1-5.4"); "?" for others. */
const char *fr_gtod_era_name(int era);
/* Decodes one gtod copy inside its seqcount (page points at the vvar page; +128 is added
   here) and checks it is laid out as era says. Returns NULL or why it could not (odd seq that
   never settles, implausible values, a page of another shape). */
const char *fr_gtod_read(const volatile uint8_t *page, enum fr_gtod_era era, struct fr_gtod *out);
/*
 * Reads the page in the layout it holds, whatever the release says: the one layout whose
 * fr_gtod_read accepts it (out->era). Where several do (a page whose realtime base says too
 * little, as one still all zero), the release's layout (release_era, -1 for none) is taken if
 * among them. Returns NULL, or why no layout fits (the release layout's reason where it has one).
 */
const char *fr_gtod_read_any(const volatile uint8_t *page, int release_era, struct fr_gtod *out);
/* The same among the layouts in eras (a mask of 1 << era): only 3.10's for its fixed-address page. */
const char *fr_gtod_read_among(const volatile uint8_t *page, int release_era, unsigned eras, struct fr_gtod *out);
#define FR_GTOD_ALL_LAYOUTS ((1u << FR_GTOD_ERAS) - 1)
#define FR_GTOD_3_10_LAYOUTS (1u << FR_GTOD_3_10 | 1u << FR_GTOD_3_10_DEBUG)
/* Whether a page read (g) holds another layout than its release implies (release_era, -1 for none). */
int fr_gtod_layout_differs(int release_era, const struct fr_gtod *g);

#pragma GCC visibility pop

#endif
