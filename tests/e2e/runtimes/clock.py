# SPDX-License-Identifier: MIT
# Python's time.monotonic_ns and time.perf_counter_ns (CLOCK_MONOTONIC through libc), for the e2e test and the benchmark.
# usage: clock.py check N          N reads alternating the two, a line "calls= backwards=", then
#                                  one line "MONOTONIC PERF_COUNTER" per byte read from stdin
#        clock.py bench FUNC N RUNS  ns per call of time.FUNC over N calls, the median of RUNS runs
#                                  (thread CPU time), as "ns_per_call="
import os
import sys
import time


def check(n):
    mono, perf = time.monotonic_ns, time.perf_counter_ns
    prev, backwards = 0, 0
    # Both read CLOCK_MONOTONIC, so one sequence through both must never go back.
    for _ in range(n // 2):
        a = mono()
        b = perf()
        if a < prev or b < a:
            backwards += 1
        prev = b
    os.write(1, b"calls=%d backwards=%d\n" % (n // 2 * 2, backwards))
    while os.read(0, 1):
        os.write(1, b"%d %d\n" % (mono(), perf()))


def bench(name, n, runs):
    fn = getattr(time, name)
    cpu = time.thread_time_ns
    per_call = []
    # One run more than counted: the first warms the interpreter's caches.
    for _ in range(runs + 1):
        t0 = cpu()
        for _ in range(n):
            fn()
        per_call.append((cpu() - t0) / n)
    per_call = sorted(per_call[1:])
    print("ns_per_call=%.2f" % per_call[len(per_call) // 2])


if sys.argv[1] == "check":
    check(int(sys.argv[2]))
else:
    bench(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
