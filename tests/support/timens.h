/* SPDX-License-Identifier: MIT */
/* Moves the caller's future children into a new time namespace with a CLOCK_MONOTONIC offset. */
#ifndef FR_TEST_TIMENS_H
#define FR_TEST_TIMENS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

/* 0, or the errno of the step that failed. Offsets are relative to the host, not the caller. */
static inline int fr_test_enter_timens(long mono_sec)
{
	char line[64];
	int fd, len, err = 0;

	if (unshare(CLONE_NEWTIME) != 0)
		return errno;
	len = snprintf(line, sizeof(line), "monotonic %ld 0\n", mono_sec);
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	errno = 0;
	if (write(fd, line, (size_t)len) != len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

#endif
