/* SPDX-License-Identifier: MIT */
/* Times each step of libfastraw's start-up once, cold, in a fresh process: where the constructor's time goes. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <time.h>

#include "interpose/shadow.h"
#include "startup/decide.h"
#include "startup/locate.h"
#include "startup/runtime.h"
#include "arch/x86_64/counter.h"
#include "proc/env.h"
#include "proc/maps.h"
#include "elf/vdso_elf.h"

/*
 * Usage: stages steps   one line "name ns" per step of what the constructor does, in its order
 *        stages init    one line "init ns": the whole of fr_init, as the constructor runs it
 *        stages cpuid   one line "cpuid ns": a single CPUID (a trap to the hypervisor in a VM)
 *
 * Linked against fastraw_core, so the steps are the library's own code; the script runs this
 * many times and takes medians. Every step runs once per process: the costs are the cold ones
 * (first touch of the code and data pages) that a short-lived process pays.
 */

static long long ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define STEP(name, stmt)                                          \
	do {                                                      \
		long long t0_ = ns();                             \
		stmt;                                             \
		printf("%s %lld\n", name, ns() - t0_);            \
	} while (0)

extern char **environ;

static void steps(void)
{
	struct utsname uts;
	struct fr_env env;
	struct fr_cpu_features cpu;
	struct fr_kdata kd;
	struct fr_pick pick;
	struct fr_maps maps;
	fr_real_fn real = NULL;
	const char *why = NULL;
	int missing;
	enum fr_counter_mode ctr;

	/* The first clock_gettime pays for the vDSO page's first touch: not a step of ours. */
	(void)ns();
	STEP("real_resolve", real = fr_real_get());
	STEP("uname", uname(&uts));
	STEP("env_parse", fr_env_parse(environ, (int)getauxval(AT_SECURE), &env));
	STEP("cpu_probe", fr_cpu_probe(&cpu));
	ctr = fr_choose_counter(&env, &cpu, &missing);
	STEP("locate", why = fr_locate(uts.release, fr_counter_for(ctr), real, &kd, &pick));
	/* Run by locate already when it found the pages without /proc (pick.judged). */
	if (!why && !pick.judged)
		STEP("self_test", why = fr_self_test(&kd, fr_counter_for(ctr), real));
	printf("active %d\n", why == NULL);
	printf("judged_in_locate %d\n", pick.judged);
	/*
	 * Not constructor steps: the fallback's /proc read, and the shadow image on the first
	 * getauxval, asked for as a program would (it is off by default).
	 */
	STEP("maps_read_fallback", fr_maps_read(&maps));
	setenv("FASTRAW_SHADOW_VDSO", "1", 1);
	STEP("shadow_first_getauxval", fr_shadow_get(fr_vdso_base()));
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "steps") == 0) {
		steps();
	} else if (argc == 2 && strcmp(argv[1], "init") == 0) {
		(void)ns();
		STEP("init", fr_init());
	} else if (argc == 2 && strcmp(argv[1], "cpuid") == 0) {
		unsigned a, b, c, d;

		(void)ns();
		STEP("cpuid", __cpuid(0x80000000u, a, b, c, d));
		(void)a;
		(void)b;
		(void)c;
		(void)d;
	} else {
		fprintf(stderr, "usage: stages steps|init|cpuid\n");
		return 2;
	}
	return 0;
}
