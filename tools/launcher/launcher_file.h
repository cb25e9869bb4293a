/* SPDX-License-Identifier: MIT */
/* Opening the files the launcher reads (the library, programs, #! interpreters) without ever blocking. */
#ifndef LAUNCHER_FILE_H
#define LAUNCHER_FILE_H

#include <limits.h>
#include <sys/stat.h>

/* launcher_open_regular's answer for a file that exists but is not a regular file. */
#define LAUNCHER_NOT_REGULAR INT_MIN

/*
 * Opens path read-only for reading its headers. Only a regular file is opened for good: a
 * FIFO would block open() until a writer came, a device may act on being opened. The type is
 * checked before opening, so such files are never opened, and again on the descriptor, so a
 * file swapped in between is caught too; the open itself cannot block (O_NONBLOCK).
 * Returns the descriptor (close-on-exec) with *st filled; -errno when the file cannot be
 * looked at or opened; or LAUNCHER_NOT_REGULAR with *st holding the file's type.
 */
int launcher_open_regular(const char *path, struct stat *st);

/* What a file of this type is, for messages: "a directory", "a FIFO", "a socket", ... */
const char *launcher_file_kind(mode_t mode);

#endif
