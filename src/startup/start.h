/* SPDX-License-Identifier: MIT */
/* The constructor's share of start-up: what must happen before main, and what waits for the first RAW read. */
#ifndef FR_START_H
#define FR_START_H

#include <sys/utsname.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * The constructor's start-up. Under /etc/ld.so.preload every process runs it, and most never
 * read RAW: so it does only what cannot wait, and initialisation (startup/runtime.h) runs at the
 * first RAW read instead (or the first API call). What cannot wait:
 * - the one walk of the loader's list (the objects after ours, and whether a copy of the library
 *   comes first: elf/nextsym.h), which takes the loader's lock: a later first call may be in a
 *   child forked while another thread held that lock, or in a handler;
 * - uname, kept, and the kernel's answers about the pages it will read (startup/locate.h), and the
 *   vDSO's entry found: what a seccomp filter installed before the first RAW read could refuse
 *   (initialisation then still calls futex, for its page probes, and the clock itself; its claim
 *   asks the kernel nothing, startup/claim.h).
 * Everything runs now, as before, where waiting would change what a user sees or where the
 * inputs are files: FASTRAW_DEBUG, FASTRAW_STATS, FASTRAW_TSC, a FASTRAW_* value to warn about,
 * FASTRAW_SOURCE=calibrated, FASTRAW_CLOCKS naming more than RAW (its dispatcher serves calls
 * that never reach initialisation), a kernel release outside the known eras (before 5.3 calibrated
 * mode may read /proc, and the real vDSO has no RAW to fall back on), a later copy of the library.
 */
void fr_start(void);

/* The constructor's uname answer, kept: 0 with it in *out, -1 when there is none (the caller asks the kernel). */
int fr_start_uname(struct utsname *out);

#pragma GCC visibility pop

#endif
