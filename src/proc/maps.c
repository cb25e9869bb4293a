/* SPDX-License-Identifier: MIT */
/* Reads the [vvar], [vvar_vclock] and [vdso] lines of /proc/self/maps into addresses. */
#define _GNU_SOURCE
#include "proc/maps.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static uintptr_t parse_hex(const char *s, const char *end)
{
	uintptr_t v = 0;

	for (; s < end; s++) {
		char c = *s;

		if (c >= '0' && c <= '9')
			v = v * 16 + (uintptr_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uintptr_t)(c - 'a' + 10);
		else
			break;
	}
	return v;
}

/*
 * The pathname field of a maps line ("start-end perms offset dev inode   pathname"), or NULL.
 * A file may be named "x [vdso]": only the whole field identifies a special mapping.
 */
static const char *pathname(const char *line, size_t len, size_t *plen)
{
	const char *p = line, *end = line + len;

	for (int field = 0; field < 5; field++) {
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
	}
	while (end > p && (end[-1] == ' ' || end[-1] == '\n'))
		end--;
	*plen = (size_t)(end - p);
	return p < end ? p : NULL;
}

static int is(const char *path, size_t plen, const char *name)
{
	return plen == strlen(name) && memcmp(path, name, plen) == 0;
}

static void parse_line(const char *line, size_t len, struct fr_maps *out)
{
	size_t plen;
	const char *path = pathname(line, len, &plen);
	uintptr_t start;
	const char *dash;

	if (!path || path[0] != '[')
		return;
	start = parse_hex(line, line + len);
	dash = memchr(line, '-', len);
	if (is(path, plen, "[vvar]"))
		out->vvar = start;
	else if (is(path, plen, "[vvar_vclock]"))
		out->vvar_vclock = start;
	else if (is(path, plen, "[vdso]")) {
		out->vdso = start;
		out->vdso_end = dash ? parse_hex(dash + 1, line + len) : 0;
	}
}

void fr_maps_parse(const char *text, size_t len, struct fr_maps *out)
{
	const char *end = text + len;

	memset(out, 0, sizeof(*out));
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		const char *stop = nl ? nl : end;

		parse_line(text, (size_t)(stop - text), out);
		text = nl ? nl + 1 : end;
	}
}

/* Adds what a run of whole lines names to out. */
static void merge(struct fr_maps *out, const char *text, size_t len)
{
	struct fr_maps part;

	fr_maps_parse(text, len, &part);
	if (part.vvar)
		out->vvar = part.vvar;
	if (part.vvar_vclock)
		out->vvar_vclock = part.vvar_vclock;
	if (part.vdso) {
		out->vdso = part.vdso;
		out->vdso_end = part.vdso_end;
	}
}

int fr_maps_read(struct fr_maps *out)
{
	char buf[2048];
	size_t have = 0;
	int saved = errno, fd, rc = 0, skipping = 0;

	memset(out, 0, sizeof(*out));
	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errno = saved;
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - have);
		char *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -1 : 0;
			if (!skipping)
				merge(out, buf, have);
			break;
		}
		have += (size_t)n;
		if (skipping) {
			/* The rest of an overlong line: drop it up to its newline. */
			nl = memchr(buf, '\n', have);
			if (!nl) {
				have = 0;
				continue;
			}
			skipping = 0;
			have -= (size_t)(nl - buf) + 1;
			memmove(buf, nl + 1, have);
		}
		nl = memrchr(buf, '\n', have);
		if (!nl) {
			/* A line longer than the buffer: no special mapping has one, skip it whole. */
			skipping = have == sizeof(buf);
			if (skipping)
				have = 0;
			continue;
		}
		merge(out, buf, (size_t)(nl - buf) + 1);
		have -= (size_t)(nl - buf) + 1;
		memmove(buf, nl + 1, have);
	}
	close(fd);
	errno = saved;
	return rc;
}
