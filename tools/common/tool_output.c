/* SPDX-License-Identifier: MIT */
/* Checks at exit that everything written to stdout arrived, and turns a dead pipe into an error instead of a silent SIGPIPE. */
#define _GNU_SOURCE
#include "common/tool_output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *out_prog = "fastraw";
static int out_status = EXIT_FAILURE;
/* Why a write first failed, as far as it is known: 0 when no failure was seen with its errno. */
static int out_errno;
static volatile sig_atomic_t out_sigpipe;

static void on_sigpipe(int sig)
{
	(void)sig;
	out_sigpipe = 1;
}

int tool_output_flush(void)
{
	errno = 0;
	if (fflush(stdout) != 0 && !out_errno)
		out_errno = errno;
	return ferror(stdout) ? -1 : 0;
}

static void check_at_exit(void)
{
	int pending = __fpending(stdout) != 0, failed = ferror(stdout), err;

	errno = 0;
	if (fclose(stdout) != 0) {
		err = errno;
		/* Closed by the caller (>&-) and never written to: nothing was lost. */
		if (!failed && !pending && err == EBADF)
			return;
		failed = 1;
		if (!out_errno)
			out_errno = err;
	}
	if (!failed)
		return;
	/* A write that failed inside stdio leaves no errno behind; a dead pipe is known by its signal. */
	if (!out_errno && out_sigpipe)
		out_errno = EPIPE;
	fprintf(stderr, "%s: cannot write to standard output%s%s\n", out_prog, out_errno ? ": " : "",
		out_errno ? strerror(out_errno) : "");
	_exit(out_status);
}

void tool_output_init(const char *prog, int status)
{
	struct sigaction sa, old;

	out_prog = prog;
	out_status = status;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigpipe;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		sigaction(SIGPIPE, &sa, NULL);
	atexit(check_at_exit);
}
