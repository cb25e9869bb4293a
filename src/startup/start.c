/* SPDX-License-Identifier: MIT */
/* The constructor's share of start-up: the walk and the system calls that cannot wait, the rest left to the first RAW read. */
#include "startup/start.h"

#include <errno.h>
#include <sys/auxv.h>
#include <time.h>

#include "startup/claim.h"
#include "startup/locate.h"
#include "startup/runtime.h"
#include "base/sys.h"
#include "elf/dynsym.h"
#include "elf/early.h"
#include "kdata/kdata.h"
#include "passthru/copies.h"
#include "passthru/passthru.h"
#include "proc/env.h"
#include "base/once.h"

/* uname's answer, a kept record (base/once.h): written once by the constructor; read-only after. */
static struct utsname kept_uts;

int fr_start_uname(struct utsname *out)
{
	if (!fr_keep_ready(&fr_word(FR_W_UTS_STATE)->i))
		return -1;
	*out = kept_uts;
	return 0;
}

/*
 * Whether the environment asks for what start-up prints, for calibrated mode, whose inputs are
 * files, or for clocks other than RAW, whose dispatcher initialisation puts in place (a program
 * that reads only CLOCK_MONOTONIC would otherwise never initialise).
 */
static int asks_now(const struct fr_env *e)
{
	return e->debug || e->stats || e->nwarn || e->tsc_set || e->source == FR_SRC_CALIBRATED ||
	       (e->clocks & ~(1u << CLOCK_MONOTONIC_RAW)) != 0;
}

void fr_start(void)
{
	enum fr_release_kind kind = FR_REL_UNPARSED;
	struct fr_env scratch;
	const struct fr_env *env;
	const char *why;
	int saved;

	if (!fr_relocated() || fr_state_published())
		return;
	saved = errno;
	/* The configuration is read here, before main, once (startup/runtime.h). */
	env = fr_env_get(&scratch);
	if (!asks_now(env) && fr_keep_claim(&fr_word(FR_W_UTS_STATE)->i)) {
		int ok = fr_sys_uname(&kept_uts) == 0;

		if (ok)
			fr_layout_for_release_kind(kept_uts.release, &why, &kind);
		fr_keep_done(&fr_word(FR_W_UTS_STATE)->i, ok);
	}
	/* fr_copy_later walks the list (once, kept); a later copy publishes what it always does. */
	if (kind != FR_REL_KNOWN || !fr_claim_quietly() || fr_copy_later())
		fr_init();
	else {
		/*
		 * The vDSO's entry, found by reading its image, which only the kernel can say is still
		 * mapped by then, and a seccomp filter may refuse the asking; the data pages' answers too.
		 */
		fr_real_get();
		fr_locate_probe(kept_uts.release);
	}
	errno = saved;
}
