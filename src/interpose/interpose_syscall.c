/* SPDX-License-Identifier: MIT */
/* The exported syscall(): every call on to the next syscall() in the chain, RAW clock_gettime on the fast path only when asked for. */
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>

#include "interpose/prime.h"
#include "startup/runtime.h"
#include "elf/early.h"
#include "arch/arch.h"
#include "elf/nextsym.h"

#define FR_STR2(x) #x
#define FR_STR(x) FR_STR2(x)

/* What the stub reads for FASTRAW_SYSCALL, once fr_syscall_serves_raw has answered. */
#define RAW_MODE_UNKNOWN 0
#define RAW_MODE_OFF 1
#define RAW_MODE_ON 2

/* Called only from the assembly stub below. */
void *fr_syscall_next(void);
int fr_syscall_mode_read(void);
long fr_syscall_raw(long nr, long clk, struct timespec *p);
long fr_syscall_none(long nr, long a, long b, long c, long d, long e, long f);

static __attribute__((used)) void *next_syscall_cache;
static __attribute__((used)) int raw_mode = RAW_MODE_UNKNOWN;

/* The next syscall() in the chain (a later interposer's, else libc's), resolved on first use. */
__attribute__((used)) void *fr_syscall_next(void)
{
	return fr_next_cached(&next_syscall_cache, "syscall");
}

/*
 * FASTRAW_SYSCALL as the runtime reads it (it never changes once read): racers store the same.
 * Returns 0 when it cannot be read yet (before relocation the environment is out of reach):
 * this call then goes on to the next syscall() and the mode stays unknown.
 */
__attribute__((used)) int fr_syscall_mode_read(void)
{
	if (!fr_relocated())
		return 0;
	__atomic_store_n(&raw_mode, fr_syscall_serves_raw() ? RAW_MODE_ON : RAW_MODE_OFF, __ATOMIC_RELAXED);
	return 1;
}

/* RAW on the fast path, p already known writable (see the stub). In libc's convention, as syscall(). */
__attribute__((used)) long fr_syscall_raw(long nr, long clk, struct timespec *p)
{
	(void)nr;
	(void)clk;
	return fr_raw_call(p);
}

/*
 * No syscall() after ours, not even libc's: the system call itself, in libc's convention (before
 * relocation -1 without errno, which is out of reach then). Reached by a jump with the caller's
 * registers and stack: the seventh argument is the caller's stack word.
 */
__attribute__((used)) long fr_syscall_none(long nr, long a, long b, long c, long d, long e, long f)
{
	long ret = fr_sys6(nr, a, b, c, d, e, f);

	if ((unsigned long)ret < -4095UL)
		return ret;
	if (fr_relocated())
		errno = (int)-ret;
	return -1;
}

void fr_syscall_prime(void)
{
	fr_syscall_next();
	if (__atomic_load_n(&raw_mode, __ATOMIC_RELAXED) == RAW_MODE_UNKNOWN)
		fr_syscall_mode_read();
}

/*
 * The caller's registers around a call into C from the stub: the six argument registers and
 * %rax (%al counts the vector registers of a variadic call). Seven pushes from the entry's
 * %rsp = 8 mod 16 leave the stack 16-byte aligned for the call.
 */
#define SAVE_ARGS                                                                   \
	"push %rdi\n.cfi_adjust_cfa_offset 8\npush %rsi\n.cfi_adjust_cfa_offset 8\n" \
	"push %rdx\n.cfi_adjust_cfa_offset 8\npush %rcx\n.cfi_adjust_cfa_offset 8\n" \
	"push %r8\n.cfi_adjust_cfa_offset 8\npush %r9\n.cfi_adjust_cfa_offset 8\n"   \
	"push %rax\n.cfi_adjust_cfa_offset 8\n"
#define RESTORE_ARGS                                                                 \
	"pop %rax\n.cfi_adjust_cfa_offset -8\npop %r9\n.cfi_adjust_cfa_offset -8\n"   \
	"pop %r8\n.cfi_adjust_cfa_offset -8\npop %rcx\n.cfi_adjust_cfa_offset -8\n"   \
	"pop %rdx\n.cfi_adjust_cfa_offset -8\npop %rsi\n.cfi_adjust_cfa_offset -8\n"  \
	"pop %rdi\n.cfi_adjust_cfa_offset -8\n"

/*
 * The exported syscall(). Every call but a served RAW clock_gettime jumps on to the next
 * syscall() in the chain with all registers as the caller left them (the six argument
 * registers, %rax and %al for a variadic call, the seventh argument on the stack), so that a
 * later interposer, and in the end libc, sees exactly the call it would see without us: the
 * kernel's own contract (EFAULT for a bad pointer, the system call itself for programs that
 * test it). The decision is made here, before any C code runs; C is reached either to answer
 * (fr_syscall_raw, fr_syscall_none) or between SAVE_ARGS and RESTORE_ARGS. Only %r11, which no
 * call preserves or passes, is used otherwise. The kernel takes the clock id as an int: the
 * same truncation.
 *
 * RAW is served in-process only with FASTRAW_SYSCALL=1 and when the 16 bytes at p lie above
 * the return address and inside its page: the caller's call instruction has just stored there,
 * so that page is mapped and writable for this thread now, and the store cannot fault where
 * the kernel would answer EFAULT. Any other pointer (the heap, static data, another stack page,
 * and every bad one: unmapped, read-only, PROT_NONE, NULL, kernel) goes to the kernel. Telling
 * a writable page without a fault needs a system call, which costs what the kernel's own
 * clock_gettime does; a cache of pages once found writable would fault after munmap or
 * mprotect, and a SIGSEGV handler would change the host. The cost: a timespec on the heap, in
 * static data or across a page boundary from the return address gets the kernel's speed; the
 * stack's offset in its page is random, so a local d bytes above the return address misses in
 * about (d + 16) in 4096 runs.
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
	"0:\n"
	"cmp $" FR_STR(SYS_clock_gettime) ", %rdi\n"
	"jne 1f\n"
	"cmp $" FR_STR(CLOCK_MONOTONIC_RAW) ", %esi\n"
	"jne 1f\n"
	"mov raw_mode(%rip), %r11d\n"
	"cmp $" FR_STR(RAW_MODE_OFF) ", %r11d\n"
	"je 1f\n"
	"jb 3f\n"
	/* p >= %rsp + 8 and p + 16 <= the end of %rsp's page, unsigned. */
	"lea 8(%rsp), %r11\n"
	"cmp %r11, %rdx\n"
	"jb 1f\n"
	"mov %rsp, %r11\n"
	"or $4095, %r11\n"
	"sub $15, %r11\n"
	"cmp %r11, %rdx\n"
	"ja 1f\n"
	"jmp fr_syscall_raw\n"
	"1:\n"
	"mov next_syscall_cache(%rip), %r11\n"
	"test %r11, %r11\n"
	"jz 2f\n"
	"jmp *%r11\n"
	"2:\n" SAVE_ARGS "call fr_syscall_next\n"
	"mov %rax, %r11\n" RESTORE_ARGS "test %r11, %r11\n"
	"jz fr_syscall_none\n"
	"jmp *%r11\n"
	"3:\n" SAVE_ARGS "call fr_syscall_mode_read\n"
	"mov %eax, %r11d\n" RESTORE_ARGS "test %r11d, %r11d\n"
	"jz 1b\n"
	"jmp 0b\n"
	".cfi_endproc\n"
	".size syscall, .-syscall\n");
