/* SPDX-License-Identifier: MIT */
/* The machine facts fastraw-bench prints above its table: CPU, kernel release, clocksource. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "bench/bench_machine.h"
#include "common/tool_arch.h"
#include "interpose/tools.h"

static void cpu_identity(struct bench_machine *m)
{
	struct fr_cpu_name n;

	fr_arch_cpu_name(&n);
	snprintf(m->vendor, sizeof(m->vendor), "%s", n.vendor);
	snprintf(m->brand, sizeof(m->brand), "%s", n.model);
}

void bench_machine_read(struct bench_machine *m)
{
	struct fr_cpu_features f = { 0 };
	struct utsname u;
	FILE *cs;

	memset(m, 0, sizeof(*m));
	cpu_identity(m);
#if TOOL_UNORDERED_GOAL
	/* Hygon's cores are AMD's design, with the same rdtsc cost. */
	if (strcmp(m->vendor, "AuthenticAMD") == 0 || strcmp(m->vendor, "HygonGenuine") == 0) {
		m->goal_name = "AMD";
		m->goal_limit = 1.10;
	} else {
		m->goal_name = "Intel";
		m->goal_limit = 1.40;
	}
#endif
	fr_tool_cpu_probe(&f);
	m->ordered = f.ordered_read != 0;
	m->invariant = f.invariant_counter != 0;
	snprintf(m->release, sizeof(m->release), "%s", uname(&u) == 0 ? u.release : "?");
	strcpy(m->clocksource, "?");
	cs = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
	if (cs) {
		if (fgets(m->clocksource, sizeof(m->clocksource), cs))
			m->clocksource[strcspn(m->clocksource, "\n")] = '\0';
		fclose(cs);
	}
	if (!m->clocksource[0])
		strcpy(m->clocksource, "?");
}
