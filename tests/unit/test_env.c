/* SPDX-License-Identifier: MIT */
/* Unit tests of fr_env_parse on constructed environment blocks. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_suite.h"
#include "cpu_test.h"
#include "proc/env.h"

/* How many "\n" escapes s holds. */
static int count_escapes(const char *s)
{
	int n = 0;

	while ((s = strstr(s, "\\n")) != NULL) {
		n++;
		s += 2;
	}
	return n;
}

static struct fr_env parse(char **envp)
{
	struct fr_env e;

	/* Garbage first: the parser must reset everything itself. */
	memset(&e, 0xa5, sizeof(e));
	fr_env_parse(envp, 0, &e);
	return e;
}

static void expect_defaults(const struct fr_env *e)
{
	ck_assert_int_eq(e->tsc_set, 0);
	ck_assert_int_eq(e->disable, 0);
	ck_assert_int_eq(e->debug, 0);
	ck_assert_int_eq(e->nwarn, 0);
}

START_TEST(tsc_values)
{
	static const struct {
		const char *entry;
		enum fr_counter_mode mode;
	} ok[] = { { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_ORDERED, FR_CTR_ORDERED },
		   { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_FENCED, FR_CTR_FENCED },
		   { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED, FR_CTR_UNORDERED },
		   { "FASTRAW_TSC=unordered", FR_CTR_UNORDERED },
		   { "FASTRAW_TSC=rdtsc", FR_CTR_UNORDERED } };
	char buf[64];
	char *envp[] = { "HOME=/root", buf, "LANG=C", NULL };

	strcpy(buf, ok[_i].entry);
	struct fr_env e = parse(envp);

	ck_assert_int_eq(e.tsc_set, 1);
	ck_assert_int_eq(e.tsc, ok[_i].mode);
	ck_assert_int_eq(e.nwarn, 0);
	ck_assert_int_eq(e.disable, 0);
	ck_assert_int_eq(e.debug, 0);
}
END_TEST

/* "ordered", and x86's ordered names on every architecture, ask for the CPU's default read. */
START_TEST(tsc_ordered_alias)
{
	static const char *const names[] = { "FASTRAW_TSC=ordered", "FASTRAW_TSC=lfence", "FASTRAW_TSC=rdtscp" };
	char buf[64];
	char *envp[] = { buf, NULL };

	strcpy(buf, names[_i]);
	struct fr_env e = parse(envp);

	ck_assert_int_eq(e.nwarn, 0);
#if !FRT_HAS_X86_ALIASES
	/* x86's own names stay its explicit reads; "ordered" is the default. */
	ck_assert_int_eq(e.tsc_set, _i != 0);
	ck_assert_int_eq(e.tsc_ordered, _i == 0);
#else
	ck_assert_int_eq(e.tsc_set, 0);
	ck_assert_int_eq(e.tsc_ordered, 1);
#endif
}
END_TEST

START_TEST(tsc_unknown_warns)
{
	static const char *const bad[] = { "FASTRAW_TSC=fast", "FASTRAW_TSC=RDTSC", "FASTRAW_TSC=rdtsc ",
					   "FASTRAW_TSC=rdtscpp", "FASTRAW_TSC=lfence,rdtsc" };
	char buf[64];
	char *envp[] = { buf, NULL };

	strcpy(buf, bad[_i]);
	struct fr_env e = parse(envp);

	ck_assert_int_eq(e.tsc_set, 0);
	ck_assert_int_eq(e.nwarn, 1);
	ck_assert_str_eq(e.warn[0].name, "FASTRAW_TSC");
	ck_assert_str_eq(e.warn[0].value, bad[_i] + strlen("FASTRAW_TSC="));
	/* The value points into the environment block itself: no copy, no allocation. */
	ck_assert_ptr_eq(e.warn[0].value, buf + strlen("FASTRAW_TSC="));
	ck_assert_str_eq(e.warn[0].accepted, FR_ARCH_COUNTER_NAME_ORDERED ", " FR_ARCH_COUNTER_NAME_FENCED
			 ", " FR_ARCH_COUNTER_NAME_UNORDERED ", ordered, unordered"
#if FRT_HAS_X86_ALIASES
			 ", rdtscp, lfence, rdtsc"
#endif
	);
}
END_TEST

