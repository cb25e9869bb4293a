/* SPDX-License-Identifier: MIT */
/* PID 1 of a kernel-matrix guest: runs the end-to-end suites it is told to, reports on the console, powers off. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest_machine.h"
#include "guest_speed.h"
#include "timens.h"

/*
 * What the guest is told comes from two places. The initramfs holds /matrix/manifest, written
 * by the build: "suite NAME PATH" and "env NAME=VALUE" lines (the CTest entries' programs and
 * environment, at the same absolute paths as on the host). The kernel command line sets, per
 * configuration, the environment of this process (unknown NAME=VALUE boot options reach init
 * that way):
 *   FR_MATRIX_SUITES       comma-separated suite names to run, in order; NAME:CASE runs only
 *                          that Check case of the suite (CK_RUN_CASE);
 *   FR_MATRIX_CLOCKSOURCE  wait until this is the current clocksource before starting;
 *   FR_MATRIX_TIMENS       nonzero: run every suite in a new time namespace with this
 *                          CLOCK_MONOTONIC offset in seconds;
 *   FR_E2E_EXPECT          passed on to the suites (active, calibrated or passthrough);
 *   FR_E2E_GTOD            passed on to the suites: the gtod layout a pre-5.3 kernel's page
 *                          has ("3.10", "3.16-4.19", "4.20-5.2"), which e2e_calib expects on the
 *                          debug line;
 *   FR_E2E_CALIB_SECONDS   passed on to the suites: how long e2e_calib's drift case runs;
 *   FR_MATRIX_LATENCY      nonzero: before the suites, fastraw-latency (the manifest's
 *                          FR_TOOL_LATENCY) on MONOTONIC_RAW without and with the library, and
 *                          their ratio, on one line (a measurement, not a test);
 *   FR_E2E_ERA             passed on to the suites: the era of the data page of a kernel whose
 *                          release names none ("5.7-6.4" under RHEL 8.10's 4.18), which every
 *                          suite's debug-line check expects;
 *   FR_MATRIX_ENV          NAME: /matrix/env.NAME's "env NAME=VALUE" lines replace the manifest's
 *                          of the same name, or are added (the suites' probes built for another
 *                          userland, such as glibc 2.17's: scripts/matrix-glibc217.sh).
 * Before the suites it measures how fast this guest runs (guest_speed.c) and gives the suites CK_TIMEOUT_MULTIPLIER = CK_BASE times that factor, and it
 * shows the library's FASTRAW_DEBUG line for this guest (the bracket probe, preloaded, briefly).
 * Every line meant for the host starts with "FRMATRIX: ", but for the suites' own output and
 * the library's debug line.
 */

#define MANIFEST "/matrix/manifest"
#define MAX_ENV 256
#define MAX_SUITES 32
#define LINE_MAX_LEN 1024
#define CLOCKSOURCE_WAIT_S 30
/* Check's timeouts (e2e: 120 s a test case) times this, times the speed factor. */
#define CK_BASE 2

struct suite {
	char name[64];
	char path[LINE_MAX_LEN];
};

static char env_store[MAX_ENV][LINE_MAX_LEN];
static char *child_env[MAX_ENV + 14]; /* the manifest's, pass_on's 8, the guest mark, the multiplier, the exclusion, a case */
static struct suite suites[MAX_SUITES];
static int nsuites, nenv;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("FRMATRIX: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Still here: PID 1 must not exit quietly; the kernel panics and QEMU (-no-reboot) stops. */
	for (;;)
		pause();
}

static void mount_or_say(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) != 0 && errno != EBUSY)
		say("warning: mount %s on %s: %s", type, dir, strerror(errno));
}

/* The console as stdin, stdout and stderr, whatever the kernel left open. */
static void open_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0)
		fd = open(FR_GUEST_SERIAL, O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fd != i)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static int read_manifest(void)
{
	char line[LINE_MAX_LEN];
	FILE *f = fopen(MANIFEST, "r");

	if (!f) {
		say("error: cannot open %s: %s", MANIFEST, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "env ", 4) == 0 && nenv < MAX_ENV) {
			snprintf(env_store[nenv], LINE_MAX_LEN, "%s", line + 4);
			child_env[nenv] = env_store[nenv];
			nenv++;
		} else if (strncmp(line, "env ", 4) == 0) {
			/* Never dropped in silence: the suites that need it would fail for no visible reason. */
			say("error: more than %d env lines in %s", MAX_ENV, MANIFEST);
			fclose(f);
			return -1;
		} else if (strncmp(line, "suite ", 6) == 0 && nsuites < MAX_SUITES) {
			struct suite *s = &suites[nsuites];
			char *sp = strchr(line + 6, ' ');

			if (!sp)
				continue;
			*sp = '\0';
			snprintf(s->name, sizeof(s->name), "%.63s", line + 6);
			snprintf(s->path, sizeof(s->path), "%s", sp + 1);
			nsuites++;
		}
	}
	fclose(f);
	return 0;
}

