/* SPDX-License-Identifier: MIT */
/* Parses FASTRAW_TSC, FASTRAW_SOURCE, FASTRAW_CLOCKS, FASTRAW_DISABLE, FASTRAW_DEBUG, FASTRAW_STATS, FASTRAW_SHADOW_VDSO and FASTRAW_SYSCALL; unknown values become warnings. */
#include "proc/env.h"

#include <stdint.h>
#include <string.h>

/* One bit per variable in fr_env.seen; FR_ENV_NVARS counts them. */
enum {
	SEEN_TSC = 1u << 0,
	SEEN_SOURCE = 1u << 1,
	SEEN_DISABLE = 1u << 2,
	SEEN_DEBUG = 1u << 3,
	SEEN_STATS = 1u << 4,
	SEEN_SHADOW_VDSO = 1u << 5,
	SEEN_SYSCALL = 1u << 6,
	SEEN_CLOCKS = 1u << 7,
};

_Static_assert(SEEN_CLOCKS == 1u << (FR_ENV_NVARS - 1), "FR_ENV_NVARS counts the variables");

/* The value of name in one "NAME=value" entry, or NULL. */
static const char *match(const char *entry, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(entry, name, n) == 0 && entry[n] == '=')
		return entry + n + 1;
	return NULL;
}

/*
 * Whether this is the variable's first entry, which getenv would return and which alone counts.
 * An empty first entry still counts: the variable is then unset, whatever follows.
 */
static int first(struct fr_env *out, unsigned bit)
{
	if (out->seen & bit)
		return 0;
	out->seen |= bit;
	return 1;
}

