/* SPDX-License-Identifier: MIT */
/* The CPUID probe behind the counter choice, replaceable by tests. */
#include "sys/counter.h"

#include <cpuid.h>

void fr_cpu_probe_cpuid(struct fr_cpu_features *out)
{
	unsigned a, b, c, d, max_ext;

	out->rdtscp = 0;
	out->invariant_tsc = 0;
	max_ext = __get_cpuid_max(0x80000000u, 0);
	if (max_ext >= 0x80000001u && __get_cpuid(0x80000001u, &a, &b, &c, &d))
		out->rdtscp = (d >> 27) & 1;
	if (max_ext >= 0x80000007u && __get_cpuid(0x80000007u, &a, &b, &c, &d))
		out->invariant_tsc = (d >> 8) & 1;
}

fr_cpu_probe_fn fr_cpu_probe = fr_cpu_probe_cpuid;

const char *fr_counter_name(enum fr_counter_mode mode)
{
	switch (mode) {
	case FR_CTR_RDTSCP: return "rdtscp";
	case FR_CTR_LFENCE: return "lfence";
	case FR_CTR_RDTSC: return "rdtsc";
	}
	return "?";
}
