/* SPDX-License-Identifier: MIT */
/* Finding the program to run as execvp would, and deciding whether the loader can preload into it. */
#ifndef LAUNCHER_TARGET_H
#define LAUNCHER_TARGET_H

#include <stddef.h>

/* Exit statuses, as shells and env(1) use them. */
#define LAUNCHER_EXIT_CANNOT_RUN 126
#define LAUNCHER_EXIT_NOT_FOUND 127

/*
 * Resolves prog: as given when it contains a '/', else the first executable regular file of
 * that name along PATH (an empty entry is the current directory; without PATH, /bin:/usr/bin).
 * Returns 0 with the path in out, or LAUNCHER_EXIT_NOT_FOUND / LAUNCHER_EXIT_CANNOT_RUN with
 * the reason in why.
 */
int launcher_resolve(const char *prog, char *out, size_t outlen, char *why, size_t whylen);

/*
 * Accepts a dynamically linked ELF program of this architecture (TOOL_ELF_MACHINE) that is
 * not set-user-ID, set-group-ID or file-capable, and a #! script whose interpreter (followed
 * up to 4 levels) is accepted. Only regular files are opened: a FIFO or a device is refused
 * unopened (launcher/launcher_file.h).
 * Returns 0, or LAUNCHER_EXIT_CANNOT_RUN with the reason in why. A program (or interpreter)
 * that may be executed but not read is accepted unless its mode or capabilities refuse it:
 * then *unread is 1 and why says which file could not be read, as whether it is dynamically
 * linked is unknown.
 */
int launcher_check(const char *path, int *unread, char *why, size_t whylen);

#endif