START_TEST(flags)
{
	/* _i: 0 FASTRAW_DISABLE, 1 FASTRAW_DEBUG. */
	const char *name = _i ? "FASTRAW_DEBUG" : "FASTRAW_DISABLE";
	static const char *const bad[] = { "yes", "2", "01", "true", " 1" };
	char buf[64];
	char *envp[] = { "PATH=/bin", buf, NULL };
	struct fr_env e;

	snprintf(buf, sizeof(buf), "%s=1", name);
	e = parse(envp);
	ck_assert_int_eq(_i ? e.debug : e.disable, 1);
	ck_assert_int_eq(_i ? e.disable : e.debug, 0);
	ck_assert_int_eq(e.nwarn, 0);

	snprintf(buf, sizeof(buf), "%s=0", name);
	e = parse(envp);
	expect_defaults(&e);

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		snprintf(buf, sizeof(buf), "%s=%s", name, bad[k]);
		e = parse(envp);
		ck_assert_int_eq(e.disable, 0);
		ck_assert_int_eq(e.debug, 0);
		ck_assert_int_eq(e.nwarn, 1);
		ck_assert_str_eq(e.warn[0].name, name);
		ck_assert_str_eq(e.warn[0].value, bad[k]);
		ck_assert_str_eq(e.warn[0].accepted, "0, 1");
	}
}
END_TEST

START_TEST(empty_values_are_unset)
{
	char *envp[] = { "FASTRAW_TSC=", "FASTRAW_DISABLE=", "FASTRAW_DEBUG=", NULL };
	struct fr_env e = parse(envp);

	expect_defaults(&e);
}
END_TEST

START_TEST(null_and_empty_envp)
{
	char *none[] = { NULL };
	struct fr_env e = parse(NULL);

	expect_defaults(&e);
	e = parse(none);
	expect_defaults(&e);
}
END_TEST

START_TEST(unrelated_and_prefix_traps_ignored)
{
	char *envp[] = { "PATH=/usr/bin:/bin", "FASTRAW=1", "FASTRAW_=rdtsc", "FASTRAW_TSCX=1",
			 "FASTRAW_TSC_MODE=rdtsc", "FASTRAW_DISABLED=1", "FASTRAW_DEBUGGING=1",
			 "XFASTRAW_TSC=rdtsc", "fastraw_tsc=rdtsc", "FASTRAW_TSC", "FASTRAW_DEBUG", "=", "",
			 "LD_PRELOAD=/usr/lib/libfastraw.so", NULL };
	struct fr_env e = parse(envp);

	expect_defaults(&e);
}
END_TEST

START_TEST(all_together)
{
	char *envp[] = { "FASTRAW_DEBUG=1", "TERM=xterm", "FASTRAW_TSC=rdtsc", "FASTRAW_DISABLE=1", NULL };
	struct fr_env e = parse(envp);

	ck_assert_int_eq(e.tsc_set, 1);
	ck_assert_int_eq(e.tsc, FR_CTR_UNORDERED);
	ck_assert_int_eq(e.disable, 1);
	ck_assert_int_eq(e.debug, 1);
	ck_assert_int_eq(e.nwarn, 0);
}
END_TEST

START_TEST(every_bad_variable_warned_once)
{
	/* Every variable bad at once: one warning each, in the order of the block, none dropped. */
	char *envp[] = { "FASTRAW_TSC=a", "FASTRAW_DISABLE=b", "FASTRAW_DEBUG=c", "FASTRAW_STATS=d",
			 "FASTRAW_SHADOW_VDSO=e", "FASTRAW_SOURCE=f", "FASTRAW_SYSCALL=g", "FASTRAW_CLOCKS=h",
			 "FASTRAW_TSC=i", "FASTRAW_DEBUG=j", NULL };
	static const char *const names[] = { "FASTRAW_TSC", "FASTRAW_DISABLE", "FASTRAW_DEBUG", "FASTRAW_STATS",
					     "FASTRAW_SHADOW_VDSO", "FASTRAW_SOURCE", "FASTRAW_SYSCALL", "FASTRAW_CLOCKS" };
	struct fr_env e = parse(envp);

	ck_assert_int_eq(e.nwarn, 8);
	ck_assert_int_eq(FR_ENV_NVARS, 8);
	for (int i = 0; i < 8; i++) {
		ck_assert_str_eq(e.warn[i].name, names[i]);
		ck_assert_int_eq(e.warn[i].value[0], 'a' + i);
		ck_assert_int_eq(e.warn[i].value[1], '\0');
	}
	ck_assert_int_eq(e.tsc_set, 0);
}
END_TEST

