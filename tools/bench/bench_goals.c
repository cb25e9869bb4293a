/* SPDX-License-Identifier: MIT */
/* Runs the processes of the goals table and interleaves their rounds with the start-up runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/bench_child.h"
#include "bench/bench_env.h"
#include "bench/bench_goals.h"
#include "bench/bench_loops.h"
#include "bench/bench_pool.h"
#include "arch/arch.h"
#include "fastraw.h"

#define MAX_KINDS 8

/* One process of the table: its environment and what it times, each against the others in it. */
struct role {
	const char *name;
	int preload;
	const char *set[3]; /* FASTRAW_ settings on top of the preload */
	enum bench_kind kinds[MAX_KINDS];
	int nk;
};

/*
 * Each comparison that needs no second environment is made inside one process, where the
 * rounds alternate call by call: the pass-through against the vDSO, the unordered mode against
 * the bare unordered read. Only the stats rows and the bare counters compare across processes.
 */
static const struct role roles[] = {
	{ "none", 0, { NULL }, { BK_UNORDERED, BK_FENCED, BK_ORDERED, BK_VDSO_RAW, BK_VDSO_MONO, BK_LIBC_MONO, BK_SYSCALL_RAW }, 7 },
	{ "def", 1, { NULL }, { BK_PRELOAD_RAW, BK_VDSO_RAW, BK_PRELOAD_MONO, BK_VDSO_MONO }, 4 },
	{ "stats", 1, { "FASTRAW_STATS=1", NULL }, { BK_PRELOAD_RAW, BK_PRELOAD_MONO }, 2 },
	{ "tsc", 1, { "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED, NULL }, { BK_PRELOAD_RAW, BK_UNORDERED }, 2 },
	/* FASTRAW_CLOCKS=all: MONOTONIC served, against the vDSO and, unordered, against the bare read. */
	{ "clocks", 1, { "FASTRAW_CLOCKS=all", NULL }, { BK_PRELOAD_MONO, BK_VDSO_MONO }, 2 },
	{ "clocks_tsc", 1, { "FASTRAW_CLOCKS=all", "FASTRAW_TSC=" FR_ARCH_COUNTER_NAME_UNORDERED, NULL },
	  { BK_PRELOAD_MONO, BK_UNORDERED }, 2 },
};
#define NROLES ((int)(sizeof(roles) / sizeof(roles[0])))

/* A role's kinds here (the ordered read and the vDSO only where they exist; bench_init first) and their calls per round. */
static int role_kinds(const struct role *ro, long iters, enum bench_kind *kinds, long *n)
{
	int k = 0;

	for (int i = 0; i < ro->nk; i++) {
		if (ro->kinds[i] == BK_ORDERED && !bench_have_ordered())
			continue;
		if ((ro->kinds[i] == BK_VDSO_RAW || ro->kinds[i] == BK_VDSO_MONO) && !bench_vdso_clock_gettime)
			continue;
		kinds[k] = ro->kinds[i];
		/* The system call is tens of times slower: a tenth of the calls keeps the run short. */
		n[k++] = ro->kinds[i] == BK_SYSCALL_RAW ? (iters / 10 > 0 ? iters / 10 : 1) : iters;
	}
	return k;
}

static const struct role *find_role(const char *name)
{
	for (int i = 0; i < NROLES; i++)
		if (strcmp(roles[i].name, name) == 0)
			return &roles[i];
	return NULL;
}

int bench_goals_child(const char *role, const char *lib, long iters)
{
	const struct role *ro = find_role(role);
	int (*info_fn)(struct fastraw_info *);
	struct fastraw_info info = { .size = sizeof(info) };
	enum bench_kind kinds[MAX_KINDS];
	long n[MAX_KINDS];
	int nk, rc;

	if (!ro || bench_init() != 0)
		return 1;
	if (ro->preload && (rc = bench_check_binding(lib)) != 0)
		return rc;
	/* The library's own account of its choice, found without linking it. */
	info_fn = ro->preload ? (int (*)(struct fastraw_info *))dlsym(RTLD_DEFAULT, "fastraw_info") : NULL;
	if (info_fn && info_fn(&info) == 0)
		printf("info %s %s %s %d\n", info.counter, info.source, info.clock_mode, info.active);
	nk = role_kinds(ro, iters, kinds, n);
	return bench_serve(kinds, n, nk);
}

struct hello {
	const struct role *ro;
	struct bench_goal_results *r;
	char where[256];
	int not_interposed;
};

static void on_hello(const char *line, void *arg)
{
	struct hello *h = arg;

	if (sscanf(line, "where %255[^\n]", h->where) == 1)
		return;
	if (strcmp(line, "interposed 0") == 0 || strcmp(line, "libc_hidden 1") == 0)
		h->not_interposed = 1;
	else if (strcmp(h->ro->name, "def") == 0)
		sscanf(line, "info %15s %15s %23s %d", h->r->counter, h->r->source, h->r->clock_mode, &h->r->active);
}

/* The median of role i's kind k over the rounds, or -1 when the role does not time it. */
static double median_of(const double *vals, int rounds, const enum bench_kind *kinds, int nk, enum bench_kind k)
{
	double *v = malloc((size_t)rounds * sizeof(*v)), m = -1;

	for (int i = 0; i < nk && v; i++)
		if (kinds[i] == k) {
			for (int r = 0; r < rounds; r++)
				v[r] = vals[r * nk + i];
			m = bench_median(v, rounds);
		}
	free(v);
	return m;
}

struct proc {
	struct bench_member m;
	enum bench_kind kinds[MAX_KINDS];
	long n[MAX_KINDS];
	int nk;
	double *vals; /* rounds x nk */
};

static int start_all(const struct bench_goal_opts *o, struct proc *p, struct bench_goal_results *r)
{
	char iters[24];

	snprintf(iters, sizeof(iters), "%ld", o->iters);
	for (int i = 0; i < NROLES; i++) {
		char *argv[] = { "fastraw-bench", "--goal-child", (char *)roles[i].name, "--lib", (char *)o->lib,
				 "--iters", iters, NULL };
		char **env = bench_env(roles[i].preload ? o->lib : NULL, roles[i].set);
		struct hello h = { .ro = &roles[i], .r = r };
		int st;

		p[i].nk = role_kinds(&roles[i], o->iters, p[i].kinds, p[i].n);
		p[i].vals = calloc((size_t)o->rounds * (size_t)p[i].nk, sizeof(double));
		if (!env || !p[i].vals || bench_member_start(&p[i].m, argv, env, on_hello, &h, &st) != 0) {
			if (h.not_interposed)
				fprintf(stderr, "fastraw-bench: NOT INTERPOSED: clock_gettime resolves to %s, not %s\n",
					h.where, o->lib);
			else
				fprintf(stderr, "fastraw-bench: the \"%s\" process failed to start (status %d)\n",
					roles[i].name, st);
			free(env);
			return -1;
		}
		free(env);
	}
	return 0;
}

int bench_goals_run(const struct bench_goal_opts *o, struct bench_goal_results *r)
{
	struct proc p[NROLES];
	struct bench_startup su;
	int per_round = (o->startup_runs + o->rounds - 1) / o->rounds, failed = 0;

	memset(p, 0, sizeof(p));
	memset(r, 0, sizeof(*r));
	strcpy(r->counter, "?");
	strcpy(r->source, "?");
	strcpy(r->clock_mode, "?");
	/* A child that dies must show as a failed round, not kill this process with SIGPIPE. */
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);

	if (bench_startup_init(&su, o->lib, o->empty, per_round * o->rounds) != 0) {
		signal(SIGPIPE, old_pipe);
		return -1;
	}
	if (start_all(o, p, r) != 0)
		failed = 1;
	for (int round = 0; round < o->rounds && !failed; round++) {
		/* Each round starts with a different process, so none always runs right after another. */
		for (int j = 0; j < NROLES && !failed; j++) {
			int i = (round + j) % NROLES;

			if (bench_member_round(&p[i].m, p[i].vals + round * p[i].nk, p[i].nk) != 0) {
				fprintf(stderr, "fastraw-bench: the \"%s\" process failed in round %d\n", roles[i].name, round + 1);
				failed = 1;
			}
		}
		bench_startup_batch(&su, per_round);
	}
	for (int i = 0; i < NROLES; i++) {
		int st = bench_member_stop(&p[i].m);

		if (!failed && (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
			fprintf(stderr, "fastraw-bench: the \"%s\" process ended with status %d\n", roles[i].name, st);
			failed = 1;
		}
	}
	/* Our own stdout closing early (a pipe to head) may end this process again, as it would have. */
	signal(SIGPIPE, old_pipe);
	if (failed)
		return -1;
#define MED(role, kind) median_of(p[role].vals, o->rounds, p[role].kinds, p[role].nk, kind)
	r->unordered_none = MED(0, BK_UNORDERED);
	r->fenced_none = MED(0, BK_FENCED);
	r->ordered_none = MED(0, BK_ORDERED);
	r->vdso_raw_none = MED(0, BK_VDSO_RAW);
	r->vdso_mono_none = MED(0, BK_VDSO_MONO);
	r->libc_mono_none = MED(0, BK_LIBC_MONO);
	r->syscall_none = MED(0, BK_SYSCALL_RAW);
	r->raw_def = MED(1, BK_PRELOAD_RAW);
	r->vdso_raw_def = MED(1, BK_VDSO_RAW);
	r->mono_def = MED(1, BK_PRELOAD_MONO);
	r->vdso_mono_def = MED(1, BK_VDSO_MONO);
	r->raw_stats = MED(2, BK_PRELOAD_RAW);
	r->mono_stats = MED(2, BK_PRELOAD_MONO);
	r->raw_unordered = MED(3, BK_PRELOAD_RAW);
	r->bare_unordered = MED(3, BK_UNORDERED);
	r->mono_clocks = MED(4, BK_PRELOAD_MONO);
	r->vdso_mono_clocks = MED(4, BK_VDSO_MONO);
	r->mono_clocks_unordered = MED(5, BK_PRELOAD_MONO);
	r->bare_unordered_clocks = MED(5, BK_UNORDERED);
#undef MED
	for (int k = 0; k < SU_COUNT; k++) {
		r->startup[k] = bench_startup_median(&su, (enum bench_startup_kind)k);
		r->startup_runs[k] = su.n[k];
	}
	for (int i = 0; i < NROLES; i++)
		free(p[i].vals);
	return 0;
}