/* Sets NAME=VALUE (line) in the children's environment, replacing the manifest's NAME. */
static int set_env_line(const char *line)
{
	size_t n = strcspn(line, "=");
	int i;

	if (line[n] != '=')
		return 0;
	for (i = 0; i < nenv; i++)
		if (strncmp(env_store[i], line, n + 1) == 0)
			break;
	if (i == MAX_ENV)
		return -1;
	snprintf(env_store[i], LINE_MAX_LEN, "%s", line);
	child_env[i] = env_store[i];
	if (i == nenv)
		nenv++;
	return 0;
}

/* The configuration's own environment (FR_MATRIX_ENV), over the manifest's; 0, or -1 said. */
static int read_env_overrides(const char *name)
{
	char path[128], line[LINE_MAX_LEN];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/matrix/env.%s", name);
	f = fopen(path, "r");
	if (!f) {
		say("error: FR_MATRIX_ENV=%s: cannot open %s: %s", name, path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "env ", 4) != 0)
			continue;
		if (set_env_line(line + 4) != 0) {
			say("error: more than %d env lines with %s", MAX_ENV, path);
			fclose(f);
			return -1;
		}
		say("env %s: %s", name, line + 4);
		n++;
	}
	fclose(f);
	child_env[nenv] = NULL;
	return n > 0 ? 0 : (say("error: no env lines in %s", path), -1);
}

/* Adds NAME=value of our own environment to the children's, when set. */
static void pass_on(const char *name)
{
	static char store[8][LINE_MAX_LEN];
	static int used;
	const char *v = getenv(name);

	if (!v || used == 8)
		return;
	snprintf(store[used], LINE_MAX_LEN, "%s=%s", name, v);
	child_env[nenv++] = store[used++];
	child_env[nenv] = NULL;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	buf[0] = '\0';
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

static int wait_clocksource(const char *want)
{
	char cur[64];

	for (int i = 0; i < CLOCKSOURCE_WAIT_S * 10; i++) {
		read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", cur,
			  sizeof(cur));
		if (strcmp(cur, want) == 0)
			return 0;
		usleep(100000);
	}
	say("error: clocksource is \"%s\" after %d s, not \"%s\"", cur, CLOCKSOURCE_WAIT_S, want);
	return -1;
}

/* Moves this process's future children into a new time namespace. */
static int enter_timens(long mono_sec)
{
	int err = fr_test_enter_timens(mono_sec);

	if (err)
		say("error: cannot enter a time namespace: %s", strerror(err));
	return err ? -1 : 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const struct suite *find_suite(const char *name)
{
	for (int i = 0; i < nsuites; i++)
		if (strcmp(suites[i].name, name) == 0)
			return &suites[i];
	return NULL;
}

/* Runs one suite (only its Check case tc when not NULL) in a child with the manifest's environment; returns 1 when it passed. */
static int run_suite(const struct suite *s, const char *tc)
{
	char *argv[] = { (char *)s->path, NULL };
	static char run_case[96];
	double t0 = now_s();
	int st;
	pid_t pid;

	say("start %s%s%s", s->name, tc ? ":" : "", tc ? tc : "");
	pid = fork();
	if (pid < 0) {
		say("suite %s fail fork: %s", s->name, strerror(errno));
		return 0;
	}
	if (pid == 0) {
		if (tc) {
			snprintf(run_case, sizeof(run_case), "CK_RUN_CASE=%s", tc);
			child_env[nenv] = run_case;
			child_env[nenv + 1] = NULL;
		}
		execve(s->path, argv, child_env);
		printf("exec %s: %s\n", s->path, strerror(errno));
		_exit(127);
	}
	/* PID 1 also reaps orphans: wait for this child in particular. */
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			say("suite %s fail waitpid: %s", s->name, strerror(errno));
			return 0;
		}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		say("suite %s pass %.1fs", s->name, now_s() - t0);
		return 1;
	}
	if (WIFEXITED(st))
		say("suite %s fail exit=%d %.1fs", s->name, WEXITSTATUS(st), now_s() - t0);
	else
		say("suite %s fail signal=%d %.1fs", s->name, WTERMSIG(st), now_s() - t0);
	return 0;
}

