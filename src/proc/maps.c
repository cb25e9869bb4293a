/* SPDX-License-Identifier: MIT */
/* Reads the [vvar], [vvar_vclock] and [vdso] lines of /proc/self/maps into addresses. */
#define _GNU_SOURCE
#include "proc/maps.h"

#include <string.h>

#include "base/pages.h"
#include "proc/readfile.h"

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
	/* strncmp, not memcmp: base/str.c has it, so no libc import (memcmp is not inlined on every target). */
	return plen == strlen(name) && strncmp(path, name, plen) == 0;
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

/* Where a reading of the maps file is: what it found, and whether it is inside an overlong line. */
struct maps_reading {
	struct fr_maps *out;
	size_t size;
	int skipping;
};

/* fr_file_read's take: merges the whole lines read, keeps a partial one, drops an overlong one. */
static long take_lines(void *ctx, char *buf, size_t have, int end)
{
	struct maps_reading *r = ctx;
	size_t off = 0;
	char *nl;

	if (end) {
		if (!r->skipping)
			merge(r->out, buf, have);
		return (long)have;
	}
	if (r->skipping) {
		/* The rest of an overlong line: drop it up to its newline. */
		nl = memchr(buf, '\n', have);
		if (!nl)
			return (long)have;
		r->skipping = 0;
		off = (size_t)(nl - buf) + 1;
	}
	nl = memrchr(buf + off, '\n', have - off);
	if (!nl) {
		/* A line longer than the buffer: no special mapping has one, skip it whole. */
		r->skipping = have - off == r->size;
		return (long)(r->skipping ? have : off);
	}
	merge(r->out, buf + off, (size_t)(nl - buf) + 1 - off);
	return (long)(nl - buf) + 1;
}

int fr_maps_read(struct fr_maps *out)
{
	/*
	 * Static, off the stack of a first RAW read in a signal handler: in the library only the
	 * holder of start-up's claim reads the maps (startup/claim.h).
	 */
	static char buf[2048] FR_LATE_STATIC(maps_buf);
	struct maps_reading r = { out, sizeof(buf), 0 };

	memset(out, 0, sizeof(*out));
	return fr_file_read("/proc/self/maps", buf, sizeof(buf), take_lines, &r);
}
