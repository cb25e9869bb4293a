/* SPDX-License-Identifier: MIT */
/* End-to-end: odd but legal linking never breaks the host: exports called before we are relocated, libraries the loader moved, a dlmopen namespace, first calls where the loader's lock is held. */
#define _GNU_SOURCE
#include "cpu_test.h"
#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * In a FASTRAW_SANITIZE build the probes and the library are instrumented: code that runs while
 * ld.so relocates, before the sanitizer runtime is initialised, or a second runtime in a dlmopen
 * namespace, is outside what the sanitizers support, with or without us. Those cases are for
 * the ordinary build.
 */
static int sanitized(void)
{
	const char *first = getenv("FR_PRELOAD_FIRST");

	if (first && *first) {
		printf("skipped in a sanitizer build\n");
		return 1;
	}
	return 0;
}

/* A probe run with the preload (or without: the program alone), which must exit 0. */
static void run(struct e2e_result *r, const char *probe_var, int preload, const char *const *env)
{
	const struct e2e_opts opts = { .env = env, .no_preload = !preload };

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env(probe_var)));
	e2e_assert_ok(r);
}

static int64_t field(const char *out, const char *prefix, const char *name)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", prefix, name);
	return e2e_int_value(out, key);
}

/*
 * What each export answered where prefix's calls were made: the auxiliary vector as libc gives
 * it (compared with the program's own calls in main, which reach libc's getauxval either way),
 * ENOENT for an unknown type, clocks that worked and lie before the kernel's RAW read last,
 * lookups and syscall() as libc's.
 */
static void assert_record(const char *out, const char *prefix, int api)
{
	int64_t kernel = e2e_int_value(out, "kernel_raw_ns");

	ck_assert_int_eq(field(out, prefix, "done"), 1);
	ck_assert_int_eq(field(out, prefix, "hwcap"), field(out, "main_", "hwcap"));
	ck_assert_int_eq(field(out, prefix, "pagesz"), field(out, "main_", "pagesz"));
	ck_assert_int_eq(field(out, prefix, "ehdr"), field(out, "main_", "ehdr"));
	ck_assert_int_eq(field(out, prefix, "bogus"), 0);
	ck_assert_int_eq(field(out, prefix, "bogus_errno"), ENOENT);
	ck_assert_int_eq(field(out, prefix, "mono_rc"), 0);
	ck_assert_int_eq(field(out, prefix, "raw_rc"), 0);
	ck_assert_int_gt(field(out, prefix, "raw_ns"), 0);
	ck_assert_int_le(field(out, prefix, "raw_ns"), kernel);
	ck_assert_int_eq(field(out, prefix, "dlsym_ok"), 1);
	ck_assert_int_eq(field(out, prefix, "dlvsym_ok"), 1);
	ck_assert_int_eq(field(out, prefix, "dlsym_next_ok"), 1);
	ck_assert_int_eq(field(out, prefix, "sc_pid_ok"), 1);
	ck_assert_int_eq(field(out, prefix, "sc_raw_rc"), 0);
	ck_assert_int_gt(field(out, prefix, "sc_raw_ns"), 0);
	ck_assert_int_le(field(out, prefix, "sc_raw_ns"), kernel);
	ck_assert_int_eq(field(out, prefix, "api"), api);
	if (api) {
		ck_assert_int_gt(field(out, prefix, "now_ns"), 0);
		ck_assert_int_le(field(out, prefix, "now_ns"), kernel);
		ck_assert_int_eq(field(out, prefix, "ticks_nonzero"), 1);
		/* MONOTONIC through the API after clock_gettime's: no earlier; NULL: -1, as the kernel answers. */
		ck_assert_int_eq(field(out, prefix, "clock_rc"), 0);
		ck_assert_int_ge(field(out, prefix, "clock_ns"), field(out, prefix, "mono_ns"));
		ck_assert_int_le(field(out, prefix, "clock_ns"), field(out, "main_", "clock_ns"));
		ck_assert_int_eq(field(out, prefix, "clock_null_rc"), -1);
	}
}

/*
 * A dependency's IFUNC resolver runs while ld.so relocates that dependency, before it relocates
 * the preloaded libfastraw; the program's own runs after, before any constructor. Both call
 * every export. The program alone gives the reference; the host must see the same under us.
 */
