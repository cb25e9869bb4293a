/* SPDX-License-Identifier: MIT */
/* End-to-end: calibrated mode (FASTRAW_SOURCE=calibrated) stays within its bound of the kernel, never goes backwards, keeps causality and survives fork. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "harness.h"

/* The promise: within 2 us of the kernel's readings around each value, after a 2 s warm-up. */
#define BOUND_NS 2000

static const char *const mode_default[] = { "FASTRAW_SOURCE=calibrated", NULL };
static const char *const mode_unordered[] = { "FASTRAW_SOURCE=calibrated", E2E_TSC(E2E_UNORDERED), NULL };
static const char *const mode_fenced[] = { "FASTRAW_SOURCE=calibrated", E2E_TSC(E2E_FENCED), NULL };
static const char *const *const modes[] = { mode_default, mode_unordered, mode_fenced };

static void assert_bounded(const struct e2e_result *r, const char *prefix)
{
	char key[64];

	snprintf(key, sizeof(key), "%sbackwards", prefix);
	ck_assert_msg(e2e_int_value(r->out, key) == 0, "went backwards:\n%.*s", E2E_SHOWN, r->out);
	snprintf(key, sizeof(key), "%sfailed", prefix);
	ck_assert_int_eq(e2e_int_value(r->out, key), 0);
	snprintf(key, sizeof(key), "%smeasured", prefix);
	ck_assert_int_ge(e2e_int_value(r->out, key), 1000);
	snprintf(key, sizeof(key), "%smax_err_ns", prefix);
	ck_assert_msg(e2e_int_value(r->out, key) <= BOUND_NS, "error above %d ns:\n%.*s", BOUND_NS,
		      E2E_SHOWN, r->out);
}

/* The calibrated probe for secs with two threads after a 2 s warm-up: served, bounded, quiet. */
static void run_bounded(const char *const *env, const char *secs)
{
	const struct e2e_opts opts = { .env = env };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CALIB"), secs, "2", "2"));
	e2e_assert_ok(&r);
	e2e_assert_served(&r, "served");
	assert_bounded(&r, "");
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}

/* 6 s with two threads and pauses up to 400 ms; the benchmark script runs the same for 60 s. */
START_TEST(bounded_after_warmup)
{
	run_bounded(modes[_i], "6");
}
END_TEST

/*
 * The variables that do not choose the source leave calibrated mode as it is: the system call
 * path (FASTRAW_SYSCALL), the served clocks (FASTRAW_CLOCKS, RAW-only in this mode) and the
 * shadow vDSO each keep every reading within the bound, never backwards. With the cases above
 * (counter modes, sources, debug and stats lines) and e2e_lookup (FASTRAW_DISABLE, the shadow),
 * every FASTRAW_* variable runs where calibrated mode does.
 */
static const char *const other_syscall[] = { "FASTRAW_SOURCE=calibrated", "FASTRAW_SYSCALL=1", NULL };
static const char *const other_clocks[] = { "FASTRAW_SOURCE=calibrated", "FASTRAW_CLOCKS=all", NULL };
static const char *const other_shadow[] = { "FASTRAW_SOURCE=calibrated", "FASTRAW_SHADOW_VDSO=1", NULL };
static const char *const *const others[] = { other_syscall, other_clocks, other_shadow };

START_TEST(other_variables_keep_the_bound)
{
	run_bounded(others[_i], "3");
}
END_TEST

/*
 * The drift run, where FR_E2E_CALIB_SECONDS asks for it (the kernel matrix's pre-5.3 guests: 60):
 * before 4.13 the kernel's RAW accumulates a truncated raw_interval and runs slightly slow of
 * the clocksource's own rate, and calibrated mode must follow that clock, not the counter's
 * nominal rate. Within the bound over the whole run and in its last quarter (tail_*), that is
 * at its end, however long it ran.
 */
