/* SPDX-License-Identifier: MIT */
/* Probe: calibrated mode's parent threads stay bounded while vfork, clone(CLONE_VM) and fork children read RAW. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe.h"

#define BOUND_NS 2000
#define READERS 2
#define CHILD_STACK (64 * 1024)

/* What a child found, as bits of its exit status. */
#define CHILD_BAD 1   /* a value outside the bound after the warm-up */
#define CHILD_ZERO 2  /* a value of 0 */
#define CHILD_BACK 4  /* a value below the child's previous one */
#define CHILD_FAIL 8  /* clock_gettime failed or split the value badly */

/* The kinds of children, in the order the storm makes them. */
enum kind { K_VFORK, K_CLONE_VM, K_CLONE_VM_VFORK, K_FORK, KINDS };
static const char *const kind_name[KINDS] = { "vfork", "clone_vm", "clone_vm_vfork", "fork" };

struct reader {
	pthread_t tid;
	uint64_t samples, measured, bad, zeros, backwards, failed;
	int64_t max_err;
};

/*
 * Children's findings, in a MAP_SHARED page so that forked children report too. Only the
 * maximum error is kept here; the rest travels in the exit status.
 */
struct shared {
	uint64_t samples, measured;
	int64_t max_err;
};

static struct shared *shared;
static int64_t run_ns, warmup_ns, start_ns;
static int child_reads_n;
static volatile int stop;

/* One RAW read *v between kernel reads *a and *b: 0, or -1 when the call failed or split the value
   badly. Only clock_gettime and a system call: safe in a vfork child and on a clone child's stack. */
static int read_between(int64_t *a, int64_t *v, int64_t *b)
{
	struct timespec m = { -1, -1 };
	int ret;

	*a = e2e_kernel_raw_ns();
	ret = clock_gettime(CLOCK_MONOTONIC_RAW, &m);
	*b = e2e_kernel_raw_ns();
	if (ret != 0 || m.tv_nsec < 0 || m.tv_nsec >= 1000000000L)
		return -1;
	*v = ts_ns(&m);
	return 0;
}

static void *read_loop(void *arg)
{
	struct reader *r = arg;
	int64_t last = INT64_MIN;

	while (!stop) {
		int64_t a, b, v, err;
		int ret = read_between(&a, &v, &b);

		r->samples++;
		if (ret != 0) {
			r->failed++;
			continue;
		}
		if (v == 0)
			r->zeros++;
		if (v < last)
			r->backwards++;
		last = v;
		if (a - start_ns < warmup_ns)
			continue;
		err = e2e_outside(a, v, b);
		r->measured++;
		if (err > BOUND_NS)
			r->bad++;
		if (err > r->max_err)
			r->max_err = err;
	}
	return NULL;
}

/* What every child does: a few bracketed reads. Returns the CHILD_ bits (no libc state touched
   beyond clock_gettime, so it is safe in a vfork child and on a clone child's own stack). */
static int child_reads(void)
{
	int64_t last = INT64_MIN;
	int bits = 0;

	for (int i = 0; i < child_reads_n; i++) {
		int64_t a, b, v, err;

		if (read_between(&a, &v, &b) != 0) {
			bits |= CHILD_FAIL;
			continue;
		}
		if (v == 0)
			bits |= CHILD_ZERO;
		if (v < last)
			bits |= CHILD_BACK;
		last = v;
		__atomic_fetch_add(&shared->samples, 1, __ATOMIC_RELAXED);
		if (a - start_ns < warmup_ns)
			continue;
		err = e2e_outside(a, v, b);
		__atomic_fetch_add(&shared->measured, 1, __ATOMIC_RELAXED);
		if (err > BOUND_NS)
			bits |= CHILD_BAD;
		for (int64_t seen = __atomic_load_n(&shared->max_err, __ATOMIC_RELAXED); err > seen;)
			if (__atomic_compare_exchange_n(&shared->max_err, &seen, err, 0, __ATOMIC_RELAXED,
							__ATOMIC_RELAXED))
				break;
	}
	return bits;
}

static int clone_child(void *arg)
{
	(void)arg;
	return child_reads();
}

/* One child of the given kind; its exit status, or -1 when it could not be made or waited for. */
static int one_child(enum kind k, char *stack)
{
	int status;
	pid_t pid;

	switch (k) {
	case K_VFORK:
		pid = vfork();
		if (pid == 0)
			_exit(child_reads());
		break;
	case K_CLONE_VM:
		pid = clone(clone_child, stack + CHILD_STACK, CLONE_VM | SIGCHLD, NULL);
		break;
	case K_CLONE_VM_VFORK:
		pid = clone(clone_child, stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
		break;
	default:
		pid = fork();
		if (pid == 0)
			_exit(child_reads());
		break;
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	static struct reader r[READERS];
	static const char *const bit_name[] = { "bad", "zero", "backwards", "failed" };
	uint64_t made[KINDS] = { 0 }, lost = 0, bits_seen[4] = { 0 };
	struct reader sum = { 0 };
	char *stack;

	if (argc < 3 || (run_ns = (int64_t)(atof(argv[1]) * 1e9)) <= 0) {
		printf("usage: %s SECONDS WARMUP_SECONDS [READS_PER_CHILD]\n", argv[0]);
		return 2;
	}
	warmup_ns = (int64_t)(atof(argv[2]) * 1e9);
	child_reads_n = argc > 3 ? atoi(argv[3]) : 2000;
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	stack = malloc(CHILD_STACK);
	if (shared == MAP_FAILED || !stack)
		return 2;
	start_ns = e2e_kernel_raw_ns();
	for (int i = 0; i < READERS; i++)
		if (pthread_create(&r[i].tid, NULL, read_loop, &r[i]) != 0)
			return 2;
	for (unsigned n = 0; e2e_kernel_raw_ns() - start_ns < run_ns; n++) {
		int st = one_child((enum kind)(n % KINDS), stack);

		made[n % KINDS]++;
		if (st < 0) {
			lost++;
			continue;
		}
		for (int b = 0; b < 4; b++)
			bits_seen[b] += (st >> b) & 1;
	}
	stop = 1;
	for (int i = 0; i < READERS; i++) {
		pthread_join(r[i].tid, NULL);
		sum.samples += r[i].samples;
		sum.measured += r[i].measured;
		sum.bad += r[i].bad;
		sum.zeros += r[i].zeros;
		sum.backwards += r[i].backwards;
		sum.failed += r[i].failed;
		sum.max_err = r[i].max_err > sum.max_err ? r[i].max_err : sum.max_err;
	}
	printf("parent_samples=%llu\nparent_measured=%llu\nparent_bad=%llu\nparent_max_err_ns=%lld\n",
	       (unsigned long long)sum.samples, (unsigned long long)sum.measured,
	       (unsigned long long)sum.bad, (long long)sum.max_err);
	printf("parent_zeros=%llu\nparent_backwards=%llu\nparent_failed=%llu\n",
	       (unsigned long long)sum.zeros, (unsigned long long)sum.backwards,
	       (unsigned long long)sum.failed);
	for (int k = 0; k < KINDS; k++)
		printf("children_%s=%llu\n", kind_name[k], (unsigned long long)made[k]);
	printf("children_lost=%llu\n", (unsigned long long)lost);
	for (int b = 0; b < 4; b++)
		printf("children_%s=%llu\n", bit_name[b], (unsigned long long)bits_seen[b]);
	printf("child_samples=%llu\nchild_measured=%llu\nchild_max_err_ns=%lld\n",
	       (unsigned long long)shared->samples, (unsigned long long)shared->measured,
	       (long long)shared->max_err);
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	return 0;
}
