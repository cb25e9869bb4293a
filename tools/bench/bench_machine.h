/* SPDX-License-Identifier: MIT */
/* The machine facts fastraw-bench prints above its table and picks its goals by. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

struct bench_machine {
	char vendor[13];      /* CPUID leaf 0, e.g. "AuthenticAMD" */
	char brand[49];       /* CPUID 0x80000002-4, spaces trimmed; "" when the CPU has none */
	char release[65];     /* uname -r */
	char clocksource[64]; /* the kernel's current clocksource; "?" when sysfs cannot tell */
	int amd;              /* 1: AMD or Hygon (the AMD goal for FASTRAW_TSC=rdtsc), 0: Intel's goal */
	int rdtscp;           /* CPUID 0x80000001 EDX bit 27 */
	int invariant_tsc;    /* CPUID 0x80000007 EDX bit 8 */
};

void bench_machine_read(struct bench_machine *m);

#endif