/* Sets CK_TIMEOUT_MULTIPLIER for the suites from the measured speed. */
static void scale_timeouts(void)
{
	static char mult[48];
	double fork_ms, loop_ms, f = fr_guest_speed(&fork_ms, &loop_ms);
	int m = (int)(CK_BASE * f + 0.999);

	snprintf(mult, sizeof(mult), "CK_TIMEOUT_MULTIPLIER=%d", m);
	child_env[nenv++] = mult;
	child_env[nenv] = NULL;
	say("speed calib=%.0fms (forks %.0f, loop %.0f) factor=%.1f ck_timeout_multiplier=%d",
	    fork_ms + loop_ms, fork_ms, loop_ms, f, m);
}

/* The value of NAME in the manifest's environment, or NULL. */
static const char *manifest_env(const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < nenv; i++)
		if (strncmp(child_env[i], name, n) == 0 && child_env[i][n] == '=')
			return child_env[i] + n + 1;
	return NULL;
}

/* Runs probe (with arg, or none) under LD_PRELOAD=lib and FASTRAW_DEBUG=1; its stdout reaches the console only when show_out. */
static void run_preloaded(const char *lib, const char *probe, const char *arg, int show_out)
{
	char preload[LINE_MAX_LEN];
	pid_t pid;

	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", lib);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)probe, (char *)arg, arg ? "1" : NULL, NULL };
		char *envp[] = { preload, "FASTRAW_DEBUG=1", NULL };
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0 && !show_out)
			dup2(null, 1);
		execve(probe, argv, envp);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/*
 * The library's own account of this guest: its FASTRAW_DEBUG line, from a brief preloaded probe
 * (only stderr, the library's line, reaches the console). Where the configuration names its
 * glibc (FR_E2E_GLIBC), the version probe's lines too: the glibc the probes run on, the objects
 * loaded and which one serves clock_gettime.
 */
static void report_library(void)
{
	const char *lib = manifest_env("FASTRAW_LIB"), *probe = manifest_env("FR_PROBE_BRACKET");
	const char *version = manifest_env("FR_PROBE_LIBC_VERSION");

	if (!lib || !probe) {
		say("library: no FASTRAW_LIB or FR_PROBE_BRACKET in the manifest");
		return;
	}
	run_preloaded(lib, probe, "1000", 0);
	if (manifest_env("FR_E2E_GLIBC") && version)
		run_preloaded(lib, version, NULL, 1);
}

/*
 * The mean nanoseconds between consecutive MONOTONIC_RAW reads by fastraw-latency, under
 * LD_PRELOAD=lib when lib is not NULL: its "sum: NS" lines, one per repeat of LATENCY_SAMPLES
 * reads, of the last LATENCY_KEPT of LATENCY_RUNS repeats (whole sums, so fractions of a
 * nanosecond count). The first repeats are left out: calibrated mode answers from the kernel
 * during its warm-up (up to 2 s), which is not the cost of a read after it. -1 when it failed.
 */
#define LATENCY_SAMPLES 1000000
#define LATENCY_RUNS 8
#define LATENCY_KEPT 3
#define STR_(x) #x
#define STR(x) STR_(x)
static double latency_ns(const char *tool, const char *lib)
{
	char preload[LINE_MAX_LEN], line[256];
	long long sum, sums[LATENCY_RUNS], total = 0;
	int fd[2], runs = 0, st;
	pid_t pid;
	FILE *f;

	if (pipe(fd) != 0)
		return -1;
	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", lib ? lib : "");
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)tool, "-n", STR(LATENCY_SAMPLES), "-r", STR(LATENCY_RUNS), NULL };
		char *envp[] = { preload, NULL };

		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execve(tool, argv, lib ? envp : envp + 1);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "sum: %lld", &sum) == 1 && runs < LATENCY_RUNS)
			sums[runs++] = sum;
	if (f)
		fclose(f);
	else
		close(fd[0]);
	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || runs != LATENCY_RUNS)
		return -1;
	for (int i = LATENCY_RUNS - LATENCY_KEPT; i < LATENCY_RUNS; i++)
		total += sums[i];
	return (double)total / ((double)LATENCY_KEPT * (LATENCY_SAMPLES - 1));
}

