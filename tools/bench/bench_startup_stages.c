/* SPDX-License-Identifier: MIT */
/* bench_startup_stages: where libfastraw's start-up goes, each constructor step timed once, cold, in a fresh process. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench/bench_startup.h"
#include "elf/vdso_elf.h"
#include "interpose/shadow.h"
#include "interpose/tools.h"
#include "passthru/passthru.h"
#include "proc/env.h"
#include "proc/maps.h"

/*
 * Usage: bench_startup_stages steps   one line "name ns" per step of the constructor, in its order
 *        bench_startup_stages start   one line "start ns": the constructor's share (fr_start), as every
 *                                     process pays it when no FASTRAW_* variable asks for more
 *        bench_startup_stages init    one line "init ns": the whole of initialisation (fr_tool_decide),
 *                                     as the first RAW read runs it (or the constructor, when a
 *                                     variable asks)
 *        bench_startup_stages processes N LIB [EMPTY]
 *                                     fastraw-bench's start-up measurement alone: N processes of
 *                                     /bin/true per preload (none, EMPTY, LIB), interleaved
 *
 * Linked against fastraw_core, so the steps are the library's own code; scripts/startup-breakdown.sh
 * runs this many times and takes medians. Every step runs once per process: the costs are the cold
 * ones (first touch of the code and data pages) that a short-lived process pays.
 */

static long long ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define STEP(name, stmt)                                       \
	do {                                                   \
		long long t0_ = ns();                          \
		stmt;                                          \
		printf("%s %lld\n", name, ns() - t0_);         \
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
	fr_real_fn real = { NULL };
	const char *why = NULL;
	int missing;
	enum fr_counter_mode ctr;

	/* The first clock_gettime pays for the vDSO page's first touch: not a step of ours. */
	(void)ns();
	STEP("real_resolve", real = fr_real_get());
	STEP("uname", uname(&uts));
	STEP("env_parse", fr_env_parse(environ, (int)getauxval(AT_SECURE), &env));
	STEP("cpu_probe", fr_tool_cpu_probe(&cpu));
	ctr = fr_tool_choose_counter(&env, &cpu, &missing);
	STEP("locate", why = fr_tool_locate(uts.release, ctr, real, &kd, &pick));
	/* Run by locate already when it found the pages without /proc (pick.judged). */
	if (!why && !pick.judged)
		STEP("self_test", why = fr_tool_self_test(&kd, ctr, real));
	printf("active %d\n", why == NULL);
	printf("judged_in_locate %d\n", pick.judged);
	/*
	 * Not constructor steps: the fallback's /proc read, and the shadow image on the first
	 * getauxval, asked for as a program would (it is off by default; main runs the tool again
	 * with FASTRAW_SHADOW_VDSO=1, as the configuration is read from the starting environment).
	 */
	STEP("maps_read_fallback", fr_maps_read(&maps));
	STEP("shadow_first_getauxval", fr_shadow_get(fr_vdso_base()));
}

/* The start-up row's measurement on its own, with the differences the row's goal is about. */
static int processes(int n, const char *lib, const char *empty)
{
	static const char *const name[SU_COUNT] = { "none", "empty", "fastraw" };
	struct bench_startup s;
	double med[SU_COUNT], flt[SU_COUNT];

	if (n < 1 || bench_startup_init(&s, lib, empty, n) != 0)
		return 1;
	bench_startup_batch(&s, n);
	printf("  %s, medians per process: CPU microseconds (user + system), minor page faults\n", s.program);
	for (int k = 0; k < SU_COUNT; k++) {
		med[k] = bench_startup_median(&s, (enum bench_startup_kind)k);
		flt[k] = bench_startup_median_faults(&s, (enum bench_startup_kind)k);
		if (med[k] >= 0)
			printf("  %-16s %9.1f us %6.0f faults  (%d runs)\n", name[k], med[k], flt[k], s.n[k]);
		else
			printf("  %-16s %9s\n", name[k], "-");
	}
	if (med[SU_EMPTY] >= 0)
		printf("  %-16s %+9.1f us %+6.0f faults\n", "fastraw - empty", med[SU_FASTRAW] - med[SU_EMPTY],
		       flt[SU_FASTRAW] - flt[SU_EMPTY]);
	printf("  %-16s %+9.1f us %+6.0f faults\n", "fastraw - none", med[SU_FASTRAW] - med[SU_NONE],
	       flt[SU_FASTRAW] - flt[SU_NONE]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "steps") == 0) {
		/* The shadow step needs FASTRAW_SHADOW_VDSO=1 in the environment the process starts with. */
		if (!getenv("FASTRAW_SHADOW_VDSO")) {
			setenv("FASTRAW_SHADOW_VDSO", "1", 1);
			execv("/proc/self/exe", argv);
			return 1;
		}
		steps();
	} else if (argc == 2 && strcmp(argv[1], "start") == 0) {
		(void)ns();
		STEP("start", fr_tool_start());
	} else if (argc == 2 && strcmp(argv[1], "init") == 0) {
		(void)ns();
		STEP("init", (void)fr_tool_decide(NULL));
	} else if ((argc == 4 || argc == 5) && strcmp(argv[1], "processes") == 0) {
		return processes(atoi(argv[2]), argv[3], argc == 5 ? argv[4] : NULL);
	} else {
		fprintf(stderr, "usage: bench_startup_stages steps|start|init|processes N LIB [EMPTY]\n");
		return 2;
	}
	return 0;
}
