/* SPDX-License-Identifier: MIT */
/* The machine facts fastraw-bench prints above its table and picks its goals by. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

struct bench_machine {
	char vendor[13];      /* the CPU's vendor, e.g. "AuthenticAMD" */
	char brand[49];       /* the CPU's model, spaces trimmed; "" when the CPU has none */
	char release[65];     /* uname -r */
	char clocksource[64]; /* the kernel's current clocksource; "?" when sysfs cannot tell */
	int amd;              /* 1: AMD or Hygon (the AMD goal for FASTRAW_TSC=rdtsc), 0: Intel's goal */
	int rdtscp;           /* the CPU has RDTSCP (fr_cpu_features.ordered_read) */
	int invariant_tsc;    /* the TSC is invariant (fr_cpu_features.invariant_counter) */
};

void bench_machine_read(struct bench_machine *m);

#endif
