/* SPDX-License-Identifier: MIT */
/* Prints the goals table of fastraw-bench: the machine, then one row per goal with its baseline. */
#ifndef BENCH_TABLE_H
#define BENCH_TABLE_H

#include "bench/bench_goals.h"
#include "bench/bench_machine.h"

/* Prints the header and the table; returns how many goals were missed (informational only). */
int bench_table_print(const struct bench_machine *m, const struct bench_goal_opts *o,
		      const struct bench_goal_results *r);

#endif