START_TEST(drift_long)
{
	const char *secs = getenv("FR_E2E_CALIB_SECONDS");
	const struct e2e_opts opts = { .env = mode_default };
	struct e2e_result r;

	if (!secs || atoi(secs) < 1) {
		printf("SKIP: drift_long: FR_E2E_CALIB_SECONDS is not set (the kernel matrix sets it)\n");
		return;
	}
	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CALIB"), secs, "2", "2"));
	e2e_assert_ok(&r);
	e2e_assert_served(&r, "served");
	assert_bounded(&r, "");
	ck_assert_int_ge(e2e_int_value(r.out, "tail_measured"), 1000);
	ck_assert_msg(e2e_int_value(r.out, "tail_max_err_ns") <= BOUND_NS, "error above %d ns at the end:\n%.*s",
		      BOUND_NS, E2E_SHOWN, r.out);
	printf("drift_long: %s s, max_err_ns=%lld, in the last quarter tail_max_err_ns=%lld, measured=%lld\n", secs,
	       (long long)e2e_int_value(r.out, "max_err_ns"), (long long)e2e_int_value(r.out, "tail_max_err_ns"),
	       (long long)e2e_int_value(r.out, "measured"));
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

/* A child forked after warm-up keeps the estimate: bounded from its first reading on. */
START_TEST(fork_keeps_state)
{
	const struct e2e_opts opts = { .env = modes[0] };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CALIB"), "4", "2", "2", "fork"));
	e2e_assert_ok(&r);
	assert_bounded(&r, "");
	assert_bounded(&r, "child_");
	e2e_result_free(&r);
}
END_TEST

/* In the ordered modes a reading published by one CPU is never ahead of another's next one. */
START_TEST(causality)
{
	static const char *const *const ordered[] = { mode_default, mode_fenced };
	const struct e2e_opts opts = { .env = ordered[_i] };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CAUSALITY")));
	e2e_assert_ok(&r);
	ck_assert_int_eq(e2e_int_value(r.out, "violations"), 0);
	ck_assert_int_ge(e2e_int_value(r.out, "cpu0_fresh"), 1000);
	ck_assert_int_ge(e2e_int_value(r.out, "cpu1_fresh"), 1000);
	e2e_result_free(&r);
}
END_TEST

/*
 * The gtod layout a 3.10-5.2 release implies ("3.10", "3.16-4.19" or "4.20-5.2"), or on 32-bit
 * ARM ("armv7l", "armv8l") a 4.1-5.4 one ("arm-4.1-5.4", its vdso_data); NULL for another
 * release. The library reads the layout the page holds, which a vendor kernel may have changed
 * (a 3.10 debug kernel's is "3.10-debug").
 */
static const char *release_gtod_layout(const char *release, const char *machine)
{
	int major = 0, minor = 0;

	sscanf(release, "%d.%d", &major, &minor);
	if (strncmp(machine, "arm", 3) == 0 && strcmp(machine, "arm64") != 0)
		return (major == 4 && minor >= 1) || (major == 5 && minor <= 4) ? "arm-4.1-5.4" : NULL;
	if (major == 3 && minor >= 10 && minor <= 15)
		return "3.10";
	if ((major == 3 && minor >= 16) || (major == 4 && minor <= 19))
		return "3.16-4.19";
	if ((major == 4 && minor == 20) || (major == 5 && minor <= 2))
		return "4.20-5.2";
	return NULL;
}

/*
 * The seed's layout on the debug line. It is FR_E2E_GTOD's where the configuration names the
 * layout its kernel has (the kernel matrix's gtod guests).
 * Where it is not the one the release implies, exactly one line says so; elsewhere none does.
 */
static void assert_gtod_layout(const char *err, const char *line)
{
	static const char *const seed_words[] = { " calibrated: seed kernel gtod mult (",
						  " calibrated: seed kernel vdso_data mult (" };
	const char *want = getenv("FR_E2E_GTOD"), *implied, *seed;
	char named[32] = "", note[256];
	struct utsname u;

	ck_assert_int_eq(uname(&u), 0);
	implied = release_gtod_layout(u.release, u.machine);
	/* x86's vsyscall_gtod_data, or 32-bit ARM's vdso_data. */
	seed = NULL;
	for (size_t i = 0; i < sizeof(seed_words) / sizeof(seed_words[0]) && !seed; i++) {
		if ((seed = strstr(line, seed_words[i])))
			seed += strlen(seed_words[i]);
	}
	if (!implied && !(want && *want))
		return;
	ck_assert_msg(seed && sscanf(seed, "%31[^ )] layout) mult=", named) == 1 && strstr(line, " shift="),
		      "want a gtod seed and its layout, stderr:\n%.*s", E2E_SHOWN, err);
	if (want && *want)
		ck_assert_msg(strcmp(named, want) == 0, "seed read as the %s layout, the kernel's is %s (FR_E2E_GTOD)",
			      named, want);
	if (implied && strcmp(named, implied) != 0) {
		snprintf(note, sizeof(note), "gtod page: the %s layout, not the %s one release %s implies; read as the page holds it",
			 named, implied, u.release);
		ck_assert_msg(e2e_count_lib_lines(err, note) == 1, "want one line \"%s\", stderr:\n%.*s", note, E2E_SHOWN,
			      err);
	} else {
		ck_assert_msg(e2e_count_lib_lines(err, "gtod page: ") == 0, "layout agrees with the release, stderr:\n%.*s",
			      E2E_SHOWN, err);
	}
}

/*
 * What auto does here, as FR_E2E_EXPECT says: where calibrated mode is expected (a kernel before
 * 5.3 that keeps tsc) it serves RAW within the bound from two threads, and the kernel's gtod page
 * seeds it, the layout the page holds and mult/shift on the debug line; elsewhere the exact path
 * or pass-through, as the other suites assert.
 */
START_TEST(auto_source)
{
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_DEBUG=1") };
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CALIB"), e2e_expect_calibrated() ? "6" : "0.2", "2", "2"));
	e2e_assert_ok(&r);
	e2e_assert_debug(r.err, NULL);
	if (e2e_expect_calibrated()) {
		assert_gtod_layout(r.err, e2e_lib_line(r.err, "kernel="));
		e2e_assert_served(&r, "served");
		assert_bounded(&r, "");
	} else if (e2e_expect_passthrough() && e2e_kernel_before_data()) {
		/* The kernel gave the TSC up: its gtod page names another clock, and the refusal says so. */
		ck_assert_msg(e2e_count_lines_with(r.err, "; calibrated mode not eligible: ") == 1 &&
				      e2e_count_lines_with(r.err, "the kernel's data page does not say clock mode") == 1,
			      "stderr:\n%.*s", E2E_SHOWN, r.err);
	}
	e2e_result_free(&r);
}
END_TEST

/* FASTRAW_DEBUG names the source and the seed; FASTRAW_SOURCE=kernel and off do what they say. */
START_TEST(source_lines)
{
	const struct e2e_opts cal = { .env = E2E_ENV("FASTRAW_SOURCE=calibrated", "FASTRAW_DEBUG=1") };
	const struct e2e_opts off = { .env = E2E_ENV("FASTRAW_SOURCE=off", "FASTRAW_DEBUG=1") };
	const struct e2e_opts bad = { .env = E2E_ENV("FASTRAW_SOURCE=fast") };
	const struct e2e_opts kernel = { .env = E2E_ENV("FASTRAW_SOURCE=kernel", "FASTRAW_DEBUG=1") };
	const char *const *argv = E2E_ARGV(e2e_need_env("FR_PROBE_CALIB"), "0.2", "10", "1");
	struct e2e_result r;

	e2e_run(&r, &cal, argv);
	e2e_assert_ok(&r);
	ck_assert_msg(e2e_count_lines_with(r.err, " calibrated: seed ") == 1 &&
			      e2e_count_lines_with(r.err, "kernel data not used: ") == 1,
		      "stderr:\n%.*s", E2E_SHOWN, r.err);
	e2e_result_free(&r);
	e2e_run(&r, &off, argv);
	e2e_assert_ok(&r);
	ck_assert_msg(e2e_count_lines_with(r.err, " passthrough: disabled by FASTRAW_SOURCE=off") == 1,
		      "stderr:\n%.*s", E2E_SHOWN, r.err);
	e2e_result_free(&r);
	/* Where the kernel's data can be read exactly, kernel is what auto does; before 5.3 it passes through. */
	e2e_run(&r, &kernel, argv);
	e2e_assert_ok(&r);
	if (e2e_kernel_before_data())
		e2e_assert_debug_passthrough(r.err, E2E_NO_RAW_DATA);
	else
		e2e_assert_debug(r.err, NULL);
	e2e_result_free(&r);
	e2e_run(&r, &bad, argv);
	e2e_assert_ok(&r);
	ck_assert_msg(e2e_count_lines(r.err) == 1 &&
			      e2e_count_lines_with(r.err, "FASTRAW_SOURCE=fast is not one of auto, kernel, calibrated, off") == 1,
		      "stderr:\n%.*s", E2E_SHOWN, r.err);
	e2e_result_free(&r);
}
END_TEST

/* The stats line's counts of RAW calls: "...: stats: MONOTONIC_RAW fast=F passthrough=P". */
static void raw_stats(const struct e2e_result *r, unsigned long long *fast, unsigned long long *pass)
{
	const char *line = e2e_lib_line(r->err, "stats: MONOTONIC_RAW fast=");

	ck_assert_msg(line && sscanf(e2e_lib_text(line), "stats: MONOTONIC_RAW fast=%llu passthrough=%llu", fast, pass) == 2,
		      "no stats line:\n%.*s", E2E_SHOWN, r->err);
}

/*
 * A handler that siglongjmps out of RAW calls, from wherever they are, leaves calibrated mode
 * working: a storm during warm-up (the update right is taken on every call then) and one after
 * it (taken on each refresh). Then every call is served from the line (fast), and the line is
 * refreshed a few times per refresh period, not tried on every call: getpid, which each try
 * makes, is counted by a seccomp filter that traps it. At most one a millisecond and one per ten
 * calls (40 a second here; a stuck right makes one per call, 100,000 calls at least).
 */
START_TEST(survives_siglongjmp)
{
	static const char *const phases[][4] = {
		{ "0", "2", "4", "1" }, /* the storm in warm-up */
		{ "3", "3", "0.5", "1" }, /* the storm while serving */
	};
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SOURCE=calibrated", "FASTRAW_STATS=1") };
	const char *const *ph = phases[_i];
	unsigned long long fast = 0, pass = 0;
	struct e2e_result r;
	int64_t calls, getpids, ns;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CALIB_JUMP"), ph[0], ph[1], ph[2], ph[3]));
	e2e_assert_ok(&r);
	e2e_assert_served(&r, "served");
	raw_stats(&r, &fast, &pass);
	calls = e2e_int_value(r.out, "measure_calls");
	ck_assert_msg(e2e_int_value(r.out, "jumps") >= 100, "too few jumps for a storm:\n%.*s", E2E_SHOWN, r.out);
	ck_assert_int_eq(e2e_int_value(r.out, "failed"), 0);
	ck_assert_msg(calls >= 100000 && fast >= (unsigned long long)calls,
		      "calibrated mode does not serve: fast=%llu passthrough=%llu, %lld calls measured:\n%.*s", fast,
		      pass, (long long)calls, E2E_SHOWN, r.out);
	if (!e2e_int_value(r.out, "getpid_counted")) {
		printf("e2e_calib: survives_siglongjmp: no seccomp filter here, getpid not counted\n");
	} else {
		getpids = e2e_int_value(r.out, "measure_getpid");
		ns = e2e_int_value(r.out, "measure_ns");
		ck_assert_msg(getpids * 1000000 <= ns && getpids * 10 <= calls,
			      "the line is not refreshed: %lld getpid in %lld calls, %lld ns:\n%.*s", (long long)getpids,
			      (long long)calls, (long long)ns, E2E_SHOWN, r.out);
	}
	e2e_result_free(&r);
}
END_TEST

/*
 * In a time namespace whose offset puts RAW before zero (a restored checkpoint may), RAW
 * answers as the kernel does: 0, tv_sec < 0 and tv_nsec in [0, 1e9), and fastraw_now_ns gives
 * tv_sec * 1e9 + tv_nsec; calibrated mode (its warm-up: the kernel's values) and the default.
 * The probe makes the namespace, with MONOTONIC starting at zero: RAW there is negative where it
 * lags MONOTONIC. Where it does not, or unshare(CLONE_NEWTIME) is refused, the case says so.
 */
START_TEST(negative_raw_time_namespace)
{
	static const char *const *const envs[] = { mode_default, NULL };
	const struct e2e_opts opts = { .env = envs[_i] };
	const char *skip;
	struct e2e_result r;

	e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_CALIB_NEGATIVE")));
	e2e_assert_ok(&r);
	skip = strstr(r.out, "skip=");
	if (skip) {
		printf("e2e_calib: negative_raw_time_namespace skipped: %.*s\n", (int)strcspn(skip + 5, "\n"), skip + 5);
		e2e_result_free(&r);
		return;
	}
	e2e_assert_served(&r, "served");
	ck_assert_msg(e2e_int_value(r.out, "failed") == 0 && e2e_int_value(r.out, "bad_nsec") == 0 &&
			      e2e_int_value(r.out, "outside") == 0,
		      "RAW not as the kernel's:\n%.*s", E2E_SHOWN, r.out);
	ck_assert_msg(e2e_int_value(r.out, "negative") >= 10, "too few negative readings:\n%.*s", E2E_SHOWN, r.out);
	ck_assert_int_eq(e2e_int_value(r.out, "now_found"), 1);
	ck_assert_int_eq(e2e_int_value(r.out, "now_negative"), e2e_int_value(r.out, "samples"));
	ck_assert_msg(e2e_int_value(r.out, "now_outside") == 0, "fastraw_now_ns not as the kernel's:\n%.*s", E2E_SHOWN,
		      r.out);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

static Suite *calib_suite(void)
{
	Suite *s = suite_create("e2e_calib");
	TCase *tc = e2e_tcase(s, "calib");

	tcase_add_loop_test(tc, bounded_after_warmup, 0, (int)(sizeof(modes) / sizeof(modes[0])));
	tcase_add_loop_test(tc, other_variables_keep_the_bound, 0, (int)(sizeof(others) / sizeof(others[0])));
	tcase_add_test(tc, fork_keeps_state);
	tcase_add_loop_test(tc, causality, 0, 2);
	tc = e2e_tcase(s, "jump");
	tcase_add_loop_test(tc, survives_siglongjmp, 0, 2);
	tc = e2e_tcase(s, "negative");
	tcase_add_loop_test(tc, negative_raw_time_namespace, 0, 2);
	/* Their own case: the kernel matrix runs it alone where the bound is not the point (CK_RUN_CASE=source). */
	tc = e2e_tcase(s, "source");
	tcase_add_test(tc, source_lines);
	tcase_add_test(tc, auto_source);
	/* Its own case too: it runs only where FR_E2E_CALIB_SECONDS is set, for that long. */
	tc = e2e_tcase(s, "drift");
	tcase_add_test(tc, drift_long);
	return s;
}

int main(void)
{
	return fr_run_suite(calib_suite());
}
