/* SPDX-License-Identifier: MIT */
/* The one reader of files at start-up, by system calls (base/sys.h): a chunk at a time into the caller's buffer, no stdio, no malloc. */
#ifndef FR_READFILE_H
#define FR_READFILE_H

#include <stddef.h>

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Given the have bytes now in buf (end: the file is over, or a read failed), how many of them
 * the caller is done with, from the front: the reader moves the rest to the front and reads
 * after it. A negative answer stops the reading.
 */
typedef long (*fr_file_take_fn)(void *ctx, char *buf, size_t have, int end);

/*
 * Reads path by system calls, errno untouched (open with O_CLOEXEC, each read retried on EINTR,
 * close) into buf,
 * size bytes, handing what it holds to take after each read and once at the end. 0 when the
 * file was read to its end or take stopped it, -1 when it cannot be opened or a read fails. The
 * caller's errno is kept. For start-up code, which runs after relocation; before it the
 * auxiliary vector has its own reader (src/arch/auxv.c), below this layer.
 */
int fr_file_read(const char *path, char *buf, size_t size, fr_file_take_fn take, void *ctx);

/*
 * The first len - 1 bytes of a small file into buf, NUL-terminated (len > 0): 0, or -1 when it
 * cannot be opened or holds nothing that was read. The caller's errno is kept.
 */
int fr_file_read_small(const char *path, char *buf, size_t len);

#pragma GCC visibility pop

#endif
