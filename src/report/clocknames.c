/* SPDX-License-Identifier: MIT */
/* The clock-id name table and its parser. */
#include "report/clocknames.h"

#include <strings.h>

/* Linux's clock ids (include/uapi/linux/time.h); 10 (CLOCK_SGI_CYCLE) is unused. */
static const char *const names[] = {
	[CLOCK_REALTIME] = "REALTIME",
	[CLOCK_MONOTONIC] = "MONOTONIC",
	[CLOCK_PROCESS_CPUTIME_ID] = "PROCESS_CPUTIME_ID",
	[CLOCK_THREAD_CPUTIME_ID] = "THREAD_CPUTIME_ID",
	[CLOCK_MONOTONIC_RAW] = "MONOTONIC_RAW",
	[CLOCK_REALTIME_COARSE] = "REALTIME_COARSE",
	[CLOCK_MONOTONIC_COARSE] = "MONOTONIC_COARSE",
	[CLOCK_BOOTTIME] = "BOOTTIME",
	[CLOCK_REALTIME_ALARM] = "REALTIME_ALARM",
	[CLOCK_BOOTTIME_ALARM] = "BOOTTIME_ALARM",
	[CLOCK_TAI] = "TAI",
};

#define N_NAMES ((int)(sizeof(names) / sizeof(names[0])))

const char *fr_clock_name(clockid_t clk)
{
	return clk >= 0 && clk < N_NAMES ? names[clk] : NULL;
}

/*
 * strtol(s, end, 10) as far as the caller's range check can tell: leading white space, a sign,
 * decimal digits; a value past 32 bits stops growing (the caller refuses it either way). Ours, not
 * libc's: no import (base/sys.h says why).
 */
static long decimal(const char *s, char **end)
{
	const char *p = s, *digits;
	long v = 0;
	int neg = 0;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	for (digits = p; *p >= '0' && *p <= '9'; p++) {
		if (v <= 4294967296L)
			v = v * 10 + (*p - '0');
	}
	/* No digits: nothing was converted, and end is s itself, as strtol leaves it. */
	*end = (char *)(p == digits ? s : p);
	return neg ? -v : v;
}

int fr_clock_parse(const char *s, clockid_t *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	if (strncasecmp(s, "CLOCK_", 6) == 0)
		s += 6;
	for (int i = 0; i < N_NAMES; i++) {
		if (names[i] && strcasecmp(s, names[i]) == 0) {
			*out = (clockid_t)i;
			return 0;
		}
	}
	v = decimal(s, &end);
	if (*end != '\0' || end == s || v < -2147483647L - 1 || v > 2147483647L)
		return -1;
	*out = (clockid_t)v;
	return 0;
}
