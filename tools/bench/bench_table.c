/* SPDX-License-Identifier: MIT */
/* Prints the goals table: each row's value against its baseline, as a difference and a ratio, and the goal. */
#include <stdio.h>
#include <string.h>

#include "bench/bench_table.h"
#include "common/tool_arch.h"

/* How a row's goal is stated: a bound on the difference, on the ratio, or none (a reference row). */
enum goal_kind { NO_GOAL, DIFF_AT_MOST, RATIO_AT_MOST };

struct row {
	const char *id; /* one word: scripts and the tests find rows by it */
	double value, base;
	enum goal_kind goal;
	double limit;
	const char *unit; /* of the difference goal: "us" or "ns" */
	const char *what;
};

/*
 * One row, every column one word: id, value, baseline, difference, ratio, goal, result, then
 * what the row compares. A value or baseline below 0 was not measured: "n/a".
 */
static int print_row(const struct row *w)
{
	char goal[24] = "-";
	const char *result = "-";
	int have = w->value >= 0, both = have && w->base > 0, missed = 0;

	if (w->goal == DIFF_AT_MOST)
		snprintf(goal, sizeof(goal), "<=%+.1f%s", w->limit, w->unit);
	else if (w->goal == RATIO_AT_MOST)
		snprintf(goal, sizeof(goal), "<=%.2fx", w->limit);
	if (w->goal != NO_GOAL) {
		if (!both)
			result = "n/a";
		else {
			double v = w->goal == DIFF_AT_MOST ? w->value - w->base : w->value / w->base;

			missed = v > w->limit;
			result = missed ? "missed" : "met";
		}
	}
	printf("  %-16s", w->id);
	if (have)
		printf(" %9.2f", w->value);
	else
		printf(" %9s", "n/a");
	if (both)
		printf(" %9.2f %+8.2f %7.3f", w->base, w->value - w->base, w->value / w->base);
	else
		printf(" %9s %8s %7s", "-", "-", "-");
	printf("  %-10s %-6s  %s\n", goal, result, w->what);
	return missed;
}

/* A header line: "key:" padded to 16 columns (at least one blank), then the value. */
static void header(const char *key, const char *value)
{
	int n = printf("%s:", key);

	printf("%*s%s\n", n < 16 ? 16 - n : 1, "", value);
}

/* The goal for default-mode RAW against the kernel's vDSO, by clocksource. */
static void default_goal(const struct bench_machine *m, struct row *w)
{
	if (strcmp(m->clocksource, FR_ARCH_CLOCKSOURCE) == 0) {
		/* The vDSO already reads the counter with an ordered or fenced read here: that read is the floor. */
		w->goal = RATIO_AT_MOST;
		w->limit = 1.05;
		w->what = "RAW default vs the vDSO's RAW called directly (" FR_ARCH_CLOCKSOURCE ": parity, <= 1.05x)";
	} else if (strcmp(m->clocksource, "kvm-clock") == 0) {
		w->goal = RATIO_AT_MOST;
		w->limit = 1 / 1.15;
		w->what = "RAW default vs the vDSO's RAW called directly (kvm-clock: >= 1.15x faster)";
	} else {
		w->what = "RAW default vs the vDSO's RAW called directly (no goal on this clocksource: see default-syscall)";
	}
}

/* The goal for MONOTONIC served (FASTRAW_CLOCKS=all) against the vDSO's MONOTONIC, by clocksource. */
static void clocks_goal(const struct bench_machine *m, struct row *w)
{
	if (strcmp(m->clocksource, FR_ARCH_CLOCKSOURCE) == 0) {
		w->goal = RATIO_AT_MOST;
		w->limit = 1.0;
		w->what = "MONOTONIC served (FASTRAW_CLOCKS=all) vs the vDSO's MONOTONIC (" FR_ARCH_CLOCKSOURCE ": <= the vDSO)";
	} else if (strcmp(m->clocksource, "kvm-clock") == 0) {
		w->goal = RATIO_AT_MOST;
		w->limit = 0.9;
		w->what = "MONOTONIC served (FASTRAW_CLOCKS=all) vs the vDSO's MONOTONIC (kvm-clock: <= 0.9x)";
	} else {
		w->what = "MONOTONIC served (FASTRAW_CLOCKS=all) vs the vDSO's MONOTONIC (no goal on this clocksource)";
	}
}

