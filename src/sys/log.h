/* SPDX-License-Identifier: MIT */
/* One diagnostic line built on the stack and written to stderr with write(2): no stdio, no malloc. */
#ifndef FR_LOG_H
#define FR_LOG_H

#include <stddef.h>

struct fr_line {
	char buf[512];
	size_t len;
};

void fr_line_init(struct fr_line *l);
void fr_line_add(struct fr_line *l, const char *s);
/* Appends a newline and writes the line to fd 2; errno is kept. */
void fr_line_emit(struct fr_line *l);

#endif
