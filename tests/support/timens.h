/* SPDX-License-Identifier: MIT */
/* Time namespaces: the caller's future children moved into a new one with a CLOCK_MONOTONIC offset, and the offset read back. */
#ifndef FR_TEST_TIMENS_H
#define FR_TEST_TIMENS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080 /* Linux 5.6's; older C libraries' headers lack it */
#endif

/*
 * Sets the CLOCK_MONOTONIC offset of the time namespace the caller's children will enter (after
 * unshare(CLONE_NEWTIME), before the first child): whole seconds and nanoseconds in [0, 1e9),
 * relative to the host. 0, or the errno of the step that failed.
 */
static inline int fr_test_set_timens_offset(long long sec, long long nsec)
{
	char line[64];
	int fd, len, err = 0;

	len = snprintf(line, sizeof(line), "monotonic %lld %lld\n", sec, nsec);
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	errno = 0;
	if (write(fd, line, (size_t)len) != len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* 0, or the errno of the step that failed. Offsets are relative to the host, not the caller. */
static inline int fr_test_enter_timens(long mono_sec)
{
	if (unshare(CLONE_NEWTIME) != 0)
		return errno;
	return fr_test_set_timens_offset(mono_sec, 0);
}

/* This process's CLOCK_MONOTONIC offset in ns: 0 outside a namespace, or without the file (a kernel without them). */
static inline int64_t fr_test_timens_offset_ns(void)
{
	char line[128];
	long long sec = 0, nsec = 0;
	FILE *f = fopen("/proc/self/timens_offsets", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "monotonic %lld %lld", &sec, &nsec) == 2)
			break;
	if (f)
		fclose(f);
	return (int64_t)sec * 1000000000LL + nsec;
}

#endif
