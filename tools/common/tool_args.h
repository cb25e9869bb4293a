/* SPDX-License-Identifier: MIT */
/* Option values shared by the command-line tools: one range-checked decimal parser. */
#ifndef FR_TOOL_ARGS_H
#define FR_TOOL_ARGS_H

#include <errno.h>
#include <stdlib.h>

/* A whole decimal number in [min, max] into *out: 0, or -1 (out untouched) for anything else. */
static inline int tool_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

#endif
