/* SPDX-License-Identifier: MIT */
/* What the lookup probes (probe_lookup, musl's probe_musl_lookup) share: where a function lives, RAW read through it against the kernel, the kernel's own auxv. */
#ifndef FR_E2E_LOOKUP_COMMON_H
#define FR_E2E_LOOKUP_COMMON_H

#include <stdint.h>

#include "probe.h"

/* RAW reads through each function found, each between two kernel reads. */
#define LOOKUP_SAMPLES 20000

/* The file of the object p lies in (dladdr), or "?". */
const char *lookup_where(const void *p);

/* Prints served_KEY=<the object of p>, then, when p is not NULL, reads RAW through p LOOKUP_SAMPLES
   times between two kernel reads into sum, each answer allowed slack_ns outside the bracket. */
void lookup_check_raw(struct e2e_tally *sum, const char *key, void *p, int64_t slack_ns);

/* The same, p called through fn (e2e_as_entry32's, for a 32-bit entry). */
void lookup_check_raw_as(struct e2e_tally *sum, const char *key, void *p, e2e_clock_fn fn, int64_t slack_ns);

/* AT_type as the kernel put it in /proc/self/auxv, or 0. */
unsigned long lookup_kernel_auxv(unsigned long type);

#endif