/* As getenv: the first entry of a name counts, later ones are ignored (not even warned about). */
START_TEST(first_duplicate_wins)
{
	/* The architecture's own names: x86's "lfence" is only an alias of the default elsewhere. */
	char *tsc[] = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_FENCED, "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED,
			"FASTRAW_TSC=bogus", NULL };
	char *bad_first[] = { "FASTRAW_TSC=bogus", "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED, NULL };
	char *empty_first[] = { "FASTRAW_DISABLE=", "FASTRAW_DISABLE=1", "FASTRAW_DEBUG=1", "FASTRAW_DEBUG=0", NULL };
	char *source[] = { "FASTRAW_SOURCE=off", "FASTRAW_SOURCE=calibrated", NULL };
	char *shadow[] = { "FASTRAW_SHADOW_VDSO=1", "FASTRAW_SHADOW_VDSO=0", "FASTRAW_STATS=1", "FASTRAW_STATS=x", NULL };
	struct fr_env e;

	e = parse(tsc);
	ck_assert(e.tsc_set && e.tsc == FR_CTR_FENCED && e.nwarn == 0);
	e = parse(bad_first);
	ck_assert_int_eq(e.tsc_set, 0);
	ck_assert_int_eq(e.nwarn, 1);
	ck_assert_str_eq(e.warn[0].value, "bogus");
	/* An empty first entry is what getenv returns: unset, whatever follows. */
	e = parse(empty_first);
	ck_assert_int_eq(e.disable, 0);
	ck_assert_int_eq(e.debug, 1);
	e = parse(source);
	ck_assert_int_eq(e.source, FR_SRC_OFF);
	e = parse(shadow);
	ck_assert_int_eq(e.shadow_vdso, 1);
	ck_assert_int_eq(e.stats, 1);
	ck_assert_int_eq(e.nwarn, 0);
}
END_TEST

/* The warning's text for a value, as report() writes it after "fastraw[PID] PROGRAM: warning: ". */
static const char *warning_text(const char *value, struct fr_line *l)
{
	const struct fr_env_warning w = { "FASTRAW_TSC", value, "rdtscp, lfence, rdtsc" };

	fr_line_init(l);
	fr_env_warning_line(&w, l);
	ck_assert_int_lt(l->len, sizeof(l->buf));
	l->buf[l->len] = '\0';
	return l->buf;
}

START_TEST(warning_escapes_control_characters)
{
	struct fr_line l;

	ck_assert_str_eq(warning_text("bogus", &l), "FASTRAW_TSC=bogus is not one of rdtscp, lfence, rdtsc; using the default");
	/* A newline cannot start a forged line of its own. */
	ck_assert_str_eq(warning_text("x\nfastraw: kernel=9.9 active", &l),
			 "FASTRAW_TSC=x\\nfastraw: kernel=9.9 active is not one of rdtscp, lfence, rdtsc; using the default");
	ck_assert_str_eq(warning_text("\t\r\x1b[2J\\\x7f\xc3\xa9", &l),
			 "FASTRAW_TSC=\\t\\r\\x1b[2J\\\\\\x7f\\xc3\\xa9 is not one of rdtscp, lfence, rdtsc; using the default");
	ck_assert_ptr_null(memchr(l.buf, '\n', l.len));
	ck_assert_int_eq(l.cut, 0);
}
END_TEST

START_TEST(warning_cuts_long_values_visibly)
{
	static char value[5001];
	char want[256];
	struct fr_line l;

	memset(value, 'v', 5000);
	snprintf(want, sizeof(want), "FASTRAW_TSC=%.*s... (5000 bytes) is not one of rdtscp, lfence, rdtsc; using the default",
		 FR_ENV_SHOW_MAX, value);
	ck_assert_str_eq(warning_text(value, &l), want);
	/* Exactly the limit is shown whole. */
	value[FR_ENV_SHOW_MAX] = '\0';
	snprintf(want, sizeof(want), "FASTRAW_TSC=%.*s is not one of rdtscp, lfence, rdtsc; using the default",
		 FR_ENV_SHOW_MAX, value);
	ck_assert_str_eq(warning_text(value, &l), want);
	/* The limit counts bytes of the value: 64 newlines are shown as 64 escapes, then cut the same way. */
	memset(value, '\n', 5000);
	value[5000] = '\0';
	warning_text(value, &l);
	ck_assert_int_eq(count_escapes(l.buf), FR_ENV_SHOW_MAX);
	ck_assert_ptr_nonnull(strstr(l.buf, "... (5000 bytes) is not one of"));
}
END_TEST

