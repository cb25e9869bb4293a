/* SPDX-License-Identifier: MIT */
/* End-to-end: a definition after libfastraw that leads to it (glibc 2.17 librt's IFUNC, wrappers of __clock_gettime and of the global clock_gettime) never makes a call loop, in every mode. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"

static const char *const probes[] = { "FR_PROBE_LOOP_IFUNC", "FR_PROBE_LOOP_WRAPPER", "FR_PROBE_LOOP_GLOBAL" };
#define N_PROBES (sizeof(probes) / sizeof(probes[0]))
/* The library's clock_gettime: none of its own (the IFUNC), one that ends, one that comes back round. */
enum { IFUNC, WRAPPER, GLOBAL };
static const char *const vias[] = { "direct", "default", "next" };
static const char *const clocks[] = { "realtime", "monotonic", "raw", "boottime", "process" };

/* The modes a program may run in: each takes its own path through the pass-through. */
static const char *const modes[] = { NULL, "FASTRAW_STATS=1", E2E_TSC(E2E_UNORDERED), "FASTRAW_SYSCALL=1",
				     "FASTRAW_DISABLE=1", "FASTRAW_SOURCE=calibrated" };
#define N_MODES (sizeof(modes) / sizeof(modes[0]))

/* Runs the probe and asserts every clock through every way answered inside the kernel's bracket. */
static void run_probe(struct e2e_result *r, const char *probe, const struct e2e_opts *opts)
{
	char key[64];

	e2e_run(r, opts, E2E_ARGV(e2e_need_env(probe), "null"));
	ck_assert_msg(!(WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGALRM),
		      "%s hung (still running after its alarm): a call went round in a loop\n%.*s", probe,
		      E2E_SHOWN, r->err);
	e2e_assert_ok(r);
	ck_assert_msg(strstr(r->out, "default=found\n") && strstr(r->out, "next=found\n"), "%s: a lookup failed:\n%.*s",
		      probe, E2E_SHOWN, r->out);
	for (size_t v = 0; v < sizeof(vias) / sizeof(vias[0]); v++)
		for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
			snprintf(key, sizeof(key), "%s.%s samples", vias[v], clocks[c]);
			ck_assert_int_gt(e2e_int_value(r->out, key), 0);
		}
	ck_assert_msg(e2e_count_lines_with(r->out, "violations=0") == 15, "%s: answers outside the kernel's bracket:\n%.*s",
		      probe, E2E_SHOWN, r->out);
	ck_assert_msg(strstr(r->out, "mono_null ret=-1 errno=14\n"), "%s: MONOTONIC with a NULL timespec:\n%.*s", probe,
		      E2E_SHOWN, r->out);
	ck_assert_msg(strstr(r->out, "done ret=0\n"), "%s did not finish:\n%.*s", probe, E2E_SHOWN, r->out);
}

/* How deep the library's own clock_gettime went inside itself (loop_lib.c), or -1 if not said. */
static int lib_depth(const struct e2e_result *r)
{
	const char *p = strstr(r->out, "lib_depth=");

	return p ? atoi(p + strlen("lib_depth=")) : -1;
}

/* Every shape in every mode: every clock answers inside the kernel's bracket and the probe ends. */
START_TEST(loop_modes)
{
	const char *probe = probes[_i / N_MODES];
	const char *mode = modes[_i % N_MODES];
	const char *env[] = { mode, NULL };
	const struct e2e_opts opts = { .env = mode ? env : NULL };
	struct e2e_result r;

	run_probe(&r, probe, &opts);
	e2e_result_free(&r);
}
END_TEST

/*
 * The IFUNC is passed over without going round at all. The wrapper of __clock_gettime goes on to
 * libc's __clock_gettime, as each exported name chains to the next definition of that same name:
 * it runs once a call, never inside itself. The wrapper of the global clock_gettime, an ordinary
 * function in another object that leads back into libfastraw, can only be stopped by the depth
 * bound: it runs inside itself, and FASTRAW_DEBUG says so once.
 */
