/* SPDX-License-Identifier: MIT */
/* Builds and writes diagnostic lines, async-signal-safely. */
#include "sys/log.h"

#include <errno.h>
#include <unistd.h>

/* Room for the text: one byte is kept for the newline. */
#define ROOM(l) (sizeof((l)->buf) - 1)

void fr_line_init(struct fr_line *l)
{
	l->len = 0;
	l->cut = 0;
}

void fr_line_add(struct fr_line *l, const char *s)
{
	while (s && *s && l->len < ROOM(l))
		l->buf[l->len++] = *s++;
	if (s && *s)
		l->cut = 1;
}

void fr_line_add_uint(struct fr_line *l, unsigned long v)
{
	char num[24], *p = num + sizeof(num);

	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	fr_line_add(l, p);
}

void fr_line_copy(const struct fr_line *l, char *dst, size_t cap)
{
	size_t n = l->len < cap - 1 ? l->len : cap - 1;

	__builtin_memcpy(dst, l->buf, n);
	dst[n] = '\0';
}

/* The escape for byte c in out (NUL-terminated), or an empty string when c is printed as it is. */
static void escape(unsigned char c, char out[5])
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\0';
	if (c >= 0x20 && c < 0x7f && c != '\\')
		return;
	out[0] = '\\';
	out[2] = '\0';
	if (c == '\n' || c == '\t' || c == '\r' || c == '\\') {
		out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\';
		return;
	}
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	out[4] = '\0';
}

size_t fr_line_add_escaped(struct fr_line *l, const char *s, size_t max)
{
	size_t used = 0;

	for (; s && s[used] && used < max; used++) {
		unsigned char c = (unsigned char)s[used];
		char esc[5];

		escape(c, esc);
		if (!esc[0]) {
			if (l->len >= ROOM(l))
				break;
			l->buf[l->len++] = (char)c;
			continue;
		}
		if (l->len + __builtin_strlen(esc) > ROOM(l))
			break;
		fr_line_add(l, esc);
	}
	if (s && s[used] && used < max)
		l->cut = 1;
	return used;
}

void fr_line_emit(struct fr_line *l)
{
	int saved = errno;
	size_t off = 0;

	/* A line that overflowed says so rather than ending mid-word without a sign. */
	if (l->cut && l->len >= 3) {
		l->buf[l->len - 3] = l->buf[l->len - 2] = l->buf[l->len - 1] = '.';
	}
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
	l->cut = 0;
	errno = saved;
}
