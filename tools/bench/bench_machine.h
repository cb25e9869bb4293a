/* SPDX-License-Identifier: MIT */
/* The machine facts fastraw-bench prints above its table and picks its goals by. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

struct bench_machine {
	char vendor[13];      /* the CPU's vendor, e.g. "AuthenticAMD", "ARM" */
	char brand[49];       /* the CPU's model, spaces trimmed; "" when the CPU has none */
	char release[65];     /* uname -r */
	char clocksource[64]; /* the kernel's current clocksource; "?" when sysfs cannot tell */
	const char *goal_name; /* whose goal the unordered mode's row has ("AMD", "Intel"); NULL: none */
	double goal_limit;     /* that goal: preload RAW at most this many times the bare read */
	int ordered;           /* the CPU has the ordered read (fr_cpu_features.ordered_read) */
	int invariant;         /* the counter is invariant (fr_cpu_features.invariant_counter) */
};

void bench_machine_read(struct bench_machine *m);

#endif
