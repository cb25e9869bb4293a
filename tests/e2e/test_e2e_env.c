/* SPDX-License-Identifier: MIT */
/* End-to-end: the FASTRAW_* variables pick the counter, disable the fast path, print the debug line and warn once on bad values. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cpu_test.h"
#include "harness.h"

#define WARNING "warning: "

/*
 * What FASTRAW_TSC accepts, as its warning lists it: the architecture's three names, the two
 * names every architecture takes, and elsewhere than on x86-64 x86's names too.
 */
#if FRT_HAS_X86_ALIASES
#define X86_ALIASES ", rdtscp, lfence, rdtsc"
#else
#define X86_ALIASES ""
#endif
#define ACCEPTED E2E_ORDERED ", " E2E_FENCED ", " E2E_UNORDERED ", ordered, unordered" X86_ALIASES

/* Runs the bracket probe with env and asserts that the reads were right. */
static void run_env(struct e2e_result *r, const char *const *env)
{
	const struct e2e_opts opts = { .env = env };

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_BRACKET"), "200000", "2"));
	e2e_assert_ok(r);
	e2e_assert_served(r, "served");
	ck_assert_int_eq(e2e_int_value(r->out, "violations"), 0);
}

static void assert_one_warning(const struct e2e_result *r, const char *mentions)
{
	ck_assert_msg(e2e_count_lib_lines(r->err, WARNING) == 1 &&
			      (!mentions || e2e_count_lines_with(r->err, mentions) == 1),
		      "want one warning mentioning \"%s\", stderr:\n%.*s", mentions ? mentions : "",
		      E2E_SHOWN, r->err);
}

/* Valid settings that ask for no debug output. */
static const char *const *const quiet_envs[] = {
	NULL,
	E2E_ENV(E2E_TSC(E2E_FENCED)),
	E2E_ENV(E2E_TSC(E2E_UNORDERED)),
	E2E_ENV("FASTRAW_TSC=ordered"),
	E2E_ENV("FASTRAW_TSC=unordered"),
	E2E_ENV("FASTRAW_DISABLE=1"),
	E2E_ENV("FASTRAW_DISABLE=0"),
	E2E_ENV("FASTRAW_DEBUG=0"),
};

START_TEST(valid_values_are_quiet)
{
	struct e2e_result r;

	run_env(&r, quiet_envs[_i]);
	e2e_assert_quiet(&r);
	e2e_result_free(&r);
}
END_TEST

