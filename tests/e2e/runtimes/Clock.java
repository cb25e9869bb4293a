// SPDX-License-Identifier: MIT
// Java's System.nanoTime (HotSpot reads CLOCK_MONOTONIC through libc), for the e2e test and the benchmark.
// usage: java Clock.java check N        N reads, a line "calls= backwards=", then one reading per
//                                       byte read from stdin
//        java Clock.java bench N RUNS   ns per call over N calls, the median of RUNS runs (thread
//                                       CPU time), as "ns_per_call="
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

public class Clock {
    static long sink;

    static void check(int n) throws IOException {
        long prev = 0, backwards = 0;
        for (int i = 0; i < n; i++) {
            long v = System.nanoTime();
            if (v < prev)
                backwards++;
            prev = v;
        }
        System.out.print("calls=" + n + " backwards=" + backwards + "\n");
        System.out.flush();
        while (System.in.read() >= 0) {
            System.out.print(System.nanoTime() + "\n");
            System.out.flush();
        }
    }

    static void bench(int n, int runs) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[] perCall = new double[runs];
        // Runs before the counted ones let the JIT compile the loop.
        for (int r = -3; r < runs; r++) {
            long t0 = cpu.getCurrentThreadCpuTime(), s = 0;
            for (int i = 0; i < n; i++)
                s += System.nanoTime();
            sink += s;
            if (r >= 0)
                perCall[r] = (double) (cpu.getCurrentThreadCpuTime() - t0) / n;
        }
        Arrays.sort(perCall);
        System.out.printf("ns_per_call=%.2f%n", perCall[runs / 2]);
    }

    public static void main(String[] args) throws IOException {
        if (args[0].equals("check"))
            check(Integer.parseInt(args[1]));
        else
            bench(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
    }
}
