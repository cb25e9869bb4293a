/* SPDX-License-Identifier: MIT */
/* Spawns probe programs with a constructed environment and checks their exit status and output. */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu_test.h"
#include "ksys.h"
#include "timens.h"

extern char **environ;

struct buf {
	char *p;
	size_t len, cap;
};

const char *e2e_need_env(const char *name)
{
	const char *v = getenv(name);

	ck_assert_msg(v && *v, "environment variable %s is not set (run through ctest)", name);
	return v;
}

int64_t e2e_kernel_raw_ns(void)
{
	struct timespec ts;

	ck_assert_int_eq(k_clock_gettime(CLOCK_MONOTONIC_RAW, &ts), 0);
	return ts_ns(&ts);
}

int64_t e2e_timens_shift_ns(long mono_sec)
{
	/* No file: a kernel without time namespaces, so the caller has no offset either. */
	return (int64_t)mono_sec * 1000000000LL - fr_test_timens_offset_ns();
}

static int inherited(const char *var)
{
	return strncmp(var, "LD_PRELOAD=", 11) != 0 && strncmp(var, "FASTRAW_", 8) != 0;
}

/* The child's environment: ours minus anything that could change the library's behaviour. */
static char **build_env(const struct e2e_opts *opts, char *preload)
{
	size_t n = 0, extra = 0, i = 0;
	char **env;

	while (environ[n])
		n++;
	while (opts->env && opts->env[extra])
		extra++;
	env = calloc(n + extra + 2, sizeof(*env));
	ck_assert_ptr_nonnull(env);
	for (size_t k = 0; k < n; k++)
		if (inherited(environ[k]))
			env[i++] = environ[k];
	if (preload)
		env[i++] = preload;
	for (size_t k = 0; k < extra; k++)
		env[i++] = (char *)opts->env[k];
	env[i] = NULL;
	return env;
}

