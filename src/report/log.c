/* SPDX-License-Identifier: MIT */
/* Builds and writes diagnostic lines, async-signal-safely. */
#define _GNU_SOURCE
#include "report/log.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "base/sys.h"
#include "base/once.h"

/* At most this many bytes of the program's name are shown. */
#define PROGRAM_MAX 64

/* Room for the text: one byte is kept for the newline. */
#define ROOM(l) (sizeof((l)->buf) - 1)

void fr_line_init(struct fr_line *l)
{
	l->len = 0;
	l->cut = 0;
}

/* fr_line_program_from's function, the word FR_W_PROGRAM_OF: written before the first line, read as one word. */
void fr_line_program_from(const char *(*name)(void))
{
	__atomic_store_n(&fr_word(FR_W_PROGRAM_OF)->name_fn, name, __ATOMIC_RELEASE);
}

/* argv[0], the string the program was started with, read without a call to libc. */
static const char *program(void)
{
	const char *(*of)(void) = __atomic_load_n(&fr_word(FR_W_PROGRAM_OF)->name_fn, __ATOMIC_ACQUIRE);
	const char *p = of ? of() : NULL;

	return p && *p ? p : "?";
}

static void add_program(struct fr_line *l)
{
	const char *p = program(), *slash = __builtin_strrchr(p, '/');
	size_t used = 0;

	if (slash && slash[1])
		p = slash + 1;
	while (p[used] && used < PROGRAM_MAX) {
		size_t n = __builtin_strcspn(p + used, ":");

		if (n > PROGRAM_MAX - used)
			n = PROGRAM_MAX - used;
		if (fr_line_add_escaped(l, p + used, n) < n)
			break;
		used += n;
		if (p[used] == ':' && used < PROGRAM_MAX) {
			fr_line_add(l, "\\x3a");
			used++;
		}
	}
	if (p[used])
		fr_line_add(l, "...");
}

void fr_line_start(struct fr_line *l)
{
	fr_line_init(l);
	fr_line_add(l, "fastraw[");
	fr_line_add_uint(l, (unsigned long)fr_sys_getpid());
	fr_line_add(l, "] ");
	add_program(l);
	fr_line_add(l, ": ");
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
	static const struct timespec now = { 0, 0 };
	int saved = errno, was_pending, broken = 0;
	fr_ksigset pipe_only = fr_ksig_bit(SIGPIPE), old = 0, pending = 0;
	size_t off = 0;

	/* A line that overflowed says so rather than ending mid-word without a sign. */
	if (l->cut && l->len >= 3) {
		l->buf[l->len - 3] = l->buf[l->len - 2] = l->buf[l->len - 1] = '.';
	}
	l->buf[l->len++] = '\n';
	/* A SIGPIPE would kill a program that never wrote to its stderr, or change its exit status. */
	fr_sys_sigprocmask(SIG_BLOCK, &pipe_only, &old);
	was_pending = fr_sys_sigpending(&pending) == 0 && (pending & pipe_only);
	while (off < l->len) {
		long n = fr_sys_write(2, l->buf + off, l->len - off);

		if (n == -EINTR)
			continue;
		broken = n == -EPIPE;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	/* Ours to take back only if it was not pending already: one pending SIGPIPE stays one. */
	if (broken && !was_pending)
		fr_sys_sigtimedwait(&pipe_only, &now);
	fr_sys_sigprocmask(SIG_SETMASK, &old, NULL);
	l->len = 0;
	l->cut = 0;
	errno = saved;
}