/* Never more than one per variable (first()), so the array cannot overflow. */
static void add_warning(struct fr_env *out, const char *name, const char *value, const char *accepted)
{
	if (out->nwarn < FR_ENV_NVARS) {
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

/*
 * Names every architecture takes besides its own, so that one environment serves a mixed
 * fleet: "ordered" (the CPU's default read, which always waits for earlier loads) and
 * "unordered", and x86's names, which mean the same two things elsewhere. The architecture's
 * own names are looked up first: on x86-64 "rdtscp" and "lfence" stay the two ordered reads.
 */
static const struct tsc_alias {
	const char *name;
	int unordered; /* 1: FR_CTR_UNORDERED; 0: the default ordered read */
} tsc_aliases[] = {
	{ "ordered", 0 }, { "unordered", 1 }, { "rdtscp", 0 }, { "lfence", 0 }, { "rdtsc", 1 },
};

#define FR_TSC_OWN                                                                                        \
	FR_ARCH_COUNTER_NAME_ORDERED ", " FR_ARCH_COUNTER_NAME_FENCED ", " FR_ARCH_COUNTER_NAME_UNORDERED \
	", ordered, unordered"

/* What the warning lists: the CPU's names, then x86's where they are not the CPU's own (a constant). */
static const char *tsc_accepted(void)
{
	return strcmp(FR_ARCH_COUNTER_NAME_ORDERED, "rdtscp") == 0 ? FR_TSC_OWN : FR_TSC_OWN ", rdtscp, lfence, rdtsc";
}

static void parse_tsc(struct fr_env *out, const char *value)
{
	for (int mode = 0; mode < FR_CTR_MODES; mode++) {
		if (strcmp(value, fr_counter_names[mode]) == 0) {
			out->tsc_set = 1;
			out->tsc = (enum fr_counter_mode)mode;
			return;
		}
	}
	for (size_t i = 0; i < sizeof(tsc_aliases) / sizeof(tsc_aliases[0]); i++) {
		if (strcmp(value, tsc_aliases[i].name) == 0) {
			/* "ordered" is the default read: left unset, start-up picks it for this CPU. */
			if (tsc_aliases[i].unordered) {
				out->tsc_set = 1;
				out->tsc = FR_CTR_UNORDERED;
			} else {
				out->tsc_ordered = 1;
			}
			return;
		}
	}
	add_warning(out, "FASTRAW_TSC", value, tsc_accepted());
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

const struct fr_env_clock_word fr_env_clock_words[7] = {
	{ "raw", CLOCK_MONOTONIC_RAW },
	{ "monotonic", CLOCK_MONOTONIC },
	{ "boottime", CLOCK_BOOTTIME },
	{ "realtime", CLOCK_REALTIME },
	{ "tai", CLOCK_TAI },
	{ "monotonic_coarse", CLOCK_MONOTONIC_COARSE },
	{ "realtime_coarse", CLOCK_REALTIME_COARSE },
};

#define FR_CLOCKS_ACCEPTED                                                                                  \
	"raw, all, or a comma list of raw, monotonic, boottime, realtime, tai, monotonic_coarse, "       \
	"realtime_coarse"

/* The clock id of the n bytes at w, a word of fr_env_clock_words, or -1. */
static int clock_word(const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof(fr_env_clock_words) / sizeof(fr_env_clock_words[0]); i++) {
		if (strlen(fr_env_clock_words[i].word) == n && strncmp(w, fr_env_clock_words[i].word, n) == 0)
			return (int)fr_env_clock_words[i].clock;
	}
	return -1;
}

/*
 * FASTRAW_CLOCKS: "raw", "all" or a comma list of clock words. One word not understood (an empty
 * one included) makes the whole value a warning, and RAW alone is served: a typo must not serve
 * half a list.
 */
static void parse_clocks(struct fr_env *out, const char *value)
{
	unsigned m = FR_ENV_CLOCKS_RAW;
	const char *w = value;

	if (strcmp(value, "all") == 0) {
		out->clocks = FR_ENV_CLOCKS_ALL;
		return;
	}
	for (;;) {
		const char *end = strchr(w, ',');
		size_t n = end ? (size_t)(end - w) : strlen(w);
		int clk = clock_word(w, n);

		if (clk < 0) {
			add_warning(out, "FASTRAW_CLOCKS", value, FR_CLOCKS_ACCEPTED);
			return;
		}
		m |= 1u << clk;
		if (!end)
			break;
		w = end + 1;
	}
	out->clocks = m;
}

/* A flag variable's first, non-empty entry. */
static void flag(struct fr_env *out, const char *name, const char *v, unsigned bit, int *dst)
{
	if (first(out, bit) && *v)
		parse_flag(out, name, v, dst);
}

char **fr_env_on_stack(void *end)
{
	char **argv = (char **)end + 1;
	long argc = *(long *)end;

	if (argc < 0 || argc == (long)(uintptr_t)argv)
		for (argc = 0; argv[argc]; argc++)
			;
	return argv + argc + 1;
}

void fr_env_parse(char *const *envp, int secure, struct fr_env *out)
{
	memset(out, 0, sizeof(*out));
	out->clocks = FR_ENV_CLOCKS_RAW;
	for (; !secure && envp && *envp; envp++) {
		const char *e = *envp, *v;

		if (strncmp(e, "FASTRAW_", 8) != 0)
			continue;
		if ((v = match(e, "FASTRAW_TSC"))) {
			if (first(out, SEEN_TSC) && *v)
				parse_tsc(out, v);
		} else if ((v = match(e, "FASTRAW_CLOCKS"))) {
			if (first(out, SEEN_CLOCKS) && *v)
				parse_clocks(out, v);
		} else if ((v = match(e, "FASTRAW_SOURCE"))) {
			if (first(out, SEEN_SOURCE) && *v)
				parse_source(out, v);
		} else if ((v = match(e, "FASTRAW_DISABLE"))) {
			flag(out, "FASTRAW_DISABLE", v, SEEN_DISABLE, &out->disable);
		} else if ((v = match(e, "FASTRAW_DEBUG"))) {
			flag(out, "FASTRAW_DEBUG", v, SEEN_DEBUG, &out->debug);
		} else if ((v = match(e, "FASTRAW_STATS"))) {
			flag(out, "FASTRAW_STATS", v, SEEN_STATS, &out->stats);
		} else if ((v = match(e, "FASTRAW_SHADOW_VDSO"))) {
			flag(out, "FASTRAW_SHADOW_VDSO", v, SEEN_SHADOW_VDSO, &out->shadow_vdso);
		} else if ((v = match(e, "FASTRAW_SYSCALL"))) {
			flag(out, "FASTRAW_SYSCALL", v, SEEN_SYSCALL, &out->syscall_raw);
		}
	}
}

void fr_env_warning_line(const struct fr_env_warning *w, struct fr_line *l)
{
	size_t len = strlen(w->value);

	fr_line_add(l, w->name);
	fr_line_add(l, "=");
	if (fr_line_add_escaped(l, w->value, FR_ENV_SHOW_MAX) < len) {
		fr_line_add(l, "... (");
		fr_line_add_uint(l, len);
		fr_line_add(l, " bytes)");
	}
	fr_line_add(l, " is not one of ");
	fr_line_add(l, w->accepted);
	fr_line_add(l, "; using the default");
}
