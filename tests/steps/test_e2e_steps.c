/* SPDX-License-Identifier: MIT */
/* End-to-end: instructions per warm CLOCK_MONOTONIC_RAW call, counted by single-stepping, for the kernel's vDSO and for libfastraw's ordered and unordered reads, and which counter instructions each executes. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cpu_test.h"
#include "arch/arch.h"
#include "harness.h"

/* What the steps probe counted in one traced call (it prints more, shown on failure). */
struct count {
	int64_t steps, reads, ordered_reads, fences, syscalls, vdso_steps;
};

/* The probe's answer "skip=<reason>" (ptrace refused, no vDSO), or NULL. */
static const char *skip_reason(const struct e2e_result *r)
{
	const char *s = strstr(r->out, "skip=");

	return s && (s == r->out || s[-1] == '\n') ? s + 5 : NULL;
}

/* Runs the probe on one path; returns 0 when it says why it cannot count here (the test then passes). */
static int run_count(struct e2e_result *r, const char *path, const char *what, int preload,
		     const char *const *env, struct count *c)
{
	const struct e2e_opts opts = { .env = env, .no_preload = !preload };
	const char *why;

	e2e_run(r, &opts, E2E_ARGV(e2e_need_env("FR_PROBE_STEPS"), what));
	if ((why = skip_reason(r))) {
		printf("e2e_steps: skipped: %.*s\n", (int)strcspn(why, "\n"), why);
		return 0;
	}
	e2e_assert_ok(r);
	c->steps = e2e_int_value(r->out, "steps");
	c->reads = e2e_int_value(r->out, "reads");
	c->ordered_reads = e2e_int_value(r->out, "ordered_reads");
	c->fences = e2e_int_value(r->out, "fences");
	c->syscalls = e2e_int_value(r->out, "syscalls");
	c->vdso_steps = e2e_int_value(r->out, "vdso_steps");
	printf("e2e_steps: %s: %lld steps (reads=%lld ordered_reads=%lld fences=%lld syscalls=%lld); traced %lld call(s), "
	       "%lld ns a step\n",
	       path, (long long)c->steps, (long long)c->reads, (long long)c->ordered_reads, (long long)c->fences,
	       (long long)c->syscalls, (long long)e2e_int_value(r->out, "traces"), (long long)e2e_int_value(r->out, "step_ns"));
	{
		const char *w = strstr(r->out, "words=");

		if (w)
			printf("e2e_steps: %s: %.*s\n", path, (int)strcspn(w, "\n"), w);
	}
	return 1;
}

static void expect(const struct e2e_result *r, const char *path, int ok, const char *want)
{
	ck_assert_msg(ok, "%s: want %s; probe output:\n%.*s", path, want, E2E_SHOWN, r->out);
}

/* The counter the library's FASTRAW_DEBUG line names (" counter=<name> active"), into name. */
static void debug_counter(const struct e2e_result *r, char *name, size_t size)
{
	const char *c = strstr(r->err, " counter=");
	size_t n;

	ck_assert_msg(c, "want a FASTRAW_DEBUG line with \" counter=\", stderr:\n%.*s", E2E_SHOWN, r->err);
	c += 9;
	n = strcspn(c, " \n");
	ck_assert_msg(n > 0 && n < size, "an empty or long counter name: %.*s", E2E_SHOWN, r->err);
	memcpy(name, c, n);
	name[n] = '\0';
}

/* The library served the call itself: its own code only, no system call, the counter read once. */
static void assert_own_path(const struct e2e_result *r, const char *path, const struct count *c)
{
	expect(r, path, c->syscalls == 0 && c->vdso_steps == 0, "the fast path: syscalls=0 vdso_steps=0");
	expect(r, path, c->reads + c->ordered_reads == 1, "one counter read");
}

