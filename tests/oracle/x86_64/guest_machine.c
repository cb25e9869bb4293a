/* SPDX-License-Identifier: MIT */
/* The counter facts of a kernel-matrix guest's x86-64 CPU, read the way the architecture allows from user space. */
#include "../../matrix/guest_machine.h"

#include <stdio.h>
#include <cpuid.h>

void fr_guest_cpu_facts(char *buf, size_t len)
{
	unsigned a, b, c, d;
	int rdtscp = __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));

	snprintf(buf, len, "rdtscp=%d", rdtscp);
}
