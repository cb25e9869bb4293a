/* SPDX-License-Identifier: MIT */
/* Probe: calibrated mode's error against kernel reads around each reading, over time, threads, pauses and a fork. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe.h"

#define MAX_THREADS 16
/* Error histogram: 10 ns buckets up to 100 us, then one overflow bucket. */
#define BUCKET_NS 10
#define BUCKETS 10001

struct worker {
	pthread_t tid;
	int index;
	uint64_t samples, late, backwards, failed, tail;
	int64_t max_err, warm_max_err, tail_max_err;
	uint64_t hist[BUCKETS];
};

static int64_t run_ns, warmup_ns, start_ns;
/* The end of the run, reported apart (tail_*): the last quarter, at most its last 10 s. */
#define TAIL_MAX_NS 10000000000LL
static int64_t tail_from_ns;

/* Reads until run_ns is over, with pauses of every length (the long ones test the drift). */
static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(w->index + 1);
	int64_t last = INT64_MIN;

	for (;;) {
		struct timespec m;
		int64_t a, b, v, err;

		a = e2e_kernel_raw_ns();
		if (a - start_ns > run_ns)
			break;
		/* A bad split of seconds and nanoseconds counts as a failure too. */
		if (clock_gettime(CLOCK_MONOTONIC_RAW, &m) != 0 || m.tv_nsec < 0 || m.tv_nsec >= 1000000000L) {
			w->failed++;
			continue;
		}
		b = e2e_kernel_raw_ns();
		v = ts_ns(&m);
		if (v < last)
			w->backwards++;
		last = v;
		err = e2e_outside(a, v, b);
		w->samples++;
		if (a - start_ns < warmup_ns) {
			if (err > w->warm_max_err)
				w->warm_max_err = err;
			continue;
		}
		if (err > w->max_err)
			w->max_err = err;
		if (a - start_ns >= tail_from_ns) {
			w->tail++;
			if (err > w->tail_max_err)
				w->tail_max_err = err;
		}
		w->hist[err / BUCKET_NS < BUCKETS - 1 ? err / BUCKET_NS : BUCKETS - 1]++;
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		/* Mostly back to back; sometimes 1-50 ms; rarely 400 ms (the refresh period is shorter). */
		if (rng % 20000 == 0)
			usleep(400000);
		else if (rng % 500 == 0)
			usleep(1000 + (useconds_t)(rng >> 40) % 49000);
	}
	return NULL;
}

static int64_t percentile(const uint64_t *hist, uint64_t total, double q)
{
	uint64_t want = (uint64_t)((double)total * q), seen = 0;

	for (int i = 0; i < BUCKETS; i++) {
		seen += hist[i];
		if (seen > want)
			return (int64_t)i * BUCKET_NS; /* the bucket's lower edge: 10 ns resolution */
	}
	return -1;
}

/* Runs the workers and prints "<prefix>key=value" lines; returns the number of failures. */
static int measure(const char *prefix, int threads)
{
	static struct worker w[MAX_THREADS];
	static uint64_t hist[BUCKETS];
	uint64_t samples = 0, backwards = 0, failed = 0, tail = 0;
	int64_t max_err = 0, warm_max = 0, tail_max = 0;

	tail_from_ns = run_ns - (run_ns / 4 < TAIL_MAX_NS ? run_ns / 4 : TAIL_MAX_NS);
	memset(w, 0, sizeof(w));
	memset(hist, 0, sizeof(hist));
	start_ns = e2e_kernel_raw_ns();
	for (int i = 0; i < threads; i++) {
		w[i].index = i;
		if (pthread_create(&w[i].tid, NULL, work, &w[i]) != 0)
			return 1;
	}
	for (int i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		samples += w[i].samples;
		backwards += w[i].backwards;
		failed += w[i].failed;
		max_err = w[i].max_err > max_err ? w[i].max_err : max_err;
		warm_max = w[i].warm_max_err > warm_max ? w[i].warm_max_err : warm_max;
		tail += w[i].tail;
		tail_max = w[i].tail_max_err > tail_max ? w[i].tail_max_err : tail_max;
		for (int k = 0; k < BUCKETS; k++)
			hist[k] += w[i].hist[k];
	}
	uint64_t measured = 0;

	for (int k = 0; k < BUCKETS; k++)
		measured += hist[k];
	printf("%ssamples=%llu\n%smeasured=%llu\n%sbackwards=%llu\n%sfailed=%llu\n", prefix,
	       (unsigned long long)samples, prefix, (unsigned long long)measured, prefix,
	       (unsigned long long)backwards, prefix, (unsigned long long)failed);
	printf("%smax_err_ns=%lld\n%sp999_err_ns=%lld\n%swarmup_max_err_ns=%lld\n", prefix,
	       (long long)max_err, prefix, (long long)percentile(hist, measured, 0.999), prefix,
	       (long long)warm_max);
	printf("%stail_measured=%llu\n%stail_max_err_ns=%lld\n%stail_from_s=%.1f\n", prefix, (unsigned long long)tail,
	       prefix, (long long)tail_max, prefix, (double)tail_from_ns / 1e9);
	return 0;
}

int main(int argc, char **argv)
{
	int threads, status;
	pid_t pid;

	if (argc < 4 || (threads = atoi(argv[3])) < 1 || threads > MAX_THREADS) {
		printf("usage: %s SECONDS WARMUP_SECONDS THREADS [fork]\n", argv[0]);
		return 2;
	}
	run_ns = (int64_t)(atof(argv[1]) * 1e9);
	warmup_ns = (int64_t)(atof(argv[2]) * 1e9);
	if (measure("", threads))
		return 2;
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	if (argc > 4 && strcmp(argv[4], "fork") == 0) {
		/* The child inherits the estimate: no second warm-up, the same bound at once. */
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			warmup_ns = 0;
			run_ns = run_ns / 4 + 1;
			status = measure("child_", threads);
			fflush(stdout);
			_exit(status ? 2 : 0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	return 0;
}
