/* SPDX-License-Identifier: MIT */
/* Probe: after main installs a seccomp filter that traps nearly every system call, getauxval, dlsym and clock_gettime still work and make none it traps. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "cpu_test.h"
#include "arch/arch.h"
#include "elfwalk.h"
#include "probe.h"

/* System calls the filter traps; the first one's number is kept. */
static volatile sig_atomic_t trapped;
static volatile long first_nr = -1;

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	if (trapped++ == 0)
		first_nr = si->si_syscall;
	/* The trapped call did not run: it returns ENOSYS, and the program goes on to report. */
	FRT_UC_SET_RET(uc, -ENOSYS);
}

/*
 * Allowed: writing the report, leaving, returning from the handler, the clock system call (the
 * vDSO's own fallback, and the probe's bracket) and futex (a contended libc lock). Everything
 * else, openat, read, mprotect and getpid among them, traps.
 */
#define PROBE_AUDIT_ARCH FRT_AUDIT_ARCH

static int install_filter(int deny_futex)
{
	static const long allowed[] = { SYS_write, SYS_exit_group, SYS_exit, SYS_rt_sigreturn, SYS_clock_gettime, FRT_SYS_CLOCK_GETTIME,
					SYS_futex };
	struct sock_filter f[4 + 2 + 2 * (sizeof(allowed) / sizeof(allowed[0])) + 1];
	struct sock_fprog prog;
	unsigned n = 0;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROBE_AUDIT_ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* A stricter sandbox: futex refused with an error, as filters that deny a call without a signal do. */
	if (deny_futex) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	}
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)allowed[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static char out[4096];
static size_t used;

/* The report goes into a static buffer, written once at the end: stdio would allocate. */
static void put(const char *key, long long value)
{
	int n = snprintf(out + used, sizeof(out) - used, "%s=%lld\n", key, value);

	if (n > 0 && (size_t)n < sizeof(out) - used)
		used += (size_t)n;
}

/* Whether fn(clk) lies between two kernel reads, five times in a row. */
static int in_bracket(e2e_clock_fn fn, clockid_t clk)
{
	struct e2e_tally t;

	memset(&t, 0, sizeof(t));
	for (int i = 0; i < 5; i++)
		e2e_bracket(&t, fn, clk);
	return t.samples == 5 && t.violations == 0;
}

/* The vDSO's convention (0 or -errno) as libc's, so that e2e_bracket can call it. */
static int (*shadow_fn)(clockid_t, struct timespec *);

static int call_shadow(clockid_t clk, struct timespec *ts)
{
	int r = shadow_fn(clk, ts);

	return r == 0 ? 0 : -1;
}

/* argv[1] "deny-futex": the filter refuses futex too (EPERM). */
int main(int argc, char **argv)
{
	struct sigaction sa;
	struct elfwalk w;
	const char *why = NULL;
	unsigned long kernel, ehdr;
	void *vdso, *p_default, *p_next, *p_vdso;
	struct timespec ts;

	kernel = e2e_kernel_ehdr();
	/* Loaded before the filter: dlopen of an object already there still takes the loader's paths. */
	vdso = dlopen("linux-vdso.so.1", RTLD_NOW | RTLD_NOLOAD);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (kernel == 0 || sigaction(SIGSYS, &sa, NULL) != 0 ||
	    install_filter(argc > 1 && strcmp(argv[1], "deny-futex") == 0) != 0) {
		printf("error=setup failed (auxv %lx, errno %d)\n", kernel, errno);
		return 2;
	}
	/* From here on: the library's first getauxval, its first clock-name lookups, the clock reads. */
	ehdr = getauxval(AT_SYSINFO_EHDR);
	p_default = dlsym(RTLD_DEFAULT, "clock_gettime");
	p_next = dlsym(RTLD_NEXT, "clock_gettime");
	p_vdso = vdso ? dlsym(vdso, FR_ARCH_VDSO_CLOCK_GETTIME) : NULL;
	put("raw_ok", in_bracket(clock_gettime, CLOCK_MONOTONIC_RAW));
	put("mono_ok", in_bracket(clock_gettime, CLOCK_MONOTONIC));
	put("dlsym_default_ok", p_default && in_bracket((e2e_clock_fn)p_default, CLOCK_MONOTONIC_RAW));
	put("dlsym_next_ok", p_next && in_bracket((e2e_clock_fn)p_next, CLOCK_MONOTONIC_RAW));
	if (p_vdso) {
		shadow_fn = (int (*)(clockid_t, struct timespec *))p_vdso;
		put("dlsym_vdso_ok", in_bracket(call_shadow, CLOCK_MONOTONIC_RAW));
	}
	/* The image getauxval gives: a valid ELF whose clock_gettime answers RAW in the bracket. */
	shadow_fn = NULL;
	if (ehdr && elfwalk_open((const void *)ehdr, &w, &why) == 0)
		/* DT_GNU_HASH where the image has one (x86-64's); arm64's vDSO has DT_HASH alone. */
		shadow_fn = (int (*)(clockid_t, struct timespec *))elfwalk_sym(&w, w.gnu != NULL, FR_ARCH_VDSO_CLOCK_GETTIME,
										     FR_ARCH_VDSO_VERSION);
	put("ehdr_nonzero", ehdr != 0);
	put("ehdr_is_kernel", ehdr == kernel);
	put("ehdr_same_header", ehdr && memcmp((const void *)ehdr, (const void *)kernel, sizeof(Elf64_Ehdr)) == 0);
	put("ehdr_clock_ok", shadow_fn && in_bracket(call_shadow, CLOCK_MONOTONIC_RAW) &&
				     in_bracket(call_shadow, CLOCK_MONOTONIC));
	put("second_ehdr_same", getauxval(AT_SYSINFO_EHDR) == ehdr);
	put("errno_kept", (errno = 1234, getauxval(AT_SYSINFO_EHDR), errno == 1234));
	put("raw_after_ok", clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0 && in_bracket(clock_gettime, CLOCK_MONOTONIC_RAW));
	put("trapped", trapped);
	put("first_trapped_nr", first_nr);
	return write(1, out, used) == (ssize_t)used ? 0 : 3;
}