/* A line too long for its buffer ends in "..." rather than silently. */
START_TEST(overlong_line_ends_in_ellipsis)
{
	char big[1000];
	struct fr_line l;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	fr_line_init(&l);
	fr_line_add(&l, big);
	ck_assert_int_eq(l.cut, 1);
	ck_assert_int_eq(l.len, sizeof(l.buf) - 1);
	fr_line_init(&l);
	fr_line_add(&l, "short");
	ck_assert_int_eq(l.cut, 0);
}
END_TEST

START_TEST(secure_execution_ignores_everything)
{
	char *envp[] = { "FASTRAW_TSC=rdtsc", "FASTRAW_DISABLE=1", "FASTRAW_DEBUG=1", "FASTRAW_SOURCE=bogus", NULL };
	struct fr_env env;

	fr_env_parse(envp, 0, &env);
	ck_assert(env.tsc_set && env.disable && env.debug && env.nwarn == 1);
	fr_env_parse(envp, 1, &env);
	ck_assert_int_eq(env.tsc_set, 0);
	ck_assert_int_eq(env.disable, 0);
	ck_assert_int_eq(env.debug, 0);
	ck_assert_int_eq(env.nwarn, 0);
}
END_TEST

START_TEST(shadow_vdso_flag)
{
	char *on[] = { "FASTRAW_SHADOW_VDSO=1", NULL }, *off[] = { "FASTRAW_SHADOW_VDSO=0", NULL };
	char *bad[] = { "FASTRAW_SHADOW_VDSO=no", NULL }, *empty[] = { "FASTRAW_SHADOW_VDSO=", NULL };
	struct fr_env e;

	/* Off by default: the kernel's vDSO address is what getauxval gives. */
	e = parse(NULL);
	ck_assert_int_eq(e.shadow_vdso, 0);
	e = parse(on);
	ck_assert_int_eq(e.shadow_vdso, 1);
	ck_assert_int_eq(e.nwarn, 0);
	e = parse(off);
	ck_assert_int_eq(e.shadow_vdso, 0);
	ck_assert_int_eq(e.nwarn, 0);
	e = parse(empty);
	ck_assert_int_eq(e.shadow_vdso, 0);
	ck_assert_int_eq(e.nwarn, 0);
	e = parse(bad);
	ck_assert_int_eq(e.shadow_vdso, 0);
	ck_assert_int_eq(e.nwarn, 1);
	ck_assert_str_eq(e.warn[0].name, "FASTRAW_SHADOW_VDSO");
	ck_assert_str_eq(e.warn[0].accepted, "0, 1");
	/* Secure execution: ignored, the default stays. */
	fr_env_parse(on, 1, &e);
	ck_assert_int_eq(e.shadow_vdso, 0);
}
END_TEST

START_TEST(syscall_flag)
{
	char *on[] = { "FASTRAW_SYSCALL=1", NULL }, *off[] = { "FASTRAW_SYSCALL=0", NULL };
	char *bad[] = { "FASTRAW_SYSCALL=yes", NULL };
	struct fr_env e;

	e = parse(NULL);
	ck_assert_int_eq(e.syscall_raw, 0);
	e = parse(on);
	ck_assert_int_eq(e.syscall_raw, 1);
	e = parse(off);
	ck_assert_int_eq(e.syscall_raw, 0);
	e = parse(bad);
	ck_assert_int_eq(e.syscall_raw, 0);
	ck_assert_int_eq(e.nwarn, 1);
	ck_assert_str_eq(e.warn[0].name, "FASTRAW_SYSCALL");
	fr_env_parse(on, 1, &e);
	ck_assert_int_eq(e.syscall_raw, 0);
}
END_TEST

