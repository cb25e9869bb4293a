/* SPDX-License-Identifier: MIT */
/* A probe's seccomp filter that answers one system call of this CPU's ABI with an action of its choosing and allows everything else. */
#ifndef FR_E2E_SECCOMP_ONE_H
#define FR_E2E_SECCOMP_ONE_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>

#include "cpu_test.h"

/*
 * From here on, for this thread and the ones it starts, system call nr gets `action`
 * (SECCOMP_RET_TRAP, SECCOMP_RET_ERRNO | e ...); calls of another ABI are allowed. 0, or -1 where
 * the kernel takes no filter.
 */
static inline int e2e_seccomp_one(long nr, uint32_t action)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FRT_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = (unsigned short)(sizeof(f) / sizeof(f[0])), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0 ? 0 : -1;
}

#endif
