/* SPDX-License-Identifier: MIT */
/* The library's own string and memory functions, hidden: no import of libc's, so no symbol lookup for them in every process's start-up. */
/* memrchr's declaration; and no fortified inline wrappers in place of the definitions below. */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include <stddef.h>
#include <string.h>
#include <strings.h>

/*
 * Under /etc/ld.so.preload every import of the library is a lookup the loader makes in every
 * process (about 770 instructions of /bin/true's start-up apiece, issue 30). These definitions
 * carry libc's names because the compiler itself emits calls to memcpy and memset (structure
 * copies and clears); hidden (fastraw_core's default visibility), they bind inside the library
 * and are never exported. Plain byte loops: the library copies a few hundred bytes at start-up
 * and the vDSO image (8 KiB) once; nothing on the clock path calls them. This file is compiled
 * without loop-idiom recognition (src/CMakeLists.txt), which would turn the loops back into
 * calls to themselves.
 */

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else if (d > s) {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void *memchr(const void *p, int c, size_t n)
{
	const unsigned char *s = p;

	for (; n; n--, s++) {
		if (*s == (unsigned char)c)
			return (void *)s;
	}
	return NULL;
}

void *memrchr(const void *p, int c, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		if (s[n] == (unsigned char)c)
			return (void *)(s + n);
	}
	return NULL;
}

size_t strlen(const char *s)
{
	const char *e = s;

	while (*e)
		e++;
	return (size_t)(e - s);
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

/* ASCII case folding, as libc's in the C locale the library's names and values are written in. */
static int lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

int strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		int x = lower((unsigned char)*a), y = lower((unsigned char)*b);

		if (x != y || !x)
			return x - y;
	}
	return 0;
}

int strcasecmp(const char *a, const char *b)
{
	return strncasecmp(a, b, (size_t)-1);
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *found = NULL;

	for (;; s++) {
		if (*s == (char)c)
			found = s;
		if (!*s)
			return (char *)found;
	}
}
