/* SPDX-License-Identifier: MIT */
/* The right to publish start-up's decisions: a compare-and-swap, by process id or by no identity at all. */
#include "startup/claim.h"

#include <sys/types.h>

#include "base/sys.h"

static pid_t claimed; /* by process id: the process whose initialiser publishes; 0 before */
static int held;      /* without a system call: 1 once claimed */
static int quiet;     /* claims ask the kernel nothing (fr_claim_quietly) */

int fr_claim(void)
{
	pid_t self, seen = 0;
	int free_word = 0;

	if (__atomic_load_n(&quiet, __ATOMIC_ACQUIRE))
		return __atomic_compare_exchange_n(&held, &free_word, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	self = fr_sys_getpid();
	while (!__atomic_compare_exchange_n(&claimed, &seen, self, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		if (seen == self)
			return 0;
	}
	return 1;
}

int fr_claim_quietly(void)
{
	if (__atomic_load_n(&claimed, __ATOMIC_ACQUIRE) != 0)
		return 0;
	__atomic_store_n(&quiet, 1, __ATOMIC_RELEASE);
	return 1;
}
