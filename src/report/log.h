/* SPDX-License-Identifier: MIT */
/* One diagnostic line built on the stack and written to stderr with write(2): no stdio, no malloc. */
#ifndef FR_LOG_H
#define FR_LOG_H

#include <stddef.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

struct fr_line {
	char buf[512];
	size_t len;
	int cut; /* something did not fit: the line ends in "..." */
};

void fr_line_init(struct fr_line *l);

/*
 * Starts a line the library prints: "fastraw[PID] PROGRAM: ", PROGRAM the last part of argv[0],
 * escaped as fr_line_add_escaped does and with ':' written \x3a, so that the first ": " ends it.
 */
void fr_line_start(struct fr_line *l);

/*
 * Where PROGRAM comes from: a function giving argv[0] as libc keeps it (program_invocation_name),
 * or NULL. Given before any line by the layer that can find it (startup/, with elf/dynsym.h's
 * fr_program_name): this layer cannot read libc's tables, and importing the variable would make
 * the loader look it up in every process. "?" until then.
 */
void fr_line_program_from(const char *(*name)(void));

void fr_line_add(struct fr_line *l, const char *s);

/*
 * Appends s with every byte outside printable ASCII written as an escape (\n, \t, \r, \\ for
 * a backslash, \xNN otherwise), so that a value from outside cannot end the line or drive a
 * terminal. At most max bytes of s are consumed, never splitting an escape; returns how many were.
 */
size_t fr_line_add_escaped(struct fr_line *l, const char *s, size_t max);

/* Appends v in decimal. */
void fr_line_add_uint(struct fr_line *l, unsigned long v);

/* Copies the text so far (no newline, no "..." mark) into dst, NUL-terminated, cut at cap - 1 bytes. */
void fr_line_copy(const struct fr_line *l, char *dst, size_t cap);

/*
 * Appends a newline and writes the line to fd 2; errno is kept. A pipe without a reader does
 * not raise SIGPIPE: it is blocked for the write, and one the write raised is taken back.
 */
void fr_line_emit(struct fr_line *l);

#pragma GCC visibility pop

#endif
