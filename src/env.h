/* SPDX-License-Identifier: MIT */
/* The FASTRAW_* environment variables, read from an environment block without getenv. */
#ifndef FR_ENV_H
#define FR_ENV_H

#include "counter.h"

#define FR_ENV_MAX_WARN 4

/* A variable whose value was not understood; the default was used. */
struct fr_env_warning {
	const char *name;     /* "FASTRAW_TSC" */
	const char *value;    /* points into the environment block */
	const char *accepted; /* "rdtscp, lfence, rdtsc" */
};

struct fr_env {
	int tsc_set;                  /* FASTRAW_TSC named a counter */
	enum fr_counter_mode tsc;     /* valid when tsc_set */
	int disable;                  /* FASTRAW_DISABLE=1 */
	int debug;                    /* FASTRAW_DEBUG=1 */
	int stats;                    /* FASTRAW_STATS=1 */
	int shadow_vdso;              /* FASTRAW_SHADOW_VDSO, default 1: getauxval(AT_SYSINFO_EHDR) gives the shadow image */
	int nwarn;
	struct fr_env_warning warn[FR_ENV_MAX_WARN];
};

/*
 * Parses envp (may be NULL). An empty value counts as unset. In a secure-execution process
 * (secure != 0: AT_SECURE, set-user-ID or /etc/ld.so.preload) every variable is ignored.
 */
void fr_env_parse(char *const *envp, int secure, struct fr_env *out);

#endif
