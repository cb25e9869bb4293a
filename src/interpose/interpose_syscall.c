/* SPDX-License-Identifier: MIT */
/* The exported syscall(): every call on to the next syscall() in the chain, RAW clock_gettime on the fast path only when asked for. */
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime/runtime.h"
#include "sys/nextsym.h"

#define FR_STR2(x) #x
#define FR_STR(x) FR_STR2(x)

/*
 * Whether the fast path may write a timespec at p without faulting where the kernel would not:
 * p lies above the lowest page user space may map (vm.mmap_min_addr's usual 64 KiB), below the
 * end of the 47-bit user half, and the 16 bytes do not cross a page boundary. Anything else
 * (NULL, 0x1, a kernel or non-canonical address, a store straddling into the next page) goes
 * to the kernel, which answers EFAULT or writes it: one compare-and-branch, never a system call.
 * A mapped but unwritable page (read-only, PROT_NONE) cannot be told without one; that hazard
 * is why the fast path here is opt-in (FASTRAW_SYSCALL=1), as README explains.
 */
static inline int fast_target(long p)
{
	const uintptr_t lo = 0x10000, hi = 0x7ffffffff000 - sizeof(struct timespec);
	uintptr_t u = (uintptr_t)p;

	return u - lo <= hi - lo && (u & 4095) <= 4096 - sizeof(struct timespec);
}

/* Called only from the assembly stub below. */
void *fr_syscall_next(void);
long fr_syscall_raw(long nr, long clk, long p);

static __attribute__((used)) void *next_syscall_cache;

/* The next syscall() in the chain (a later interposer's, else libc's), resolved on first use. */
__attribute__((used)) void *fr_syscall_next(void)
{
	return fr_next_cached(&next_syscall_cache, "syscall");
}

/*
 * syscall(SYS_clock_gettime, CLOCK_MONOTONIC_RAW, p, ...): the fast path when FASTRAW_SYSCALL=1
 * and p is a plausible target, else the next syscall(). Reached by a jump from the stub below
 * with the caller's registers; only the first three arguments mean anything to this system call.
 */
__attribute__((used)) long fr_syscall_raw(long nr, long clk, long p)
{
	long (*next)(long, ...);

	if (fast_target(p) && fr_syscall_serves_raw())
		return __atomic_load_n(&fr_raw, __ATOMIC_ACQUIRE)((struct timespec *)p);
	next = (long (*)(long, ...))fr_syscall_next();
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	return next(nr, clk, p);
}

/*
 * The exported syscall(). Every call but RAW clock_gettime jumps on to the next syscall() in the
 * chain with all registers as the caller left them (the six argument registers, %al for a
 * variadic call, the seventh argument on the stack), so that a later interposer, and in the end
 * libc, sees exactly the call it would see without us: the kernel's own contract (EFAULT for a
 * bad pointer, the system call itself for programs that test it). The kernel takes the clock id
 * as an int: the same truncation. Only %r11, which no call preserves or passes, is used.
 *
 * Hazard, shared with libc's: a syscall(SYS_vfork) child returns through its caller's frame;
 * no frame of ours is in the way, so this adds none.
 */
__asm__(".text\n"
	".globl syscall\n"
	".type syscall, @function\n"
	"syscall:\n"
	".cfi_startproc\n"
	"endbr64\n"
	"cmp $" FR_STR(SYS_clock_gettime) ", %rdi\n"
	"jne 1f\n"
	"cmp $" FR_STR(CLOCK_MONOTONIC_RAW) ", %esi\n"
	"je fr_syscall_raw\n"
	"1:\n"
	"mov next_syscall_cache(%rip), %r11\n"
	"test %r11, %r11\n"
	"jz 2f\n"
	"jmp *%r11\n"
	"2:\n"
	"push %rdi\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %rsi\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %rdx\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %rcx\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %r8\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %r9\n"
	".cfi_adjust_cfa_offset 8\n"
	"push %rax\n"
	".cfi_adjust_cfa_offset 8\n"
	"call fr_syscall_next\n"
	"mov %rax, %r11\n"
	"pop %rax\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %r9\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %r8\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rcx\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rdx\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rsi\n"
	".cfi_adjust_cfa_offset -8\n"
	"pop %rdi\n"
	".cfi_adjust_cfa_offset -8\n"
	"test %r11, %r11\n"
	"jz 3f\n"
	"jmp *%r11\n"
	"3:\n"
	"mov $-1, %rax\n"
	"ret\n"
	".cfi_endproc\n"
	".size syscall, .-syscall\n");