START_TEST(source_values)
{
	static const struct {
		const char *entry;
		enum fr_source source;
		int warns;
	} cases[] = {
		{ "FASTRAW_SOURCE=auto", FR_SRC_AUTO, 0 },
		{ "FASTRAW_SOURCE=kernel", FR_SRC_KERNEL, 0 },
		{ "FASTRAW_SOURCE=calibrated", FR_SRC_CALIBRATED, 0 },
		{ "FASTRAW_SOURCE=off", FR_SRC_OFF, 0 },
		{ "FASTRAW_SOURCE=", FR_SRC_AUTO, 0 },
		{ "FASTRAW_SOURCE=Calibrated", FR_SRC_AUTO, 1 },
		{ "FASTRAW_SOURCE=tsc", FR_SRC_AUTO, 1 },
	};
	char buf[64];
	char *envp[] = { "FASTRAW_SOURCE_X=off", buf, NULL };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strcpy(buf, cases[i].entry);
		struct fr_env e = parse(envp);

		ck_assert_msg(e.source == cases[i].source, "%s: source %d", cases[i].entry, (int)e.source);
		ck_assert_int_eq(e.nwarn, cases[i].warns);
		if (cases[i].warns) {
			ck_assert_str_eq(e.warn[0].name, "FASTRAW_SOURCE");
			ck_assert_str_eq(e.warn[0].accepted, "auto, kernel, calibrated, off");
		}
		/* Secure execution: ignored. */
		fr_env_parse(envp, 1, &e);
		ck_assert_int_eq(e.source, FR_SRC_AUTO);
	}
}
END_TEST

/*
 * The initial stack's environment: after argv's NULL, found by argc while the word at the stack's
 * end is argc, and by argv's own NULL once a start routine has stored argv's address there
 * (glibc's 32-bit ARM _start: a library dlopen'd after it read a pointer as the count and
 * parsed, or faulted on, whatever lay that far beyond argv).
 */
START_TEST(environment_on_stack)
{
	char *stack[] = { NULL, "prog", "-v", NULL, "FASTRAW_DEBUG=1", "HOME=/", NULL, NULL };
	char **env;

	stack[0] = (char *)2;
	env = fr_env_on_stack(stack);
	ck_assert_ptr_eq(env, &stack[4]);
	/* What _start leaves once it has run: argv's address where argc was. */
	stack[0] = (char *)&stack[1];
	env = fr_env_on_stack(stack);
	ck_assert_ptr_eq(env, &stack[4]);
	ck_assert_int_eq(parse(env).debug, 1);
	/* No count is negative: argv's NULL ends it. */
	stack[0] = (char *)-1;
	ck_assert_ptr_eq(fr_env_on_stack(stack), &stack[4]);
	/* A program without arguments (argc 0: argv is its NULL alone). */
	stack[0] = (char *)0;
	stack[1] = NULL;
	ck_assert_ptr_eq(fr_env_on_stack(stack), &stack[2]);
	stack[0] = (char *)&stack[1];
	ck_assert_ptr_eq(fr_env_on_stack(stack), &stack[2]);
}
END_TEST

#define RAW_BIT (1u << CLOCK_MONOTONIC_RAW)

/* FASTRAW_CLOCKS: "raw", "all", one word, a list; each asks for exactly its clocks, and RAW. */
START_TEST(clocks_values)
{
	static const struct {
		const char *entry;
		unsigned clocks;
	} ok[] = {
		{ "FASTRAW_CLOCKS=raw", RAW_BIT },
		{ "FASTRAW_CLOCKS=all",
		  RAW_BIT | 1u << CLOCK_REALTIME | 1u << CLOCK_MONOTONIC | 1u << CLOCK_BOOTTIME | 1u << CLOCK_TAI |
			  1u << CLOCK_REALTIME_COARSE | 1u << CLOCK_MONOTONIC_COARSE },
		{ "FASTRAW_CLOCKS=monotonic", RAW_BIT | 1u << CLOCK_MONOTONIC },
		{ "FASTRAW_CLOCKS=boottime", RAW_BIT | 1u << CLOCK_BOOTTIME },
		{ "FASTRAW_CLOCKS=realtime", RAW_BIT | 1u << CLOCK_REALTIME },
		{ "FASTRAW_CLOCKS=tai", RAW_BIT | 1u << CLOCK_TAI },
		{ "FASTRAW_CLOCKS=monotonic_coarse", RAW_BIT | 1u << CLOCK_MONOTONIC_COARSE },
		{ "FASTRAW_CLOCKS=realtime_coarse", RAW_BIT | 1u << CLOCK_REALTIME_COARSE },
		{ "FASTRAW_CLOCKS=monotonic,tai,realtime_coarse", RAW_BIT | 1u << CLOCK_MONOTONIC | 1u << CLOCK_TAI |
									 1u << CLOCK_REALTIME_COARSE },
		{ "FASTRAW_CLOCKS=raw,boottime,boottime", RAW_BIT | 1u << CLOCK_BOOTTIME },
		{ "FASTRAW_CLOCKS=", RAW_BIT },
	};
	char buf[64];
	char *envp[] = { "HOME=/root", buf, NULL };

	strcpy(buf, ok[_i].entry);
	struct fr_env e = parse(envp);

	ck_assert_uint_eq(e.clocks, ok[_i].clocks);
	ck_assert_int_eq(e.nwarn, 0);
}
END_TEST