/* Runs in the forked child: never returns. */
static void child(const struct e2e_opts *opts, const char *const argv[], char **env, int out, int err)
{
	if (dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	if (opts->timens_mono_sec) {
		int e = fr_test_enter_timens(opts->timens_mono_sec), st;
		pid_t pid;

		if (e) {
			dprintf(1, "e2e: cannot set up a time namespace: %s\n", strerror(e));
			_exit(125);
		}
		/* Only children of the unsharing process live in the new namespace. */
		pid = fork();
		if (pid < 0)
			_exit(125);
		if (pid > 0) {
			if (waitpid(pid, &st, 0) != pid)
				_exit(125);
			if (WIFSIGNALED(st)) {
				signal(WTERMSIG(st), SIG_DFL);
				raise(WTERMSIG(st));
			}
			_exit(WEXITSTATUS(st));
		}
	}
	execve(argv[0], (char *const *)argv, env);
	dprintf(1, "e2e: exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void buf_read(struct buf *b, int fd, int *open_fd)
{
	ssize_t n;

	if (b->cap - b->len < 4096) {
		b->cap = b->cap * 2 + 8192;
		b->p = realloc(b->p, b->cap);
		ck_assert_ptr_nonnull(b->p);
	}
	n = read(fd, b->p + b->len, b->cap - b->len - 1);
	if (n > 0) {
		b->len += (size_t)n;
	} else if (n == 0 || errno != EINTR) {
		close(fd);
		*open_fd = -1;
	}
	b->p[b->len] = '\0';
}

void e2e_run(struct e2e_result *r, const struct e2e_opts *opts, const char *const argv[])
{
	static const struct e2e_opts none;
	struct buf out = { 0 }, err = { 0 };
	int po[2], pe[2];
	char *preload = NULL;
	char **env;
	pid_t pid;

	if (!opts)
		opts = &none;
	if (!opts->no_preload) {
		/* Sanitizer builds name their runtime, which must come first of all. */
		const char *first = getenv("FR_PRELOAD_FIRST");
		int have_first = first && *first;

		ck_assert_int_gt(asprintf(&preload, "LD_PRELOAD=%s%s%s", have_first ? first : "",
					  have_first ? " " : "", e2e_need_env("FASTRAW_LIB")),
				 0);
	}
	env = build_env(opts, preload);
	ck_assert_int_eq(pipe2(po, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(pe, O_CLOEXEC), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		child(opts, argv, env, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	buf_read(&out, po[0], &po[0]);
	buf_read(&err, pe[0], &pe[0]);
	while (po[0] >= 0 || pe[0] >= 0) {
		struct pollfd p[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };

		if (poll(p, 2, -1) < 0) {
			ck_assert_int_eq(errno, EINTR);
			continue;
		}
		if (po[0] >= 0 && p[0].revents)
			buf_read(&out, po[0], &po[0]);
		if (pe[0] >= 0 && p[1].revents)
			buf_read(&err, pe[0], &pe[0]);
	}
	while (waitpid(pid, &r->status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	r->out = out.p;
	r->err = err.p;
	free(env);
	free(preload);
}

void e2e_result_free(struct e2e_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void e2e_assert_ok(const struct e2e_result *r)
{
	ck_assert_msg(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0,
		      "probe failed (wait status 0x%x)\n--- stdout:\n%.*s--- stderr:\n%.*s",
		      r->status, E2E_SHOWN, r->out, E2E_SHOWN, r->err);
}

void e2e_assert_quiet(const struct e2e_result *r)
{
	ck_assert_msg(r->err[0] == '\0', "the library printed on stderr:\n%.*s", E2E_SHOWN, r->err);
}

/* The value part of the first line "key=value" in s, or NULL. */
static const char *find_value(const char *s, const char *key)
{
	size_t klen = strlen(key);

	while (*s) {
		if (strncmp(s, key, klen) == 0 && s[klen] == '=')
			return s + klen + 1;
		s += strcspn(s, "\n");
		s += *s == '\n';
	}
	return NULL;
}

void e2e_assert_served(const struct e2e_result *r, const char *key)
{
	char want[PATH_MAX], got[PATH_MAX], real[PATH_MAX], first[PATH_MAX];
	const char *line = find_value(r->out, key);
	const char *first_lib = getenv("FR_PRELOAD_FIRST");
	size_t n;

	ck_assert_msg(line, "no %s= line in probe output:\n%.*s", key, E2E_SHOWN, r->out);
	n = strcspn(line, "\n");
	ck_assert_uint_lt(n, sizeof(got));
	memcpy(got, line, n);
	got[n] = '\0';
	ck_assert_ptr_nonnull(realpath(e2e_need_env("FASTRAW_LIB"), want));
	ck_assert_msg(realpath(got, real), "%s is served by \"%s\", not by %s", key, got, want);
	/* A sanitizer runtime intercepts clock_gettime itself and forwards to the next object. */
	if (first_lib && realpath(first_lib, first) && strcmp(real, first) == 0)
		return;
	ck_assert_msg(strcmp(real, want) == 0, "%s is served by \"%s\", not by %s", key, got, want);
}

int e2e_count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

const char *e2e_lib_text(const char *line)
{
	const char *p = line;

	if (strncmp(p, "fastraw[", 8) != 0)
		return NULL;
	p += 8;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	if (strncmp(p, "] ", 2) != 0)
		return NULL;
	p += 2;
	if (*p == ':' || *p == '\n' || !*p)
		return NULL;
	p += strcspn(p, ":\n");
	return strncmp(p, ": ", 2) == 0 ? p + 2 : NULL;
}

const char *e2e_lib_line(const char *s, const char *start)
{
	while (*s) {
		const char *text = e2e_lib_text(s);

		if (text && strncmp(text, start, strlen(start)) == 0)
			return s;
		s += strcspn(s, "\n");
		s += *s == '\n';
	}
	return NULL;
}

void e2e_stats_of(const char *err, const char *name, long long *fast, long long *pass)
{
	const char *line = e2e_lib_line(err, "stats: ");
	char key[48];
	const char *p;

	ck_assert_msg(line != NULL, "no stats line:\n%.*s", E2E_SHOWN, err);
	/* RAW opens the line; every other clock follows a comma. */
	snprintf(key, sizeof(key), strcmp(name, "MONOTONIC_RAW") ? ", %s " : "stats: %s ", name);
	*fast = *pass = 0;
	p = strstr(line, key);
	if (!p || (strchr(line, '\n') && p > strchr(line, '\n')))
		return;
	p += strlen(key);
	if (sscanf(p, "fast=%lld passthrough=%lld", fast, pass) != 2)
		ck_assert_int_eq(sscanf(p, "passthrough=%lld", pass), 1);
}

long long e2e_fast_of(const char *err, const char *name)
{
	long long fast, pass;

	e2e_stats_of(err, name, &fast, &pass);
	return fast;
}

int e2e_count_lib_lines(const char *s, const char *start)
{
	int n = 0;

	for (; (s = e2e_lib_line(s, start)) != NULL; s++)
		n++;
	return n;
}

int e2e_count_lines_with(const char *s, const char *needle)
{
	int n = 0;

	while (*s) {
		size_t len = strcspn(s, "\n");
		const char *hit = memmem(s, len, needle, strlen(needle));

		n += hit != NULL;
		s += len + (s[len] == '\n');
	}
	return n;
}

int64_t e2e_int_value(const char *s, const char *key)
{
	const char *v = find_value(s, key);

	ck_assert_msg(v, "no %s= line in probe output:\n%.*s", key, E2E_SHOWN, s);
	return strtoll(v, NULL, 10);
}

void e2e_assert_values(const char *s, const char *const *want)
{
	for (; *want; want++) {
		const char *eq = strchr(*want, '=');
		char key[64];

		ck_assert_msg(eq && (size_t)(eq - *want) < sizeof(key), "not key=<n>: %s", *want);
		memcpy(key, *want, (size_t)(eq - *want));
		key[eq - *want] = '\0';
		ck_assert_msg(e2e_int_value(s, key) == strtoll(eq + 1, NULL, 10), "%s=%lld, want %s", key,
			      (long long)e2e_int_value(s, key), eq + 1);
	}
}

int e2e_cpu_has_ordered(void)
{
	/* x86-64: RDTSCP (CPUID 0x80000001, EDX bit 27); arm64: FEAT_ECV (AT_HWCAP2 bit 19). */
	return frt_cpu_has_ordered();
}

const char *e2e_default_counter(void)
{
	return e2e_cpu_has_ordered() ? E2E_ORDERED : E2E_FENCED;
}

/*
 * The library's names for the current clocksource's clock mode (one, or two where the kernel
 * may pick either), or NULL when the test does not know them.
 */
static const char *const *expected_clocks(void)
{
	static const char *const tsc[] = { "tsc", NULL }, *const pvclock[] = { "pvclock", NULL };
	static const char *const none[] = { "none", NULL };
	/* arm64's generic timer: NOCOMPAT only tells 32-bit tasks to take the system call. */
	static const char *const archtimer[] = { "archtimer", "archtimer_nocompat", NULL };
	char cs[64] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = '\0';
		fclose(f);
	}
	cs[strcspn(cs, "\n")] = '\0';
	/* tsc-early is the TSC before its calibration is refined: the same clock mode. */
	if (strcmp(cs, "tsc") == 0 || strcmp(cs, "tsc-early") == 0)
		return tsc;
	if (strcmp(cs, "kvm-clock") == 0)
		return pvclock;
	if (strcmp(cs, "arch_sys_counter") == 0)
		return archtimer;
	/* Clocksources the vDSO cannot read: the kernel serves every call. */
	if (strcmp(cs, "hpet") == 0 || strcmp(cs, "acpi_pm") == 0)
		return none;
	return NULL;
}

/* Whether an era name, "A.B+" or "A.B-C.D" (then a space), covers the release major * 1000 + minor. */
static int era_covers(const char *era, int release)
{
	int a, b, c, d, n = 0;

	if (sscanf(era, "%d.%d-%d.%d%n", &a, &b, &c, &d, &n) == 4 && n > 0 && era[n] == ' ')
		return a * 1000 + b <= release && release <= c * 1000 + d;
	n = 0;
	if (sscanf(era, "%d.%d+%n", &a, &b, &n) == 2 && n > 0 && era[n] == ' ')
		return a * 1000 + b <= release;
	return 0;
}

int e2e_expect_passthrough(void)
{
	const char *v = getenv("FR_E2E_EXPECT");

	if (!v || !*v || strcmp(v, "active") == 0 || strcmp(v, "calibrated") == 0)
		return 0;
	ck_assert_msg(strcmp(v, "passthrough") == 0,
		      "FR_E2E_EXPECT=%s: want \"active\", \"calibrated\" or \"passthrough\"", v);
	return 1;
}

int e2e_kernel_before_data(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	ck_assert_int_eq(uname(&u), 0);
	ck_assert_int_eq(sscanf(u.release, "%d.%d", &major, &minor), 2);
	return major * 1000 + minor < FRT_FIRST_DATA_RELEASE;
}

int e2e_expect_calibrated(void)
{
	const char *v = getenv("FR_E2E_EXPECT");

	return !e2e_expect_passthrough() && v && strcmp(v, "calibrated") == 0;
}

/*
 * The one FASTRAW_DEBUG line in err, checked as far as every outcome shares it: this kernel, an
 * era that covers it, this clocksource. Returns the line; its length is in *len.
 */
static const char *debug_line(const char *err, size_t *len)
{
	char prefix[128 + sizeof(((struct utsname *)0)->release)], want[64];
	const char *line = e2e_lib_line(err, "kernel=");
	const char *const *clock = expected_clocks();
	struct utsname u;
	int major = 0, minor = 0;
	const char *era, *want_era = getenv("FR_E2E_ERA");

	ck_assert_msg(e2e_count_lib_lines(err, "kernel=") == 1,
		      "want exactly one debug line, stderr:\n%.*s", E2E_SHOWN, err);
	/* From here on, the line's text after "fastraw[PID] PROGRAM: ". */
	line = e2e_lib_text(line);
	*len = strcspn(line, "\n");
	ck_assert_int_eq(uname(&u), 0);
	snprintf(prefix, sizeof(prefix), "kernel=%s era=", u.release);
	ck_assert_msg(strncmp(line, prefix, strlen(prefix)) == 0, "debug line lacks \"%s\": %.*s",
		      prefix, (int)*len, line);
	sscanf(u.release, "%d.%d", &major, &minor);
	era = line + strlen(prefix);
	/* The era the configuration names (FR_E2E_ERA: a vendor kernel's page under an older release). */
	if (want_era && *want_era) {
		size_t n = strlen(want_era);

		ck_assert_msg(strncmp(era, want_era, n) == 0 && era[n] == ' ', "want era=%s (FR_E2E_ERA): %.*s", want_era,
			      (int)*len, line);
	}
	/*
	 * Before 5.3 a kernel has no RAW data by its release: no era and no clock mode were read,
	 * whatever serves RAW. Where an era was read all the same (RHEL 8.4+'s 4.18, with the
	 * generic vDSO), it is one the page and the vDSO prove, marked assumed, and only where the
	 * exact path is expected.
	 */
	if (e2e_kernel_before_data() &&
	    (e2e_expect_passthrough() || e2e_expect_calibrated() || strncmp(era, "none ", 5) == 0)) {
		ck_assert_msg(strncmp(era, "none clock=unknown ", 19) == 0, "want era=none clock=unknown: %.*s",
			      (int)*len, line);
		return line;
	}
	/* An era the release does not name must say it was assumed, and why (startup/locate.c). */
	ck_assert_msg(era_covers(era, major * 1000 + minor) || strstr(era, " (assumed: ") == era + strcspn(era, " "),
		      "era does not cover kernel %s and is not marked assumed: %.*s", u.release, (int)*len, line);
	if (clock) {
		int seen = 0;

		for (int i = 0; clock[i] && !seen; i++) {
			snprintf(want, sizeof(want), " clock=%s ", clock[i]);
			seen = memmem(line, *len, want, strlen(want)) != NULL;
		}
		ck_assert_msg(seen, "want clock=%s%s%s: %.*s", clock[0], clock[1] ? " or " : "",
			      clock[1] ? clock[1] : "", (int)*len, line);
	}
	return line;
}

void e2e_assert_debug_active(const char *err, const char *counter)
{
	char want[64];
	size_t len;
	const char *line = debug_line(err, &len);

	if (e2e_expect_calibrated()) {
		snprintf(want, sizeof(want), " counter=%s calibrated: seed ", counter ? counter : e2e_default_counter());
		ck_assert_msg(memmem(line, len, want, strlen(want)), "want a line with \"%s\": %.*s", want, (int)len,
			      line);
		return;
	}
	snprintf(want, sizeof(want), " counter=%s active", counter ? counter : e2e_default_counter());
	ck_assert_msg(len >= strlen(want) && memcmp(line + len - strlen(want), want, strlen(want)) == 0,
		      "want a line ending in \"%s\": %.*s", want, (int)len, line);
}

void e2e_assert_debug_passthrough(const char *err, const char *reason)
{
	static const char pass[] = " passthrough: ";
	size_t len, word;
	const char *line = debug_line(err, &len), *end = line + len;
	const char *counter = memmem(line, len, " counter=", 9), *rest;

	ck_assert_msg(counter, "want \" counter=\": %.*s", (int)len, line);
	counter += 9;
	word = strcspn(counter, " \n");
	rest = counter + word;
	ck_assert_msg(word > 0 && (size_t)(end - rest) >= strlen(pass) &&
			      memcmp(rest, pass, strlen(pass)) == 0,
		      "want \" counter=<read>%s\": %.*s", pass, (int)len, line);
	rest += strlen(pass);
	ck_assert_msg(memmem(rest, (size_t)(end - rest), reason, strlen(reason)),
		      "want a pass-through reason with \"%s\": %.*s", reason, (int)len, line);
}

void e2e_assert_debug(const char *err, const char *counter)
{
	/* Pass-through where the clocksource has no vDSO reader means calibrated mode was refused
	   too (auto): the line must say why. */
	if (e2e_expect_passthrough()) {
		e2e_assert_debug_passthrough(err, e2e_kernel_before_data() ? E2E_NO_RAW_DATA : "clock mode none");
		e2e_assert_debug_passthrough(err, "; calibrated mode not eligible: ");
	} else
		e2e_assert_debug_active(err, counter);
}

TCase *e2e_tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return tc;
}

