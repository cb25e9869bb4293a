/* SPDX-License-Identifier: MIT */
/* fastraw-check's results: totals over the threads, and the text and JSON reports. */
#ifndef FR_CHECK_REPORT_H
#define FR_CHECK_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "check/check_run.h"

struct check_totals {
	uint64_t samples, backwards, cross, nsec_range, errors;
	uint64_t kernel_samples, kernel_violations;
	int64_t worst_ns;
	int64_t median_window_ns; /* lower median of the kernel windows; CHECK_WINDOW_MAX at most */
};

/* What the report says about the run besides the threads' counts. */
struct check_header {
	const char *clock;   /* the clock's name, or its id in decimal */
	clockid_t clock_id;
	const char *seconds; /* as printed: "1.0", "0.25" */
	const struct check_config *cfg;
};

void check_sum(const struct check_thread *thr, int n, struct check_totals *tot);

/* Whether the totals hold any violation (a failed call counts as one). */
int check_failed(const struct check_totals *tot);

/* One line per thread, the first violation of each kind per thread, then the summary line. */
void check_print_text(FILE *f, const struct check_header *h, const struct check_thread *thr,
		      const struct check_totals *tot);

/* One JSON object with the same counts, on one line. */
void check_print_json(FILE *f, const struct check_header *h, const struct check_thread *thr,
		      const struct check_totals *tot);

#endif