START_TEST(loop_debug_says)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_DEBUG=1") };
	struct e2e_result r;
	int global = _i == GLOBAL;

	run_probe(&r, probes[_i], &opts);
	ck_assert_int_eq(e2e_count_lib_lines(r.err, "loop: clock_gettime came back into libfastraw"), global);
	if (_i == IFUNC)
		ck_assert_int_eq(lib_depth(&r), 0);
	else if (_i == WRAPPER)
		ck_assert_int_eq(lib_depth(&r), 1);
	else
		ck_assert_int_gt(lib_depth(&r), 1);
	e2e_result_free(&r);
}
END_TEST

/* Without libfastraw every probe passes, and no wrapper runs inside itself: their expectations are libc's own behaviour. */
START_TEST(loop_libc_baseline)
{
	const struct e2e_opts opts = { .no_preload = 1 };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env(probes[_i])));
	e2e_assert_ok(&r);
	ck_assert_int_eq(e2e_count_lines_with(r.out, "violations=0"), 15);
	ck_assert_int_eq(lib_depth(&r), _i == IFUNC ? 0 : 1);
	e2e_result_free(&r);
}
END_TEST

/*
 * Records that calls siglongjmp'd out of leave behind never make a later call skip the
 * interposer after libfastraw: 12 jumps out of it, each from a deeper frame that leaves its
 * memory unwritten, then calls at every depth still reach it. The probe links the interposer,
 * so it follows libfastraw in the loader's list; without libfastraw it answers too.
 */
START_TEST(loop_jumps_keep_interposer)
{
	const struct e2e_opts opts = { .env = _i == 1 ? E2E_ENV("FASTRAW_DEBUG=1") : NULL, .no_preload = _i == 2 };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_JUMPS")));
	e2e_assert_ok(&r);
	ck_assert_msg(strstr(r.out, "before=1\n") && strstr(r.out, "after_shallow=1\n") &&
			      strstr(r.out, "after_deep=1\n") && strstr(r.out, "after_middle=1\n"),
		      "the interposer after libfastraw was passed over:\n%.*s", E2E_SHOWN, r.out);
	ck_assert_int_eq(e2e_count_lib_lines(r.err, "loop: "), 0);
	e2e_result_free(&r);
}
END_TEST

/*
 * A record of a forwarding call is never read once its frame is gone: a coroutine that a handler
 * siglongjmps out of the interposer after libfastraw is abandoned and its stack unmapped; a
 * second coroutine, on a stack below it, then calls through the interposer. Without libfastraw
 * the program runs to the end too.
 */
START_TEST(loop_abandoned_coroutine)
{
	const struct e2e_opts opts = { .env = _i == 1 ? E2E_ENV("FASTRAW_DEBUG=1") : NULL, .no_preload = _i == 2 };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_COROUTINE")));
	e2e_assert_ok(&r);
	ck_assert_msg(strstr(r.out, "abandoned=1\n") && strstr(r.out, "later_calls=4\n"),
		      "the calls after the abandoned coroutine failed:\n%.*s", E2E_SHOWN, r.out);
	ck_assert_int_eq(e2e_count_lib_lines(r.err, "loop: "), 0);
	e2e_result_free(&r);
}
END_TEST

static Suite *loop_suite(void)
{
	Suite *s = suite_create("e2e_loop");
	TCase *tc = e2e_tcase(s, "loop");

	tcase_add_loop_test(tc, loop_modes, 0, (int)(N_PROBES * N_MODES));
	tcase_add_loop_test(tc, loop_debug_says, 0, (int)N_PROBES);
	tcase_add_loop_test(tc, loop_libc_baseline, 0, (int)N_PROBES);
	tcase_add_loop_test(tc, loop_jumps_keep_interposer, 0, 3);
	tcase_add_loop_test(tc, loop_abandoned_coroutine, 0, 3);
	return s;
}

int main(void)
{
	return fr_run_suite(loop_suite());
}