/* The report's own measurement (FR_MATRIX_LATENCY): a call's cost without and with the library. */
static void report_latency(void)
{
	const char *tool = manifest_env("FR_TOOL_LATENCY"), *lib = manifest_env("FASTRAW_LIB");
	double without, with;

	if (!tool || !lib) {
		say("latency: no FR_TOOL_LATENCY or FASTRAW_LIB in the manifest");
		return;
	}
	without = latency_ns(tool, NULL);
	with = latency_ns(tool, lib);
	if (without <= 0 || with <= 0) {
		say("latency: fastraw-latency failed (without %.1f, with %.1f)", without, with);
		return;
	}
	say("latency MONOTONIC_RAW without=%.1fns with=%.1fns ratio=%.2f (fastraw-latency -n %d -r %d, the last %d; auto mode)",
	    without, with, without / with, LATENCY_SAMPLES, LATENCY_RUNS, LATENCY_KEPT);
}

/*
 * A kernel without time namespaces (before 5.6): the suites' cases tagged "timens" are left out
 * (Check's CK_EXCLUDE_TAGS), and the console says so; nothing else is skipped.
 */
static void exclude_timens_cases(void)
{
	static char exclude[] = "CK_EXCLUDE_TAGS=timens";

	if (access("/proc/self/ns/time", F_OK) == 0)
		return;
	child_env[nenv++] = exclude;
	child_env[nenv] = NULL;
	say("no time namespaces on this kernel: the suites' timens cases are left out");
}

static void report_machine(void)
{
	char cs[64], cpu[96];
	struct utsname u;

	uname(&u);
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", cs, sizeof(cs));
	fr_guest_cpu_facts(cpu, sizeof(cpu));
	say("kernel=%s clocksource=%s %s cpus=%ld", u.release, cs, cpu, sysconf(_SC_NPROCESSORS_ONLN));
}

/* The children's view of the time namespace, checked from a child (we stay outside it). */
static void report_timens(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		char line[128];
		FILE *f = fopen("/proc/self/timens_offsets", "r");

		while (f && fgets(line, sizeof(line), f))
			if (strncmp(line, "monotonic", 9) == 0) {
				line[strcspn(line, "\n")] = '\0';
				say("timens %s", line);
			}
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

int main(void)
{
	const char *list = getenv("FR_MATRIX_SUITES");
	const char *cs = getenv("FR_MATRIX_CLOCKSOURCE");
	const char *tns = getenv("FR_MATRIX_TIMENS");
	const char *envset = getenv("FR_MATRIX_ENV");
	char names[LINE_MAX_LEN], *save = NULL;
	int pass = 0, fail = 0;

	mount_or_say("devtmpfs", "/dev", "devtmpfs");
	open_console();
	mount_or_say("proc", "/proc", "proc");
	mount_or_say("sysfs", "/sys", "sysfs");
	say("boot %.1fs", now_s());
	if (read_manifest() != 0 || !list || (cs && *cs && wait_clocksource(cs) != 0)) {
		say("done pass=0 fail=1 (guest set-up)");
		power_off();
	}
	child_env[nenv] = NULL;
	if (envset && *envset && read_env_overrides(envset) != 0) {
		say("done pass=0 fail=1 (guest set-up)");
		power_off();
	}
	/* The mark of a throwaway machine: suites that set its clock (e2e_settime) run only here. */
	child_env[nenv++] = "FR_MATRIX_GUEST=1";
	child_env[nenv] = NULL;
	pass_on("FR_E2E_EXPECT");
	pass_on("FR_E2E_GTOD");
	pass_on("FR_E2E_CALIB_SECONDS");
	pass_on("FR_E2E_ERA");
	pass_on("PATH");
	report_machine();
	exclude_timens_cases();
	scale_timeouts();
	if (tns && atol(tns) != 0) {
		if (enter_timens(atol(tns)) != 0) {
			say("done pass=0 fail=1 (time namespace)");
			power_off();
		}
		report_timens();
	}
	report_library();
	if (getenv("FR_MATRIX_LATENCY") && atoi(getenv("FR_MATRIX_LATENCY")) != 0)
		report_latency();
	snprintf(names, sizeof(names), "%s", list);
	for (char *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		char *tc = strchr(n, ':');
		const struct suite *s;

		if (tc)
			*tc++ = '\0';
		s = find_suite(n);

		if (!s) {
			say("suite %s fail not-in-manifest", n);
			fail++;
			continue;
		}
		if (run_suite(s, tc))
			pass++;
		else
			fail++;
	}
	say("done pass=%d fail=%d", pass, fail);
	power_off();
	return 0;
}
