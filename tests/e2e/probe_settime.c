/* SPDX-License-Identifier: MIT */
/* Probe: every clock the library may serve, read in the kernel's bracket for a while as the clock is slewed, stepped or leaps. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "probe.h"

/* One clock's counts. */
struct counts {
	uint64_t samples, violations, steps_back, backwards, kernel_backwards;
	int64_t last_ns, last_kernel_ns;
	struct timespec bad[3];
	int bad_ret;
};

/*
 * One read of clk through clock_gettime between two kernel reads. When the kernel's own clock
 * stepped back inside the bracket (a clock_settime, a leap second, a TAI offset change), there
 * is no bracket to hold the answer to: the sample counts as a step back. Otherwise the answer
 * must lie between the two kernel reads. `backwards`: answers below the previous answer;
 * `kernel_backwards`: the kernel's first read below its last read of the sample before.
 */
static void one(struct counts *c, clockid_t clk)
{
	struct timespec a, m = { -1, -1 }, b;
	long ka, kb;
	int ret;

	ka = k_clock_gettime(clk, &a);
	ret = clock_gettime(clk, &m);
	kb = k_clock_gettime(clk, &b);
	if (c->samples && ts_ns(&m) < c->last_ns)
		c->backwards++;
	if (c->samples && ts_ns(&a) < c->last_kernel_ns)
		c->kernel_backwards++;
	c->last_ns = ts_ns(&m);
	c->last_kernel_ns = ts_ns(&b);
	c->samples++;
	if (ka == 0 && kb == 0 && ret == 0 && ts_ns(&b) < ts_ns(&a)) {
		c->steps_back++;
		return;
	}
	if (ka == 0 && kb == 0 && ret == 0 && m.tv_nsec >= 0 && m.tv_nsec < 1000000000L && ts_ns(&a) <= ts_ns(&m) &&
	    ts_ns(&m) <= ts_ns(&b))
		return;
	if (c->violations++ == 0) {
		c->bad[0] = a;
		c->bad[1] = m;
		c->bad[2] = b;
		c->bad_ret = ret;
	}
}

/*
 * Usage: e2e_probe_settime MS. Reads every clock in turn for MS milliseconds of the kernel's
 * CLOCK_MONOTONIC_RAW; per clock prints "<NAME>_samples=", "_violations=", "_steps_back=" and
 * "_backwards=" and "_kernel_backwards=", the first violation, then "served=".
 */
int main(int argc, char **argv)
{
	static struct counts c[E2E_N_SERVED_CLOCKS];
	long ms = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec now;
	int64_t end;

	k_clock_gettime(CLOCK_MONOTONIC_RAW, &now);
	end = ts_ns(&now) + (int64_t)ms * 1000000;
	do {
		for (size_t i = 0; i < E2E_N_SERVED_CLOCKS; i++)
			one(&c[i], e2e_served_clocks[i].clk);
		k_clock_gettime(CLOCK_MONOTONIC_RAW, &now);
	} while (ts_ns(&now) < end);
	for (size_t i = 0; i < E2E_N_SERVED_CLOCKS; i++) {
		const char *n = e2e_served_clocks[i].name;

		printf("%s_samples=%" PRIu64 "\n%s_violations=%" PRIu64 "\n%s_steps_back=%" PRIu64 "\n%s_backwards=%" PRIu64
		       "\n%s_kernel_backwards=%" PRIu64 "\n", n, c[i].samples, n, c[i].violations, n, c[i].steps_back, n,
		       c[i].backwards, n, c[i].kernel_backwards);
		if (c[i].violations)
			printf("%s_first_bad: kernel=%lld.%09ld lib=%lld.%09ld (ret %d) kernel=%lld.%09ld\n", n,
			       (long long)c[i].bad[0].tv_sec, c[i].bad[0].tv_nsec, (long long)c[i].bad[1].tv_sec,
			       c[i].bad[1].tv_nsec, c[i].bad_ret, (long long)c[i].bad[2].tv_sec, c[i].bad[2].tv_nsec);
	}
	printf("served=%s\n", e2e_served_by("clock_gettime"));
	return 0;
}