/* The default read: an ordering instruction or a self-ordering read, and on x86-64 the one the debug line names. */
static void assert_ordered(const struct e2e_result *r, const char *path, const char *counter, const struct count *c)
{
	expect(r, path, c->fences + c->ordered_reads >= 1, "an ordering instruction or an ordered read (fences+ordered_reads>=1)");
#if FRT_STEPS_BY_COUNTER_NAME
	if (strcmp(counter, FR_ARCH_COUNTER_NAME_ORDERED) == 0)
		expect(r, path, c->ordered_reads == 1 && c->reads == 0, "rdtscp, as the debug line says: ordered_reads=1 reads=0");
	else
		expect(r, path, strcmp(counter, FR_ARCH_COUNTER_NAME_FENCED) == 0 && c->fences >= 1 && c->reads == 1,
		       "lfence;rdtsc, as the debug line says: fences>=1 reads=1");
#else
	(void)counter;
#endif
}

START_TEST(steps_per_call)
{
	static const char *const ordered_env[] = { "FASTRAW_DEBUG=1", NULL };
	static const char *const unordered_env[] = { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED, NULL };
	struct e2e_result rv, rl, ro, ru;
	struct count v, l, o, u;
	char counter[32], path[64];

	memset(&rl, 0, sizeof(rl));
	memset(&ro, 0, sizeof(ro));
	memset(&ru, 0, sizeof(ru));
	/* libc: what a program without the library runs, libc's clock_gettime and the vDSO's (shown, not compared). */
	if (!run_count(&rv, "vdso", "vdso", 0, NULL, &v) || !run_count(&rl, "libc", "bound", 0, NULL, &l) ||
	    !run_count(&ro, "ordered", "bound", 1, ordered_env, &o) ||
	    !run_count(&ru, "unordered", "bound", 1, unordered_env, &u)) {
		e2e_result_free(&rv);
		e2e_result_free(&rl);
		e2e_result_free(&ro);
		e2e_result_free(&ru);
		return;
	}
	e2e_assert_served(&ro, "served");
	e2e_assert_served(&ru, "served");
	/* The line the kernel matrix's report picks up. */
	printf("steps: vdso=%lld ordered=%lld unordered=%lld\n", (long long)v.steps, (long long)o.steps,
	       (long long)u.steps);

	expect(&rv, "vdso", v.vdso_steps >= 1, "the call runs in the vDSO");
	debug_counter(&ro, counter, sizeof(counter));
	snprintf(path, sizeof(path), "ordered (counter=%s)", counter);
	if (e2e_expect_passthrough()) {
		/* Clock mode none: the kernel answers every call, there is no read of ours to look at. */
		printf("e2e_steps: pass-through expected: only the answers are checked\n");
		expect(&ro, path, o.syscalls >= 1, "pass-through: syscalls>=1");
		expect(&ru, "unordered", u.syscalls >= 1, "pass-through: syscalls>=1");
	} else {
		assert_own_path(&ro, path, &o);
		assert_ordered(&ro, path, counter, &o);
		assert_own_path(&ru, "unordered", &u);
		expect(&ru, "unordered", u.reads == 1 && u.fences == 0 && u.ordered_reads == 0,
		       "the bare read: reads=1 fences=0 ordered_reads=0");
#if FRT_STEPS_AT_MOST_VDSO
		/* Issue 20's goal: the kernel's own sequence, with less around it. */
		expect(&ro, path, o.steps <= v.steps, "no more steps than the vDSO's call");
#endif
	}
	e2e_result_free(&rv);
	e2e_result_free(&rl);
	e2e_result_free(&ro);
	e2e_result_free(&ru);
}
END_TEST

static Suite *steps_suite(void)
{
	Suite *s = suite_create("e2e_steps");
	TCase *tc = e2e_tcase(s, "steps");

	/* Single steps under emulation (the kernel matrix's guests) are slow. */
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, steps_per_call);
	return s;
}

int main(void)
{
	return fr_run_suite(steps_suite());
}