int bench_table_print(const struct bench_machine *m, const struct bench_goal_opts *o,
		      const struct bench_goal_results *r)
{
	int su_base = r->startup_runs[SU_EMPTY] > 0 ? SU_EMPTY : SU_NONE, missed = 0;
	char mode_what[128];
	struct row rows[] = {
		{ "startup", r->startup[SU_FASTRAW], r->startup[su_base], DIFF_AT_MOST, 10, "us",
		  su_base == SU_EMPTY ? "start-up of /bin/true (us per process): LD_PRELOAD=libfastraw vs an empty preload" :
					"start-up of /bin/true (us per process): LD_PRELOAD=libfastraw vs NO preload (no empty .so found)" },
		{ "startup-empty", r->startup[SU_EMPTY], r->startup[SU_NONE], NO_GOAL, 0, "",
		  "start-up of /bin/true (us per process): the empty preload vs no preload" },
		{ "passthrough", r->mono_def, r->vdso_mono_def, DIFF_AT_MOST, 0.4, "ns",
		  "MONOTONIC through the preload vs the vDSO called directly (same process)" },
		{ "passthrough-libc", r->libc_mono_none, r->vdso_mono_none, NO_GOAL, 0, "",
		  "MONOTONIC through libc's own clock_gettime, no preload, vs the vDSO called directly" },
		{ "stats-raw", r->raw_stats, r->raw_def, DIFF_AT_MOST, 1.0, "ns",
		  "RAW with FASTRAW_STATS=1 vs RAW without (two processes)" },
		{ "stats-mono", r->mono_stats, r->mono_def, DIFF_AT_MOST, 1.0, "ns",
		  "MONOTONIC with FASTRAW_STATS=1 vs MONOTONIC without (two processes)" },
		{ FR_ARCH_COUNTER_NAME_UNORDERED "-mode", r->raw_unordered, r->bare_unordered,
		  m->goal_name ? RATIO_AT_MOST : NO_GOAL, m->goal_limit, "", mode_what },
		{ "default-vdso", r->raw_def, r->vdso_raw_def, NO_GOAL, 0, "", "" },
		{ "clocks-mono", r->mono_clocks, r->vdso_mono_clocks, NO_GOAL, 0, "", "" },
		{ "clocks-" FR_ARCH_COUNTER_NAME_UNORDERED, r->mono_clocks_unordered, r->bare_unordered_clocks,
		  m->goal_name ? RATIO_AT_MOST : NO_GOAL, 1.05, "",
		  m->goal_name ? "MONOTONIC served with FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED " vs bare "
				 FR_ARCH_COUNTER_NAME_UNORDERED " (same process; <= 1.05x)" :
				 "MONOTONIC served with FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED " vs bare "
				 FR_ARCH_COUNTER_NAME_UNORDERED " (same process; no goal here)" },
		{ "default-syscall", r->raw_def, r->syscall_none, NO_GOAL, 0, "",
		  "RAW default vs the clock_gettime system call" },
		{ "bare-" FR_ARCH_COUNTER_NAME_UNORDERED, r->unordered_none, -1, NO_GOAL, 0, "",
		  "bare " FR_ARCH_COUNTER_NAME_UNORDERED " (no preload)" },
		{ "bare-" FR_ARCH_COUNTER_NAME_FENCED, r->fenced_none, -1, NO_GOAL, 0, "", "bare " TOOL_FENCED_WHAT " (no preload)" },
		{ "bare-" FR_ARCH_COUNTER_NAME_ORDERED, r->ordered_none, -1, NO_GOAL, 0, "",
		  m->ordered ? "bare " FR_ARCH_COUNTER_NAME_ORDERED " (no preload)" :
			       "bare " FR_ARCH_COUNTER_NAME_ORDERED ": n/a, the CPU has no " FR_ARCH_ORDERED_FEATURE },
	};

	/* The row holds mode_what's address; its words are written here, before any row is printed. */
	if (m->goal_name)
		snprintf(mode_what, sizeof(mode_what), "RAW with FASTRAW_TSC=%s vs bare %s (same process; the %s goal)",
			 FR_ARCH_COUNTER_NAME_UNORDERED, FR_ARCH_COUNTER_NAME_UNORDERED, m->goal_name);
	else
		snprintf(mode_what, sizeof(mode_what), "RAW with FASTRAW_TSC=%s vs bare %s (same process; no goal here)",
			 FR_ARCH_COUNTER_NAME_UNORDERED, FR_ARCH_COUNTER_NAME_UNORDERED);
	default_goal(m, &rows[7]);
	clocks_goal(m, &rows[8]);
	printf("cpu:            %s %s", m->vendor[0] ? m->vendor : "?", m->brand);
	if (m->goal_name)
		printf(" (" FR_ARCH_COUNTER_NAME_UNORDERED " goal: %s)", m->goal_name);
	putchar('\n');
	printf("kernel:         %s\n", m->release);
	printf("clocksource:    %s\n", m->clocksource);
	printf("counter:        %s (libfastraw's default here; fast path %s, source %s, clock mode %s)\n", r->counter,
	       r->active ? "active" : "off", r->source, r->clock_mode);
	header(tool_feature_key(), m->ordered ? "yes" : "no");
	header("invariant " FR_ARCH_COUNTER_WORD, m->invariant ? "yes" : "no");
	printf("\nGoals: median of %d interleaved rounds of %ld calls (syscall %ld), ns per call;\n", o->rounds, o->iters,
	       o->iters / 10 > 0 ? o->iters / 10 : 1);
	printf("start-up: median of %d, %d and %d runs (none, empty, libfastraw), us per process\n",
	       r->startup_runs[SU_NONE], r->startup_runs[SU_EMPTY], r->startup_runs[SU_FASTRAW]);
	printf("  %-16s %9s %9s %8s %7s  %-10s %-6s  %s\n", "row", "value", "baseline", "diff", "ratio", "goal", "result",
	       "what");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		missed += print_row(&rows[i]);
	printf("  (goals inform; a missed goal does not fail the run)\n");
	return missed;
}