/* Unset: RAW alone, the behaviour the library was asked for. */
START_TEST(clocks_default_is_raw)
{
	char *envp[] = { "PATH=/bin", NULL };
	struct fr_env e = parse(envp);

	ck_assert_uint_eq(e.clocks, RAW_BIT);
	e = parse(NULL);
	ck_assert_uint_eq(e.clocks, RAW_BIT);
}
END_TEST

/* One word not understood makes the whole value a warning, and RAW alone is served. */
START_TEST(clocks_unknown_warns)
{
	static const char *const bad[] = {
		"bogus", "MONOTONIC", "monotonic,", ",monotonic", "monotonic,,tai", "monotonic_raw", "all,monotonic",
		"monotonic bogus", "monotonic, tai", "cpu", "monotonicx", "mono",
	};
	char buf[64];
	char *envp[] = { buf, NULL };

	snprintf(buf, sizeof(buf), "FASTRAW_CLOCKS=%s", bad[_i]);
	struct fr_env e = parse(envp);

	ck_assert_uint_eq(e.clocks, RAW_BIT);
	ck_assert_int_eq(e.nwarn, 1);
	ck_assert_str_eq(e.warn[0].name, "FASTRAW_CLOCKS");
	ck_assert_str_eq(e.warn[0].value, bad[_i]);
	ck_assert_str_eq(e.warn[0].accepted, "raw, all, or a comma list of raw, monotonic, boottime, realtime, tai, "
					     "monotonic_coarse, realtime_coarse");
}
END_TEST

/* As every FASTRAW_* variable: ignored in a secure-execution process; the first entry counts. */
START_TEST(clocks_secure_and_duplicates)
{
	char *envp[] = { "FASTRAW_CLOCKS=all", "FASTRAW_CLOCKS=bogus", NULL };
	struct fr_env e;

	fr_env_parse(envp, 1, &e);
	ck_assert_uint_eq(e.clocks, RAW_BIT);
	ck_assert_int_eq(e.nwarn, 0);
	e = parse(envp);
	ck_assert_uint_eq(e.clocks, RAW_BIT | 1u << CLOCK_REALTIME | 1u << CLOCK_MONOTONIC | 1u << CLOCK_BOOTTIME |
					    1u << CLOCK_TAI | 1u << CLOCK_REALTIME_COARSE | 1u << CLOCK_MONOTONIC_COARSE);
	ck_assert_int_eq(e.nwarn, 0);
}
END_TEST

static Suite *env_suite(void)
{
	Suite *s = suite_create("env");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, tsc_values, 0, 5);
	tcase_add_loop_test(tc, tsc_ordered_alias, 0, 3);
	tcase_add_loop_test(tc, tsc_unknown_warns, 0, 5);
	tcase_add_loop_test(tc, flags, 0, 2);
	tcase_add_test(tc, empty_values_are_unset);
	tcase_add_test(tc, null_and_empty_envp);
	tcase_add_test(tc, unrelated_and_prefix_traps_ignored);
	tcase_add_test(tc, all_together);
	tcase_add_test(tc, every_bad_variable_warned_once);
	tcase_add_test(tc, first_duplicate_wins);
	tcase_add_test(tc, warning_escapes_control_characters);
	tcase_add_test(tc, warning_cuts_long_values_visibly);
	tcase_add_test(tc, overlong_line_ends_in_ellipsis);
	tcase_add_test(tc, secure_execution_ignores_everything);
	tcase_add_test(tc, shadow_vdso_flag);
	tcase_add_test(tc, syscall_flag);
	tcase_add_test(tc, source_values);
	tcase_add_test(tc, environment_on_stack);
	tcase_add_loop_test(tc, clocks_values, 0, 11);
	tcase_add_test(tc, clocks_default_is_raw);
	tcase_add_loop_test(tc, clocks_unknown_warns, 0, 12);
	tcase_add_test(tc, clocks_secure_and_duplicates);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(env_suite());
}
