/* SPDX-License-Identifier: MIT */
/* The tools' entries (interpose/tools.h): start-up's own functions, under the names the tools may call. */
#include "interpose/tools.h"
#include "calib/calib_source.h"
#include "exact/fastpath.h"
#include "kdata/gtod.h"
#include "startup/decide.h"
#include "startup/locate.h"
#include "startup/start.h"

const struct fr_status *fr_tool_decide(const char *release)
{
	if (release)
		fr_init_release(release);
	else
		fr_init();
	return fr_status_get();
}

void fr_tool_start(void)
{
	fr_start();
}

void fr_tool_cpu_probe(struct fr_cpu_features *out)
{
	fr_cpu_probe(out);
}

enum fr_counter_mode fr_tool_choose_counter(const struct fr_env *env, const struct fr_cpu_features *cpu,
					    int *ordered_missing)
{
	return fr_choose_counter(env, cpu, ordered_missing);
}

const char *fr_tool_locate(const char *release, enum fr_counter_mode ctr, fr_real_fn real, struct fr_kdata *kd,
			   struct fr_pick *pick)
{
	return fr_locate(release, fr_counter_for(ctr), real, kd, pick);
}

const char *fr_tool_self_test(const struct fr_kdata *kd, enum fr_counter_mode ctr, fr_real_fn real)
{
	return fr_self_test(kd, fr_counter_for(ctr), real);
}

const char *fr_tool_pages(const struct fr_status *st, struct fr_kdata *own, struct fr_pick *pick,
			  const struct fr_kdata **kd)
{
	if (st->mode >= 0 && fr_kd.lay) {
		/* Initialisation found and checked the pages: exactly those. */
		*kd = &fr_kd;
		return NULL;
	}
	__builtin_memset(own, 0, sizeof(*own));
	*kd = own;
	return fr_locate(st->release, fr_counter_for(st->counter), fr_real_get(), own, pick);
}

const char *fr_tool_cal_ineligible(const struct fr_status *st, const struct fr_cpu_features *cpu)
{
	struct fr_gtod gtod;

	return fr_cal_eligible(cpu, fr_cal_gtod(st->release, &gtod) == 0 ? &gtod : NULL);
}