START_TEST(ifunc_resolvers_call_every_export)
{
	static const char *const envs[][3] = {
		{ "FASTRAW_SHADOW_VDSO=0", NULL, NULL },
		{ "FASTRAW_SYSCALL=1", "FASTRAW_DEBUG=1", "FASTRAW_STATS=1" },
		{ "FASTRAW_SHADOW_VDSO=0", "LD_BIND_NOW=1", NULL },
		{ "FASTRAW_CLOCKS=all", "FASTRAW_STATS=1", NULL },
	};
	struct e2e_result alone, r;

	if (sanitized())
		return;
	run(&alone, "FR_PROBE_EARLY", 0, NULL);
	assert_record(alone.out, "dep_", 0);
	assert_record(alone.out, "own_", 0);
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		run(&r, "FR_PROBE_EARLY", 1, envs[i]);
		ck_assert_msg(strstr(r.out, "calls=7,8"), "output:\n%.*s", E2E_SHOWN, r.out);
		assert_record(r.out, "dep_", 1);
		assert_record(r.out, "own_", 1);
		assert_record(r.out, "main_", 1);
		ck_assert_int_eq(field(r.out, "main_", "hwcap"), field(alone.out, "main_", "hwcap"));
		/* Ordered: the dependency's calls, the program's resolver's, main's. */
		ck_assert_int_le(field(r.out, "dep_", "raw_ns"), field(r.out, "own_", "raw_ns"));
		ck_assert_int_le(field(r.out, "own_", "raw_ns"), field(r.out, "main_", "raw_ns"));
		e2e_result_free(&r);
	}
	e2e_result_free(&alone);
}
END_TEST

/*
 * Two libraries linked at one non-zero base: the loader moves the second, with a load bias that
 * wraps below zero (a base near the top of user space) or a positive one (a low base). Every
 * export, and a versioned RTLD_NEXT lookup, must work as without us.
 */
static void bias_case(const char *probe_var)
{
	struct e2e_result alone, r;

	run(&alone, probe_var, 0, NULL);
	ck_assert_msg(strstr(alone.out, "calls=1,2"), "output:\n%.*s", E2E_SHOWN, alone.out);
	run(&r, probe_var, 1, E2E_ENV("FASTRAW_SHADOW_VDSO=0"));
	ck_assert_msg(strstr(r.out, "calls=1,2"), "output:\n%.*s", E2E_SHOWN, r.out);
	assert_record(r.out, "main_", 1);
	ck_assert_int_eq(e2e_int_value(r.out, "next_v_rc"), 0);
	ck_assert_int_eq(field(r.out, "main_", "hwcap"), field(alone.out, "main_", "hwcap"));
	e2e_result_free(&r);
	e2e_result_free(&alone);
}

START_TEST(moved_library_negative_bias)
{
	bias_case("FR_PROBE_BIAS_NEG");
}
END_TEST

START_TEST(moved_library_positive_bias)
{
	bias_case("FR_PROBE_BIAS_POS");
}
END_TEST

/* libfastraw in a namespace of its own: its walk of the loader's list must find itself and that namespace's libc. */
START_TEST(dlmopen_namespace)
{
	char lib[4200];
	struct e2e_result r;
	static const char *const keys[] = { "raw_rc", "mono_rc" };
	static const char *const oks[] = { "raw_ok", "pagesz_ok", "getpid_ok", "dlsym_ok", "now_ok" };

	if (sanitized())
		return;
	snprintf(lib, sizeof(lib), "FR_DLMOPEN_LIB=%s", e2e_need_env("FASTRAW_LIB"));
	for (int preload = 0; preload < 2; preload++) {
		run(&r, "FR_PROBE_DLMOPEN", preload, E2E_ENV(lib));
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			ck_assert_int_eq(e2e_int_value(r.out, keys[i]), 0);
		for (size_t i = 0; i < sizeof(oks) / sizeof(oks[0]); i++)
			ck_assert_msg(e2e_int_value(r.out, oks[i]) == 1, "%s; output:\n%.*s", oks[i], E2E_SHOWN, r.out);
		e2e_result_free(&r);
	}
}
END_TEST

/*
 * A copy loaded by dlmopen into a namespace of its own, where it stands before that namespace's
 * libc, was not loaded at start: as a dlopen'd one, it writes no debug or stats line into the
 * program's data file on fd 2 (a copy loaded after start-up writes only to a terminal).
 */
