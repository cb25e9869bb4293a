/* SPDX-License-Identifier: MIT */
/* Parses FASTRAW_TSC, FASTRAW_SOURCE, FASTRAW_DISABLE, FASTRAW_DEBUG, FASTRAW_STATS and FASTRAW_SHADOW_VDSO; unknown values become warnings. */
#include "sys/env.h"

#include <string.h>

/* The value of name in one "NAME=value" entry, or NULL. */
static const char *match(const char *entry, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(entry, name, n) == 0 && entry[n] == '=')
		return entry + n + 1;
	return NULL;
}

static void add_warning(struct fr_env *out, const char *name, const char *value, const char *accepted)
{
	if (out->nwarn < FR_ENV_MAX_WARN) {
		out->warn[out->nwarn].name = name;
		out->warn[out->nwarn].value = value;
		out->warn[out->nwarn].accepted = accepted;
		out->nwarn++;
	}
}

static void parse_flag(struct fr_env *out, const char *name, const char *value, int *flag)
{
	if (strcmp(value, "1") == 0)
		*flag = 1;
	else if (strcmp(value, "0") == 0)
		*flag = 0;
	else
		add_warning(out, name, value, "0, 1");
}

static void parse_tsc(struct fr_env *out, const char *value)
{
	static const struct {
		const char *name;
		enum fr_counter_mode mode;
	} modes[] = { { "rdtscp", FR_CTR_RDTSCP }, { "lfence", FR_CTR_LFENCE }, { "rdtsc", FR_CTR_RDTSC } };

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(value, modes[i].name) == 0) {
			out->tsc_set = 1;
			out->tsc = modes[i].mode;
			return;
		}
	}
	add_warning(out, "FASTRAW_TSC", value, "rdtscp, lfence, rdtsc");
}

static void parse_source(struct fr_env *out, const char *value)
{
	static const char *const names[] = { "auto", "kernel", "calibrated", "off" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(value, names[i]) == 0) {
			out->source = (enum fr_source)i;
			return;
		}
	}
	add_warning(out, "FASTRAW_SOURCE", value, "auto, kernel, calibrated, off");
}

void fr_env_parse(char *const *envp, int secure, struct fr_env *out)
{
	memset(out, 0, sizeof(*out));
	out->shadow_vdso = 1;
	for (; !secure && envp && *envp; envp++) {
		const char *e = *envp, *v;

		if (strncmp(e, "FASTRAW_", 8) != 0)
			continue;
		if ((v = match(e, "FASTRAW_TSC")) && *v)
			parse_tsc(out, v);
		else if ((v = match(e, "FASTRAW_SOURCE")) && *v)
			parse_source(out, v);
		else if ((v = match(e, "FASTRAW_DISABLE")) && *v)
			parse_flag(out, "FASTRAW_DISABLE", v, &out->disable);
		else if ((v = match(e, "FASTRAW_DEBUG")) && *v)
			parse_flag(out, "FASTRAW_DEBUG", v, &out->debug);
		else if ((v = match(e, "FASTRAW_STATS")) && *v)
			parse_flag(out, "FASTRAW_STATS", v, &out->stats);
		else if ((v = match(e, "FASTRAW_SHADOW_VDSO")) && *v)
			parse_flag(out, "FASTRAW_SHADOW_VDSO", v, &out->shadow_vdso);
	}
}
