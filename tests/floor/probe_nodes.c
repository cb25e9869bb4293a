/* SPDX-License-Identifier: MIT */
/* Probe: clock_gettime of every version node, looked up every way glibc offers, and librt's other clock functions, each called and checked against the kernel. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "probe.h"

/*
 * Each line is "KEY found|missing" and, for a function found, "KEY ok", "KEY bad: why" or
 * "KEY hung". The found/missing lines are glibc's answers, which tests/floor/glibc_matrix.sh
 * compares with a run without the preload. Each check runs in a child of its own with a budget
 * of CPU time, so that one which never returns (a pass-through that leads back to itself spins)
 * is reported by name and the others still run.
 */

#define ROUNDS 200
/* Calibrated mode (FR_E2E_EXPECT=calibrated) promises RAW within 2 us of the kernel's. */
#define CALIBRATED_BOUND_NS 2000
/* A check takes about a millisecond of CPU; a spinning one is stopped after this much (CPU
   time, not wall time: a loaded machine only makes the probe slower, never a check "hung"). */
#define CPU_BUDGET_MS 250

/* librt's clock functions, from one place: the program's own bindings or one handle. */
struct rt_fns {
	int (*getres)(clockid_t clk, struct timespec *ts);
	int (*nanosleep)(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem);
	int (*tcreate)(clockid_t clk, struct sigevent *sev, timer_t *id);
	int (*tsettime)(timer_t id, int flags, const struct itimerspec *value, struct itimerspec *old);
	int (*tgettime)(timer_t id, struct itimerspec *value);
	int (*tdelete)(timer_t id);
};

/* One lookup: dlvsym when version is set, else dlsym; or, with no name, the pointer fixed. */
struct lookup {
	void *handle;
	const char *name, *version;
	void *fixed;
};

static int bad, hung;
static int64_t raw_slack;

/* Runs check(arg) in a child limited to CPU_BUDGET_MS of CPU time and prints "KEY hung" when
   it ran out; a check that exits non-zero counts as bad. */
static void isolated(const char *key, int (*check)(const char *key, const void *arg), const void *arg)
{
	struct itimerval budget = { .it_value = { CPU_BUDGET_MS / 1000, CPU_BUDGET_MS % 1000 * 1000 } };
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		setitimer(ITIMER_PROF, &budget, NULL);
		_exit(check(key, arg) ? 0 : 1);
	}
	if (pid < 0) {
		printf("%s bad: fork: %s\n", key, strerror(errno));
		bad++;
		return;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGPROF) {
		printf("%s hung\n", key);
		hung++;
	} else if (WIFSIGNALED(st)) {
		printf("%s bad: killed by signal %d\n", key, WTERMSIG(st));
		bad++;
	} else if (WEXITSTATUS(st) != 0) {
		bad++;
	}
}

/* Whether clk through fn lies between two kernel reads ROUNDS times; why says how it did not. */
static int check_clock(e2e_clock_fn fn, clockid_t clk, int64_t slack, char *why, size_t len)
{
	struct e2e_tally t = { .slack_ns = slack };

	for (int i = 0; i < ROUNDS; i++)
		if (!e2e_bracket(&t, fn, clk))
			break;
	if (t.violations == 0)
		return 1;
	snprintf(why, len, "clock %d: returned %d, kernel %lld.%09ld, got %lld.%09ld, kernel %lld.%09ld",
		 (int)clk, t.bad_ret, (long long)t.bad[0].tv_sec, t.bad[0].tv_nsec,
		 (long long)t.bad[1].tv_sec, t.bad[1].tv_nsec, (long long)t.bad[2].tv_sec, t.bad[2].tv_nsec);
	return 0;
}

/* In the child: looks up, prints found or missing, then whether MONOTONIC and RAW through it are right. */
static int check_lookup(const char *key, const void *arg)
{
	const struct lookup *l = arg;
	void *p = !l->name ? l->fixed : l->version ? dlvsym(l->handle, l->name, l->version) : dlsym(l->handle, l->name);
	char why[256];

	printf("%s %s\n", key, p ? "found" : "missing");
	if (!p)
		return 1;
	if (check_clock((e2e_clock_fn)p, CLOCK_MONOTONIC, 0, why, sizeof(why)) &&
	    check_clock((e2e_clock_fn)p, CLOCK_MONOTONIC_RAW, raw_slack, why, sizeof(why))) {
		printf("%s ok\n", key);
		return 1;
	}
	printf("%s bad: %s\n", key, why);
	return 0;
}

static void lookups(const char *hname, void *h)
{
	static const char *const nodes[] = { "GLIBC_2.2.5", "GLIBC_2.17", "GLIBC_PRIVATE" };
	static const char *const names[] = { "clock_gettime", "__clock_gettime" };
	char key[128];

	for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		struct lookup l = { h, names[n], NULL, NULL };

		snprintf(key, sizeof(key), "dlsym(%s,%s)", hname, names[n]);
		isolated(key, check_lookup, &l);
		for (size_t v = 0; v < sizeof(nodes) / sizeof(nodes[0]); v++) {
			l.version = nodes[v];
			snprintf(key, sizeof(key), "dlvsym(%s,%s,%s)", hname, names[n], nodes[v]);
			isolated(key, check_lookup, &l);
		}
	}
}

