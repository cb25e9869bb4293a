/* SPDX-License-Identifier: MIT */
/* The hot path's words: the copies of start-up's decisions that every export and syscall()'s stub read, in one record. */
#ifndef FR_HOT_H
#define FR_HOT_H

#include <stddef.h>

#include "arch/stubs.h"
#include "base/clockfn.h"

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * What the served-clocks dispatchers read (startup/served.c fills it before it publishes one):
 * the clocks each reader answers, the coarse reader, and where every other call goes (libc's
 * convention). Written once, before the release store that publishes a dispatcher. The
 * counting dispatcher's and fr_served_read's own: the high-resolution reader, whether
 * FASTRAW_STATS counts, and the clocks served (0 until the release store that follows them).
 */
struct fr_served {
	unsigned hres, coarse;
	fr_clock_read_fn coarse_read;
	fr_clock_fn next;
	fr_clock_read_fn hres_read;
	int counts;
	unsigned mask;
};

/*
 * Every word the hot path reads, other than the kernel's pages (fr_kd, exact/fastpath.h): copies
 * of what start-up decides (startup/runtime.h's struct fr_state, published by one release store),
 * written by start-up before or at that publication, and the pass-through's targets, resolved
 * once by whichever call comes first. Each starts 0 (NULL), which needs no relocation: a reader
 * that finds 0 takes the cold path that fills it. The one exception is real, which starts at
 * the pass-through's init trampoline (passthru/passthru.c defines the record). One object, so
 * that every export finds its word by one PC-relative load, as before.
 */
struct fr_hot {
	/*
	 * Read by syscall()'s stub, at the offsets arch/stubs.h names (checked below): FASTRAW_SYSCALL
	 * (FR_RAW_MODE_*), the other clocks it serves (clock-id bits, 0 until initialisation sets
	 * them when FASTRAW_SYSCALL=1), and the next syscall() in the chain (NULL until found).
	 */
	int syscall_raw_mode;
	unsigned syscall_clocks;
	void *syscall_next;
	/* The RAW entry chosen by initialisation (startup/runtime.h's fr_raw_call); NULL before it. */
	fr_raw_fn raw;
	/* The pass-through target in the vDSO's convention (passthru/real.h); starts at a trampoline. */
	fr_real_fn real;
	/* Where every clock but RAW goes, in libc's convention (passthru/passthru.h), or NULL. */
	fr_clock_fn pass;
	/* The vDSO reached straight from the exported clock_gettime (passthru/direct.h), or NULL. */
	fr_real_fn direct;
	/* FASTRAW_CLOCKS's other clocks, as the dispatchers read them (exact/clocks.h). */
	struct fr_served served;
	/* FASTRAW_DEBUG=1, as initialisation read it (0 before it). */
	int debug;
	/* FASTRAW_STATS=1, as initialisation read it: the counting paths are on (report/stats.h). */
	int stats_on;
};

extern struct fr_hot fr_hot __attribute__((visibility("hidden")));

_Static_assert(offsetof(struct fr_hot, syscall_raw_mode) == FR_HOT_SYSCALL_RAW_MODE, "the syscall stub's mode word");
_Static_assert(offsetof(struct fr_hot, syscall_clocks) == FR_HOT_SYSCALL_CLOCKS, "the syscall stub's clocks word");
_Static_assert(offsetof(struct fr_hot, syscall_next) == FR_HOT_SYSCALL_NEXT, "the syscall stub's next pointer");
_Static_assert(sizeof(((struct fr_hot *)0)->syscall_raw_mode) == 4 && sizeof(((struct fr_hot *)0)->syscall_clocks) == 4,
	       "the stubs load 32-bit words");

#pragma GCC visibility pop

#endif
