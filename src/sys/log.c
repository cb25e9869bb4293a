/* SPDX-License-Identifier: MIT */
/* Builds and writes diagnostic lines, async-signal-safely. */
#include "sys/log.h"

#include <errno.h>
#include <unistd.h>

void fr_line_init(struct fr_line *l)
{
	l->len = 0;
}

void fr_line_add(struct fr_line *l, const char *s)
{
	/* Keep one byte for the newline; a longer line is cut. */
	while (s && *s && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = *s++;
}

void fr_line_emit(struct fr_line *l)
{
	int saved = errno;
	size_t off = 0;

	l->buf[l->len++] = '\n';
	while (off < l->len) {
		ssize_t n = write(2, l->buf + off, l->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	l->len = 0;
	errno = saved;
}
