/* SPDX-License-Identifier: MIT */
/* fastraw-check's readers: each thread reads the clock in a loop and checks every reading as it goes. */
#define _GNU_SOURCE
#include "check/check_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "passthru/passthru.h"

#define NS_PER_SEC 1000000000LL
/* A slot no thread has published to yet. */
#define UNPUBLISHED INT64_MIN

/* One thread's latest reading, alone on its cache line so publishing does not disturb neighbours. */
struct slot {
	_Alignas(64) int64_t ns;
};

struct run {
	const struct check_config *cfg;
	struct slot *slots;
	pthread_rwlock_t gate; /* write-held by the main thread until every reader may start */
	int stop;
};

struct worker {
	struct run *run;
	struct check_thread *t;
};

int check_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NS_PER_SEC + ts->tv_nsec;
}

static void note(struct check_example *ex, uint64_t sample, int64_t a, int64_t b, int64_t c)
{
	if (ex->set)
		return;
	ex->set = 1;
	ex->sample = sample;
	ex->a = a;
	ex->b = b;
	ex->c = c;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0 ? cpu : -1;
}

/* Checks one sandwiched reading against the kernel's readings k1 (before) and k2 (after). */
static void sandwich(struct check_thread *t, uint64_t i, int64_t k1, int64_t v, int64_t k2)
{
	int64_t width = k2 - k1, dist = 0;

	t->kernel_samples++;
	if (width < 0)
		width = 0;
	t->window_hist[width < CHECK_WINDOW_MAX ? width : CHECK_WINDOW_MAX]++;
	if (v < k1)
		dist = k1 - v;
	else if (v > k2)
		dist = v - k2;
	if (!dist)
		return;
	t->kernel_violations++;
	if (dist > t->worst_ns)
		t->worst_ns = dist;
	note(&t->first_kernel, i, k1, v, k2);
}

/*
 * The loop. Before each reading the thread loads (acquire) a peer's latest published reading,
 * round-robin over the other threads; the reading that follows must not be earlier. Every
 * reading is published with a release store once checked.
 */
static void *reader(void *arg)
{
	const struct worker *w = arg;
	struct run *run = w->run;
	const struct check_config *cfg = run->cfg;
	/* Count on this thread's stack: neighbouring results would share cache lines. */
	struct check_thread st = *w->t, *t = &st;
	struct slot *mine = &run->slots[t->index];
	const int n = cfg->threads, me = t->index, kernel = cfg->against_kernel;
	const clockid_t clk = cfg->clk;
	int64_t prev = UNPUBLISHED;
	int off = 0;

	t->cpu = cfg->ncpus > 0 ? pin(cfg->cpus[me % cfg->ncpus]) : -1;
	pthread_rwlock_rdlock(&run->gate);
	pthread_rwlock_unlock(&run->gate);

	for (uint64_t i = 0; !__atomic_load_n(&run->stop, __ATOMIC_RELAXED); i++) {
		int64_t pub = UNPUBLISHED, v, k1 = 0, k2 = 0;
		int sand = kernel && i % CHECK_SANDWICH_EVERY == 0, peer = me;
		struct timespec ts, kt;

		if (n > 1 && cfg->cross_check) {
			off = off + 1 < n ? off + 1 : 1;
			peer = me + off < n ? me + off : me + off - n;
			pub = __atomic_load_n(&run->slots[peer].ns, __ATOMIC_ACQUIRE);
		}
		if (sand && (sand = fr_sys_clock_gettime(clk, &kt) == 0))
			k1 = ts_ns(&kt);
		if (clock_gettime(clk, &ts) != 0) {
			t->errors++;
			note(&t->first_error, i, errno, 0, 0);
			continue;
		}
		if (sand && (sand = fr_sys_clock_gettime(clk, &kt) == 0))
			k2 = ts_ns(&kt);

		v = ts_ns(&ts);
		t->samples++;
		if (ts.tv_nsec < 0 || ts.tv_nsec >= NS_PER_SEC) {
			t->nsec_range++;
			note(&t->first_nsec, i, ts.tv_sec, ts.tv_nsec, 0);
		}
		if (v < prev) {
			t->backwards++;
			note(&t->first_backwards, i, prev, v, 0);
		}
		if (pub != UNPUBLISHED && pub > v) {
			t->cross++;
			note(&t->first_cross, i, peer, pub, v);
		}
		if (sand)
			sandwich(t, i, k1, v, k2);
		__atomic_store_n(&mine->ns, v, __ATOMIC_RELEASE);
		prev = v;
	}
	*w->t = st;
	return NULL;
}

static void sleep_for(double seconds)
{
	struct timespec left;

	left.tv_sec = (time_t)seconds;
	left.tv_nsec = (long)((seconds - (double)left.tv_sec) * 1e9);
	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

int check_run(const struct check_config *cfg, struct check_thread *thr)
{
	const int n = cfg->threads;
	struct run run = { .cfg = cfg };
	struct worker *w = NULL;
	pthread_t *tid = NULL;
	int started = 0, err = 0;

	memset(thr, 0, (size_t)n * sizeof(*thr));
	run.slots = aligned_alloc(64, (size_t)n * sizeof(*run.slots));
	w = calloc((size_t)n, sizeof(*w));
	tid = calloc((size_t)n, sizeof(*tid));
	if (!run.slots || !w || !tid) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		thr[i].index = i;
		thr[i].cpu = -1;
		run.slots[i].ns = UNPUBLISHED;
		w[i].run = &run;
		w[i].t = &thr[i];
		if (cfg->against_kernel) {
			thr[i].window_hist = calloc(CHECK_WINDOW_MAX + 1, sizeof(uint32_t));
			if (!thr[i].window_hist) {
				err = -ENOMEM;
				goto out;
			}
		}
	}

	pthread_rwlock_init(&run.gate, NULL);
	pthread_rwlock_wrlock(&run.gate);
	for (; started < n; started++) {
		int e = pthread_create(&tid[started], NULL, reader, &w[started]);

		if (e) {
			err = -e;
			__atomic_store_n(&run.stop, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	pthread_rwlock_unlock(&run.gate);
	if (!err)
		sleep_for(cfg->seconds);
	__atomic_store_n(&run.stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_rwlock_destroy(&run.gate);
out:
	free(run.slots);
	free(w);
	free(tid);
	return err;
}
