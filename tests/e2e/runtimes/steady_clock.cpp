// SPDX-License-Identifier: MIT
// C++'s std::chrono::steady_clock (libstdc++ reads CLOCK_MONOTONIC through libc), for the e2e test and the benchmark.
// usage: steady_clock check N        N reads, a line "calls= backwards=", then one reading per
//                                    byte read from stdin
//        steady_clock bench N RUNS   ns per call over N calls, the median of RUNS runs (thread
//                                    CPU time), as "ns_per_call="
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <vector>

using steady = std::chrono::steady_clock;

static long long now_ns()
{
	return std::chrono::duration_cast<std::chrono::nanoseconds>(steady::now().time_since_epoch()).count();
}

static long long thread_cpu_ns()
{
	timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void check(long n)
{
	long long prev = 0;
	long backwards = 0;
	char c, line[64];

	for (long i = 0; i < n; i++) {
		long long v = now_ns();

		if (v < prev)
			backwards++;
		prev = v;
	}
	dprintf(1, "calls=%ld backwards=%ld\n", n, backwards);
	while (read(0, &c, 1) == 1) {
		int len = snprintf(line, sizeof(line), "%lld\n", now_ns());

		if (write(1, line, len) != len)
			break;
	}
}

static void bench(long n, int runs)
{
	std::vector<double> per_call;
	long long sink = 0;

	// One run more than counted: the first faults the code and the PLT in.
	for (int r = -1; r < runs; r++) {
		long long t0 = thread_cpu_ns();

		for (long i = 0; i < n; i++)
			sink += now_ns();
		if (r >= 0)
			per_call.push_back(double(thread_cpu_ns() - t0) / n);
	}
	std::sort(per_call.begin(), per_call.end());
	std::printf("ns_per_call=%.2f%s\n", per_call[runs / 2], sink < 0 ? " " : "");
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !std::strcmp(argv[1], "check"))
		check(std::atol(argv[2]));
	else if (argc >= 4)
		bench(std::atol(argv[2]), std::atoi(argv[3]));
	else
		return 2;
	return 0;
}