START_TEST(dlmopen_copy_keeps_out_of_fd2)
{
	char lib[4200], data[128], path[80];
	struct e2e_result r;
	struct stat st;
	int fd;

	if (sanitized())
		return;
	snprintf(lib, sizeof(lib), "FR_DLMOPEN_LIB=%s", e2e_need_env("FASTRAW_LIB"));
	snprintf(path, sizeof(path), "/tmp/fr_dlmopen_data_XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(data, sizeof(data), "FR_DLMOPEN_DATA=%s", path);
	for (int plain = 0; plain < 2; plain++) {
		run(&r, "FR_PROBE_DLMOPEN", 0,
		    plain ? E2E_ENV(lib, data, "FASTRAW_DEBUG=1", "FASTRAW_STATS=1", "FR_DLMOPEN_PLAIN=1")
			  : E2E_ENV(lib, data, "FASTRAW_DEBUG=1", "FASTRAW_STATS=1"));
		ck_assert_int_eq(e2e_int_value(r.out, "raw_rc"), 0);
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_msg(st.st_size == 0, "%s: %lld bytes written into the program's fd 2", plain ? "dlopen" : "dlmopen",
			      (long long)st.st_size);
		e2e_result_free(&r);
	}
	unlink(path);
}
END_TEST

/*
 * ld.so run as the program (`ld.so ./prog`): the kernel then gives AT_BASE 0, and the exports
 * called before relocation must find the loader another way. The same answers as without us.
 */
START_TEST(ifunc_resolvers_under_ldso_as_program)
{
	static const char ldso[] = FRT_LDSO_PATH;
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_SHADOW_VDSO=0") };
	struct e2e_result r;

	if (sanitized() || access(ldso, X_OK) != 0)
		return;
	e2e_run(&r, &opts, E2E_ARGV(ldso, e2e_need_env("FR_PROBE_EARLY")));
	e2e_assert_ok(&r);
	assert_record(r.out, "dep_", 1);
	assert_record(r.out, "own_", 1);
	assert_record(r.out, "main_", 1);
	e2e_result_free(&r);
}
END_TEST

/*
 * The same program under `ld.so ./prog` prints the same one debug line as run directly: the
 * library finds the loader there too (glibc rewrites the stack's AT_PHDR to the program's once it
 * has loaded it, so only the kernel's copy still points at ld.so), knows it was loaded at start
 * and writes to the stderr the process started with.
 */
START_TEST(debug_line_under_ldso_as_program)
{
	static const char ldso[] = FRT_LDSO_PATH;
	const struct e2e_opts opts = { .env = E2E_ENV("FASTRAW_DEBUG=1", "FASTRAW_SHADOW_VDSO=0") };
	struct e2e_result direct, under;
	const char *want, *got;

	if (sanitized() || access(ldso, X_OK) != 0)
		return;
	/* A program without IFUNC resolvers of its own: nothing looks for the loader before our constructor. */
	e2e_run(&direct, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_BIAS_POS")));
	e2e_run(&under, &opts, E2E_ARGV(ldso, e2e_need_env("FR_PROBE_BIAS_POS")));
	e2e_assert_ok(&direct);
	e2e_assert_ok(&under);
	ck_assert_msg(e2e_count_lines(direct.err) == 1, "run directly, stderr:\n%.*s", E2E_SHOWN, direct.err);
	ck_assert_msg(e2e_count_lines(under.err) == 1, "under ld.so, stderr:\n%.*s", E2E_SHOWN, under.err);
	/* Everything after the pid: the program's name and the decisions. */
	want = strstr(direct.err, "] ");
	got = strstr(under.err, "] ");
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	e2e_result_free(&direct);
	e2e_result_free(&under);
}
END_TEST

/*
 * The first call of each async-signal-safe export (MONOTONIC, REALTIME, syscall(), getauxval,
 * RAW) in a child forked while other threads of its parent take the loader's lock (dlopen and
 * dlclose, dl_iterate_phdr), and in a handler that interrupted its own thread inside
 * dl_iterate_phdr: none may wait on that lock. Each child has a 2 s alarm.
 */
START_TEST(first_calls_where_the_loader_lock_is_held)
{
	static const char *const modes[] = { "fork", "signal" };
	struct e2e_result r;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const struct e2e_opts opts = { 0 };

		e2e_run(&r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_FIRSTCALL"), modes[i], "100"));
		e2e_assert_ok(&r);
		ck_assert_msg(e2e_int_value(r.out, "hung") == 0, "%s: %.*s", modes[i], E2E_SHOWN, r.out);
		ck_assert_int_eq(e2e_int_value(r.out, "runs"), 100);
		e2e_result_free(&r);
	}
}
END_TEST

static Suite *host_suite(void)
{
	Suite *s = suite_create("e2e_host");
	TCase *tc = tcase_create("host");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ifunc_resolvers_call_every_export);
	tcase_add_test(tc, moved_library_negative_bias);
	tcase_add_test(tc, moved_library_positive_bias);
	tcase_add_test(tc, dlmopen_namespace);
	tcase_add_test(tc, dlmopen_copy_keeps_out_of_fd2);
	tcase_add_test(tc, ifunc_resolvers_under_ldso_as_program);
	tcase_add_test(tc, debug_line_under_ldso_as_program);
	tcase_add_test(tc, first_calls_where_the_loader_lock_is_held);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fr_run_suite(host_suite());
}
