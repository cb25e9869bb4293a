/* SPDX-License-Identifier: MIT */
/* End-to-end: which path serves CLOCK_MONOTONIC_RAW and which counter instruction it executes, in every FASTRAW_TSC mode, from the debug line and a single-stepped call. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "harness.h"

#define WARNING "warning: "

/* FASTRAW_TSC for each run of the loop: unset, then every accepted value. */
static const char *const modes[] = { NULL, FR_ARCH_COUNTER_NAME_UNORDERED, FR_ARCH_COUNTER_NAME_FENCED,
				     FR_ARCH_COUNTER_NAME_ORDERED };

/* What the trace probe counted in the traced call (it prints more, shown on failure): x86 instructions. */
struct trace {
	int64_t rdtsc, rdtscp, lfence, syscall, vdso;
};

/* rdtscp asked for on a CPU without it: one warning, and lfence is read instead. */
static int rdtscp_missing(const char *tsc)
{
	return tsc && strcmp(tsc, E2E_ORDERED) == 0 && !e2e_cpu_has_ordered();
}

static const char *counter_for(const char *tsc)
{
	if (!tsc)
		return e2e_default_counter();
	return rdtscp_missing(tsc) ? E2E_FENCED : tsc;
}

/* stderr holds the rdtscp warning where one is due, and debug_lines other lines. */
static void assert_warnings(const struct e2e_result *r, const char *tsc, int debug_lines)
{
	int warn = rdtscp_missing(tsc);

	ck_assert_msg(e2e_count_lines(r->err) == warn + debug_lines &&
			      e2e_count_lib_lines(r->err, WARNING) == warn &&
			      (!warn || e2e_count_lines_with(r->err, E2E_TSC(E2E_ORDERED)) == 1),
		      "want %d rdtscp warning(s) and %d other line(s), stderr:\n%.*s", warn, debug_lines,
		      E2E_SHOWN, r->err);
}

/* run names the run in the progress line: how many calls were traced, and how slow a step was. */
static void run_trace(struct e2e_result *r, const char *run, const char *const *env, struct trace *t)
{
	const struct e2e_opts opts = { .env = env };

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_TRACE")));
	e2e_assert_ok(r);
	printf("e2e_path: %s: traced %lld call(s), %lld steps, %lld ns a step\n", run,
	       (long long)e2e_int_value(r->out, "traces"), (long long)e2e_int_value(r->out, "steps"),
	       (long long)e2e_int_value(r->out, "step_ns"));
	e2e_assert_served(r, "served");
	t->rdtsc = e2e_int_value(r->out, "rdtsc");
	t->rdtscp = e2e_int_value(r->out, "rdtscp");
	t->lfence = e2e_int_value(r->out, "lfence");
	t->syscall = e2e_int_value(r->out, "syscall");
	t->vdso = e2e_int_value(r->out, "vdso_steps");
}

/* run names the run in the message: its environment and the counter it reads. */
static void expect(const struct e2e_result *r, const char *run, int ok, const char *want)
{
	ck_assert_msg(ok, "%s: want %s; probe output:\n%.*s", run, want, E2E_SHOWN, r->out);
}

/* The kernel answers: the vDSO is entered and makes the system call, nothing reads the counter. */
static void assert_trace_passthrough(const struct e2e_result *r, const char *run, const struct trace *t)
{
	expect(r, run, t->rdtsc == 0 && t->rdtscp == 0 && t->syscall >= 1 && t->vdso >= 1,
	       "pass-through: rdtsc=0 rdtscp=0 syscall>=1 vdso_steps>=1");
}

/* The library answers itself: no vDSO code, no system call, and only the counter read chosen. */
static void assert_trace_active(const struct e2e_result *r, const char *run, const char *counter,
				const struct trace *t)
{
	expect(r, run, t->syscall == 0 && t->vdso == 0, "the fast path: syscall=0 vdso_steps=0");
	if (strcmp(counter, "rdtscp") == 0)
		expect(r, run, t->rdtscp >= 1 && t->rdtsc == 0, "rdtscp>=1 rdtsc=0");
	else if (strcmp(counter, "lfence") == 0)
		expect(r, run, t->lfence >= t->rdtsc && t->rdtsc >= 1 && t->rdtscp == 0,
		       "rdtsc>=1 lfence>=rdtsc rdtscp=0");
	else
		expect(r, run, t->rdtsc >= 1 && t->rdtscp == 0 && t->lfence == 0,
		       "rdtsc>=1 rdtscp=0 lfence=0");
}

START_TEST(path_by_mode)
{
	const char *mode = modes[_i], *counter = counter_for(mode);
	char tsc[32], run[64];
	/* The bracket run asks for the debug line; the trace (env + 1) only sets FASTRAW_TSC, if any. */
	const char *const env[] = { "FASTRAW_DEBUG=1", mode ? tsc : NULL, NULL };
	const struct e2e_opts opts = { .env = env };
	struct e2e_result r;
	struct trace t;

	snprintf(tsc, sizeof(tsc), "FASTRAW_TSC=%s", mode ? mode : "");
	snprintf(run, sizeof(run), "%s, counter %s", mode ? tsc : "FASTRAW_TSC unset", counter);
	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_BRACKET"), "20000", "2"));
	e2e_assert_ok(&r);
	e2e_assert_served(&r, "served");
	ck_assert_int_eq(e2e_int_value(r.out, "samples"), 20000);
	ck_assert_int_eq(e2e_int_value(r.out, "violations"), 0);
	assert_warnings(&r, mode, 1);
	e2e_assert_debug(r.err, counter);
	e2e_result_free(&r);

	run_trace(&r, run, env + 1, &t);
	assert_warnings(&r, mode, 0);
	if (e2e_expect_passthrough())
		assert_trace_passthrough(&r, run, &t);
	else
		assert_trace_active(&r, run, counter, &t);
	e2e_result_free(&r);
}
END_TEST

/*
 * FASTRAW_DISABLE=1: the library hands the call to the vDSO, and the trace sees it there. Where
 * the vDSO reads the clocksource itself (tsc, kvm-clock) it reads the counter and makes no
 * system call; where it cannot (pass-through expected) it makes the system call.
 */
START_TEST(disabled_runs_the_vdso)
{
	struct e2e_result r;
	struct trace t;

	run_trace(&r, "FASTRAW_DISABLE=1", E2E_ENV("FASTRAW_DISABLE=1"), &t);
	e2e_assert_quiet(&r);
	if (e2e_expect_passthrough())
		assert_trace_passthrough(&r, "FASTRAW_DISABLE=1", &t);
	else
		expect(&r, "FASTRAW_DISABLE=1", t.vdso >= 1 && t.syscall == 0 && t.rdtsc + t.rdtscp >= 1,
		       "the vDSO's own reading: vdso_steps>=1 syscall=0 rdtsc+rdtscp>=1");
	e2e_result_free(&r);
}
END_TEST

static Suite *path_suite(void)
{
	Suite *s = suite_create("e2e_path");
	TCase *tc = e2e_tcase(s, "path");

	tcase_add_loop_test(tc, path_by_mode, 0, (int)(sizeof(modes) / sizeof(modes[0])));
	tcase_add_test(tc, disabled_runs_the_vdso);
	return s;
}

int main(void)
{
	return fr_run_suite(path_suite());
}
