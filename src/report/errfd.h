/* SPDX-License-Identifier: MIT */
/* Where the library's lines may go: the stderr the process started with, and nowhere else. */
#ifndef FR_ERRFD_H
#define FR_ERRFD_H

/* Hidden declarations: direct calls, usable before relocation (base/hidden.h). */
#pragma GCC visibility push(hidden)

/*
 * Notes which file fd 2 is, once per process (later calls change nothing), before the first
 * line is written. at_start: the library was loaded with the program, so fd 2 now is the
 * stderr the process started with (none if it is closed). Otherwise (dlopen'd after start-up)
 * that stderr is unknown, and the program may have put a data file, a pipe or a socket on
 * fd 2 since: fd 2 is noted only if it is a terminal, where a person reads.
 */
void fr_errfd_note(int at_start);

/* Whether fd 2 is the file noted: a line may be written. Never, before a note or without one. */
int fr_errfd_unchanged(void);

#pragma GCC visibility pop

#endif