/* clock_getres against the kernel's, for MONOTONIC and RAW. */
static int getres_ok(const struct rt_fns *f)
{
	static const clockid_t ids[] = { CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW };
	struct timespec r, k;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (f->getres(ids[i], &r) != 0 || k_syscall2(SYS_clock_getres, ids[i], (long)&k) != 0 ||
		    r.tv_sec != k.tv_sec || r.tv_nsec != k.tv_nsec)
			return 0;
	return 1;
}

/* A relative 1 ms sleep on MONOTONIC: 0 returned, and at least 1 ms on RAW less what NTP's
   slewing may take from it (500 ppm: 0.5 us). */
static int nanosleep_ok(const struct rt_fns *f)
{
	struct timespec req = { 0, 1000000 }, rem;
	int64_t before = e2e_kernel_raw_ns();
	int ret = f->nanosleep(CLOCK_MONOTONIC, 0, &req, &rem);

	return ret == 0 && e2e_kernel_raw_ns() - before >= 999500;
}

/* A MONOTONIC timer armed for 5 s has less than that left, and more than nothing. */
static int timer_ok(const struct rt_fns *f)
{
	struct itimerspec its = { .it_value = { 5, 0 } }, left;
	struct sigevent sev;
	timer_t timer;
	int ok;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_NONE;
	if (f->tcreate(CLOCK_MONOTONIC, &sev, &timer) != 0)
		return 0;
	ok = f->tsettime(timer, 0, &its, NULL) == 0 && f->tgettime(timer, &left) == 0 &&
	     left.it_value.tv_sec < 5 && (left.it_value.tv_sec > 0 || left.it_value.tv_nsec > 0);
	return f->tdelete(timer) == 0 && ok;
}

/* One of librt's functions, in the child. */
struct rt_check {
	const struct rt_fns *f;
	int found;
	int (*ok)(const struct rt_fns *f);
};

static int check_rt(const char *key, const void *arg)
{
	const struct rt_check *c = arg;

	printf("%s %s\n", key, c->found ? "found" : "missing");
	if (!c->found)
		return 1;
	if (c->ok(c->f)) {
		printf("%s ok\n", key);
		return 1;
	}
	printf("%s bad\n", key);
	return 0;
}

static void check_librt(const char *via, const struct rt_fns *f)
{
	const struct rt_check checks[] = {
		{ f, f->getres != NULL, getres_ok },
		{ f, f->nanosleep != NULL, nanosleep_ok },
		{ f, f->tcreate && f->tsettime && f->tgettime && f->tdelete, timer_ok },
	};
	static const char *const names[] = { "clock_getres", "clock_nanosleep", "timer_create" };
	char key[64];

	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		snprintf(key, sizeof(key), "%s %s", via, names[i]);
		isolated(key, check_rt, &checks[i]);
	}
}

int main(void)
{
	const char *expect = getenv("FR_E2E_EXPECT");
	const struct lookup bound = { NULL, NULL, NULL, (void *)clock_gettime };
	void *librt, *libc;

	/* Unbuffered: each child prints its own lines, in order, and nothing is printed twice. */
	setvbuf(stdout, NULL, _IONBF, 0);
	raw_slack = expect && strcmp(expect, "calibrated") == 0 ? CALIBRATED_BOUND_NS : 0;
	/* The clock_gettime the program itself binds (librt's with -lrt before glibc 2.17's move). */
	isolated("bound", check_lookup, &bound);
	librt = dlopen("librt.so.1", RTLD_NOW);
	libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	printf("librt handle %s\nlibc handle %s\n", librt ? "found" : "missing", libc ? "found" : "missing");
	lookups("RTLD_DEFAULT", RTLD_DEFAULT);
	lookups("RTLD_NEXT", RTLD_NEXT);
	if (librt)
		lookups("librt", librt);
	if (libc)
		lookups("libc", libc);
#ifdef FR_LINKED_RT
	{
		/* Linked with -lrt: bound where the link found them (librt before glibc 2.34). */
		const struct rt_fns fns = { clock_getres, clock_nanosleep, timer_create,
					    timer_settime, timer_gettime, timer_delete };

		check_librt("bound", &fns);
	}
#endif
	if (librt) {
		struct rt_fns f;

		*(void **)&f.getres = dlsym(librt, "clock_getres");
		*(void **)&f.nanosleep = dlsym(librt, "clock_nanosleep");
		*(void **)&f.tcreate = dlsym(librt, "timer_create");
		*(void **)&f.tsettime = dlsym(librt, "timer_settime");
		*(void **)&f.tgettime = dlsym(librt, "timer_gettime");
		*(void **)&f.tdelete = dlsym(librt, "timer_delete");
		check_librt("librt", &f);
	}
	printf("bad=%d\nhung=%d\n", bad, hung);
	return bad != 0 || hung != 0;
}