START_TEST(debug_line_default)
{
	struct e2e_result r;

	run_env(&r, E2E_ENV("FASTRAW_DEBUG=1"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	e2e_assert_debug_active(r.err, NULL);
	e2e_result_free(&r);
}
END_TEST

START_TEST(debug_line_names_counter)
{
	static const char *const counters[] = { E2E_FENCED, E2E_UNORDERED };
	char tsc[32];
	struct e2e_result r;

	snprintf(tsc, sizeof(tsc), "FASTRAW_TSC=%s", counters[_i]);
	run_env(&r, E2E_ENV(tsc, "FASTRAW_DEBUG=1"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	e2e_assert_debug_active(r.err, counters[_i]);
	e2e_result_free(&r);
}
END_TEST

/*
 * The names every architecture takes: "ordered" is the default read, "unordered" the bare one;
 * elsewhere than on x86-64, x86's names mean the same two things (rdtsc unordered, the other
 * two the default), without a warning.
 */
START_TEST(debug_line_names_alias)
{
	static const struct {
		const char *env;
		int unordered;
	} aliases[] = {
		{ "FASTRAW_TSC=ordered", 0 },
		{ "FASTRAW_TSC=unordered", 1 },
#if FRT_HAS_X86_ALIASES
		{ "FASTRAW_TSC=rdtscp", 0 },
		{ "FASTRAW_TSC=lfence", 0 },
		{ "FASTRAW_TSC=rdtsc", 1 },
#endif
	};
	struct e2e_result r;

	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		run_env(&r, E2E_ENV(aliases[i].env, "FASTRAW_DEBUG=1"));
		ck_assert_msg(e2e_count_lines(r.err) == 1, "%s: stderr:\n%.*s", aliases[i].env, E2E_SHOWN, r.err);
		e2e_assert_debug_active(r.err, aliases[i].unordered ? E2E_UNORDERED : NULL);
		e2e_result_free(&r);
	}
}
END_TEST

START_TEST(ordered_without_cpu_support_falls_back)
{
	struct e2e_result r;

	run_env(&r, E2E_ENV(E2E_TSC(E2E_ORDERED), "FASTRAW_DEBUG=1"));
	if (e2e_cpu_has_ordered()) {
		ck_assert_int_eq(e2e_count_lines(r.err), 1);
		e2e_assert_debug_active(r.err, E2E_ORDERED);
	} else {
		ck_assert_int_eq(e2e_count_lines(r.err), 2);
		assert_one_warning(&r, E2E_TSC(E2E_ORDERED));
		e2e_assert_debug_active(r.err, E2E_FENCED);
	}
	e2e_result_free(&r);
}
END_TEST

START_TEST(unknown_counter_warns_once)
{
	struct e2e_result r;

	run_env(&r, E2E_ENV("FASTRAW_TSC=bogus"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	assert_one_warning(&r, "is not one of " ACCEPTED "; using the default");
	e2e_result_free(&r);

	run_env(&r, E2E_ENV("FASTRAW_TSC=bogus", "FASTRAW_DEBUG=1"));
	ck_assert_int_eq(e2e_count_lines(r.err), 2);
	assert_one_warning(&r, "is not one of " ACCEPTED "; using the default");
	e2e_assert_debug_active(r.err, NULL);
	e2e_result_free(&r);
}
END_TEST

START_TEST(bad_disable_value_warns_once)
{
	struct e2e_result r;

	run_env(&r, E2E_ENV("FASTRAW_DISABLE=maybe"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	assert_one_warning(&r, NULL);
	e2e_result_free(&r);

	/* The default, enabled, is used. */
	run_env(&r, E2E_ENV("FASTRAW_DISABLE=maybe", "FASTRAW_DEBUG=1"));
	ck_assert_int_eq(e2e_count_lines(r.err), 2);
	assert_one_warning(&r, NULL);
	e2e_assert_debug_active(r.err, NULL);
	e2e_result_free(&r);
}
END_TEST

START_TEST(bad_debug_value_warns_once)
{
	struct e2e_result r;

	/* The default, no debug line, is used: the warning is all. */
	run_env(&r, E2E_ENV("FASTRAW_DEBUG=maybe"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	assert_one_warning(&r, NULL);
	e2e_result_free(&r);
}
END_TEST

START_TEST(disable_is_passthrough)
{
	static const char tail[] = " passthrough: disabled by FASTRAW_DISABLE";
	struct e2e_result r;
	size_t len;

	run_env(&r, E2E_ENV("FASTRAW_DISABLE=1", "FASTRAW_DEBUG=1"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	len = strlen(r.err) - 1;
	ck_assert_msg(e2e_lib_text(r.err) && len >= strlen(tail) &&
			      memcmp(r.err + len - strlen(tail), tail, strlen(tail)) == 0,
		      "want a line ending in \"%s\": %.*s", tail, E2E_SHOWN, r.err);
	e2e_result_free(&r);
}
END_TEST

/* The passthrough line still names the kernel, as the active one does. */
START_TEST(disabled_line_names_kernel)
{
	char want[128 + sizeof(((struct utsname *)0)->release)];
	struct utsname u;
	struct e2e_result r;

	ck_assert_int_eq(uname(&u), 0);
	snprintf(want, sizeof(want), "kernel=%s ", u.release);
	run_env(&r, E2E_ENV("FASTRAW_DISABLE=1", "FASTRAW_DEBUG=1"));
	ck_assert_msg(e2e_lib_line(r.err, want) == r.err, "want a line starting \"%s\": %.*s",
		      want, E2E_SHOWN, r.err);
	e2e_result_free(&r);
}
END_TEST

/*
 * FASTRAW_STATS=1: one line at exit; every sandwiched RAW call counted, served by the fast path
 * but for the rare call whose seqcount stays odd past the bounded retries (a writer preempted
 * on the other vCPU, seen once in an arm64 guest under emulation), which passes through.
 */
START_TEST(stats_line_at_exit)
{
	struct e2e_result r;
	unsigned long long fast = 0, pass = ~0ull;
	const char *line;

	run_env(&r, E2E_ENV("FASTRAW_STATS=1"));
	ck_assert_msg(e2e_count_lines(r.err) == 1, "stderr:\n%.*s", E2E_SHOWN, r.err);
	line = e2e_lib_line(r.err, "stats: ");
	ck_assert_msg(line && sscanf(e2e_lib_text(line), "stats: MONOTONIC_RAW fast=%llu passthrough=%llu", &fast,
				     &pass) == 2, "stderr:\n%.*s", E2E_SHOWN, r.err);
	ck_assert_uint_ge(fast + pass, 200000);
	ck_assert_msg(pass <= (fast + pass) / 10000, "fast=%llu passthrough=%llu", fast, pass);
	e2e_result_free(&r);
}
END_TEST

/* With the fast path off, the same calls are all counted as passed through. */
START_TEST(stats_count_passthrough)
{
	struct e2e_result r;
	unsigned long long fast = ~0ull, pass = 0;
	const char *line;

	run_env(&r, E2E_ENV("FASTRAW_STATS=1", "FASTRAW_DISABLE=1"));
	line = e2e_lib_line(r.err, "stats: ");
	ck_assert_msg(line && sscanf(e2e_lib_text(line), "stats: MONOTONIC_RAW fast=%llu passthrough=%llu", &fast,
				     &pass) == 2, "stderr:\n%.*s", E2E_SHOWN, r.err);
	ck_assert_uint_eq(fast, 0);
	ck_assert_uint_ge(pass, 200000);
	e2e_result_free(&r);
}
END_TEST

/* A newline in a value is echoed escaped: it cannot forge a line of its own. */
START_TEST(control_characters_escaped)
{
	struct e2e_result r;

	run_env(&r, E2E_ENV("FASTRAW_TSC=x\nfastraw: kernel=9.9 era=forged active\x1b[2J"));
	ck_assert_msg(e2e_count_lines(r.err) == 1, "stderr:\n%.*s", E2E_SHOWN, r.err);
	assert_one_warning(&r, "FASTRAW_TSC=x\\nfastraw: kernel=9.9 era=forged active\\x1b[2J is not one of");
	e2e_result_free(&r);
}
END_TEST

/* Every variable with a bad value gets its warning: none dropped after the first few. */
START_TEST(every_bad_variable_warned)
{
	static const char *const names[] = { "FASTRAW_TSC=", "FASTRAW_SOURCE=", "FASTRAW_DISABLE=",
					     "FASTRAW_DEBUG=", "FASTRAW_STATS=", "FASTRAW_SHADOW_VDSO=" };
	struct e2e_result r;

	run_env(&r, E2E_ENV("FASTRAW_TSC=t", "FASTRAW_SOURCE=s", "FASTRAW_DISABLE=d", "FASTRAW_DEBUG=g",
			    "FASTRAW_STATS=x", "FASTRAW_SHADOW_VDSO=v"));
	ck_assert_msg(e2e_count_lines(r.err) == 6 && e2e_count_lib_lines(r.err, WARNING) == 6,
		      "want 6 warnings, stderr:\n%.*s", E2E_SHOWN, r.err);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ck_assert_msg(e2e_count_lines_with(r.err, names[i]) == 1, "no warning for %s:\n%.*s", names[i],
			      E2E_SHOWN, r.err);
	e2e_result_free(&r);
}
END_TEST

/* A long value is shown cut, with "..." and its length, and the rest of the warning follows. */
START_TEST(long_value_cut_visibly)
{
	static char entry[sizeof("FASTRAW_TSC=") + 4000];
	struct e2e_result r;

	memset(entry, 'v', sizeof(entry) - 1);
	memcpy(entry, "FASTRAW_TSC=", strlen("FASTRAW_TSC="));
	run_env(&r, E2E_ENV(entry));
	ck_assert_msg(e2e_count_lines(r.err) == 1, "stderr:\n%.*s", E2E_SHOWN, r.err);
	assert_one_warning(&r, "vvv... (4000 bytes) is not one of " ACCEPTED "; using the default");
	/* Short: the value is cut, so the line is the accepted list and under 180 bytes besides. */
	ck_assert_int_lt(strlen(r.err), 180 + strlen(ACCEPTED));
	e2e_result_free(&r);
}
END_TEST

/* With duplicate entries the first counts, as getenv (and the user reading it) sees it. */
START_TEST(first_duplicate_wins)
{
	struct e2e_result r;

	run_env(&r, E2E_ENV("FASTRAW_DISABLE=1", "FASTRAW_DISABLE=0", "FASTRAW_DEBUG=1", "FASTRAW_DEBUG=0"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	ck_assert_msg(strstr(r.err, " passthrough: disabled by FASTRAW_DISABLE\n"), "stderr:\n%.*s", E2E_SHOWN, r.err);
	e2e_result_free(&r);

	run_env(&r, E2E_ENV("FASTRAW_DISABLE=0", "FASTRAW_DISABLE=1", "FASTRAW_DEBUG=1", E2E_TSC(E2E_FENCED),
			    "FASTRAW_TSC=bogus"));
	ck_assert_int_eq(e2e_count_lines(r.err), 1);
	e2e_assert_debug(r.err, E2E_FENCED);
	e2e_result_free(&r);
}
END_TEST

static Suite *env_suite(void)
{
	Suite *s = suite_create("e2e_env");
	TCase *tc = e2e_tcase(s, "env");

	tcase_add_loop_test(tc, valid_values_are_quiet, 0,
			    (int)(sizeof(quiet_envs) / sizeof(quiet_envs[0])));
	tcase_add_test(tc, debug_line_default);
	tcase_add_loop_test(tc, debug_line_names_counter, 0, 2);
	tcase_add_test(tc, debug_line_names_alias);
	tcase_add_test(tc, ordered_without_cpu_support_falls_back);
	tcase_add_test(tc, unknown_counter_warns_once);
	tcase_add_test(tc, bad_disable_value_warns_once);
	tcase_add_test(tc, bad_debug_value_warns_once);
	tcase_add_test(tc, disable_is_passthrough);
	tcase_add_test(tc, disabled_line_names_kernel);
	tcase_add_test(tc, stats_line_at_exit);
	tcase_add_test(tc, stats_count_passthrough);
	tcase_add_test(tc, control_characters_escaped);
	tcase_add_test(tc, every_bad_variable_warned);
	tcase_add_test(tc, long_value_cut_visibly);
	tcase_add_test(tc, first_duplicate_wins);
	return s;
}

int main(void)
{
	return fr_run_suite(env_suite());
}
