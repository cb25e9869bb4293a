/* SPDX-License-Identifier: MIT */
/* How fast a kernel-matrix guest runs, against the same work in a guest on an idle host. */
#include "guest_speed.h"

#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The calibration work takes about this long in a guest on an idle host (QEMU TCG on this
 * project's 2-core AMD EPYC VM: forks 70 ms, loop 40 ms); under load the forks take up to 8
 * times longer there. An arm64 guest on the same host measures ~6 times that (forks 660 ms,
 * loop 70 ms: the emulated page-table work costs more), so its factor, and with it its
 * timeouts, are larger: one reference for both keeps every guest's limits generous.
 */
#define CALIB_REF_MS 110.0
#define CALIB_FORKS 100
#define CALIB_LOOP 20000000u
#define CALIB_ROUNDS 10

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * How many times slower than the reference this guest runs: forks (page tables, scheduling,
 * the guest kernel's paths, as the suites use them) and a plain loop, timed by the guest's
 * CLOCK_MONOTONIC (under TCG the host's TSC: real time). The fastest of CALIB_ROUNDS rounds
 * counts (one round may meet the host's other work, or the guest's own start-up), scaled to the
 * whole work. Never below 1.
 */
double fr_guest_speed(double *fork_ms, double *loop_ms)
{
	volatile uint32_t x = 1;
	double best_fork = 0, best_loop = 0, f;

	for (int r = 0; r < CALIB_ROUNDS; r++) {
		double t0 = now_s(), t1, t2;

		for (int i = 0; i < CALIB_FORKS / CALIB_ROUNDS; i++) {
			pid_t pid = fork();

			if (pid == 0)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
		t1 = now_s();
		for (uint32_t i = 0; i < CALIB_LOOP / CALIB_ROUNDS; i++)
			x = x * 1664525u + 1013904223u;
		t2 = now_s();
		if (r == 0 || t1 - t0 < best_fork)
			best_fork = t1 - t0;
		if (r == 0 || t2 - t1 < best_loop)
			best_loop = t2 - t1;
	}
	*fork_ms = best_fork * CALIB_ROUNDS * 1e3;
	*loop_ms = best_loop * CALIB_ROUNDS * 1e3;
	f = (*fork_ms + *loop_ms) / CALIB_REF_MS;
	return f < 1 ? 1 : f;
}
