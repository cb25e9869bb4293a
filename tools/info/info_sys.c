/* SPDX-License-Identifier: MIT */
/* The system as fastraw-info reports it: kernel release, clocksources, CPU identity and the counter choice. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "info/info.h"

#define CS_DIR "/sys/devices/system/clocksource/clocksource0/"

/* The first line of a sysfs file without its newline; "" when it cannot be read. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* Removes leading and trailing spaces in place. */
static void trim(char *s)
{
	size_t n = strlen(s), start = strspn(s, " ");

	while (n > start && s[n - 1] == ' ')
		n--;
	memmove(s, s + start, n - start);
	s[n - start] = '\0';
}

static void cpu_identity(struct info_sys *s)
{
	struct fr_cpu_name n;

	fr_arch_cpu_name(&n);
	snprintf(s->vendor, sizeof(s->vendor), "%s", n.vendor);
	snprintf(s->brand, sizeof(s->brand), "%s", n.model);
}

void info_sys_read(struct info_sys *s)
{
	struct utsname u;

	memset(s, 0, sizeof(*s));
	if (uname(&u) == 0)
		snprintf(s->release, sizeof(s->release), "%s", u.release);
	read_line(CS_DIR "current_clocksource", s->clocksource, sizeof(s->clocksource));
	read_line(CS_DIR "available_clocksource", s->available, sizeof(s->available));
	trim(s->available);
	cpu_identity(s);
	/* The library's own probe: it never executes the instructions it asks about. */
	fr_tool_cpu_probe(&s->cpu);
	fr_arch_counter_rates(&s->rates);
}

void info_counter_explain(struct info_counter *c, const struct fr_cpu_features *cpu, char **envp, int secure)
{
	char note[120] = "";

	fr_env_parse(envp, secure, &c->env);
	c->mode = fr_tool_choose_counter(&c->env, cpu, &c->ordered_missing);
	for (int i = 0; i < c->env.nwarn; i++)
		if (strcmp(c->env.warn[i].name, "FASTRAW_TSC") == 0)
			snprintf(note, sizeof(note), "; FASTRAW_TSC=%s not understood", c->env.warn[i].value);
	if (secure)
		snprintf(note, sizeof(note), "; FASTRAW_* ignored in secure execution");
	if (c->ordered_missing)
		snprintf(c->why, sizeof(c->why), "FASTRAW_TSC=%s, but this CPU has no %s", FR_ARCH_COUNTER_NAME_ORDERED,
			 FR_ARCH_ORDERED_FEATURE);
	else if (c->env.tsc_set)
		snprintf(c->why, sizeof(c->why), "FASTRAW_TSC=%s", fr_counter_name(c->env.tsc));
	else
		snprintf(c->why, sizeof(c->why), "default: %s%s%s", cpu->ordered_read ? "CPU has " : "no ",
			 FR_ARCH_ORDERED_FEATURE, note);
}
