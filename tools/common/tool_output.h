/* SPDX-License-Identifier: MIT */
/* Lost output is a failure: every tool exits non-zero, with a message, when its standard output could not be written. */
#ifndef FR_TOOL_OUTPUT_H
#define FR_TOOL_OUTPUT_H

/*
 * Called first in main. At exit (return from main or exit(), from any path, --help included)
 * stdout is flushed and closed; if any write to it failed (closed with >&-, /dev/full, a pipe
 * whose reader is gone), "PROG: cannot write to standard output: REASON" goes to stderr and the
 * process ends with _exit(status) instead of the status it was leaving with. _exit skips the
 * remaining exit handlers and shared-library destructors: nothing is written after a failure
 * of stdout anyway. A stdout that was closed but never written to is not a failure.
 *
 * SIGPIPE: where it has its default action, a handler that does nothing is installed, so that
 * a write to a dead pipe fails with EPIPE and is reported here instead of killing the tool
 * without a word. A handler, unlike SIG_IGN, is reset by execve: programs the tools run get
 * the disposition the tool itself was started with. An inherited SIG_IGN is left as it is.
 */
void tool_output_init(const char *prog, int status);

/*
 * fflush(stdout), remembering why the first failed write failed for the message at exit.
 * Returns 0, or -1 once any write to stdout has failed: a tool with more to compute may stop.
 */
int tool_output_flush(void);

#endif
