/* SPDX-License-Identifier: MIT */
/* Builds the patched vDSO copy: finds the live pages, copies them, patches counter reads to traps and serves the traps. */
#define _GNU_SOURCE
#include "vcopy.h"

#include <elf.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <ucontext.h>

#include "kernel/kdata.h"
#include "ksys.h"
#include "sys/vdso_elf.h"

#define VC_PAGES (VC_VVAR_PAGES + VC_VCLOCK_PAGES + VC_VDSO_PAGES)
#define VC_RNG_PAGE 2u /* [vvar] page 2 (vdso_rng_data) is readable; pages 1 and 3 raise SIGBUS */

/* A "do { v -= 1e9; n++; } while (v > 999999999)" loop: its trap applies the closed form. */
struct carry_site {
	uintptr_t at, resume;
	int val_reg, cnt_reg; /* x86 register numbers; the counter is a 32-bit register */
	uint8_t orig[2];
};

/* State the SIGILL handler reads and writes: one copy at a time, used from one thread. */
static struct {
	int n_rdtsc, n_syscall, n_carry;
	uintptr_t rdtsc_at[VC_MAX_SITES], syscall_at[VC_MAX_SITES];
	struct carry_site carry[VC_MAX_SITES];
	volatile uint64_t tsc;
	volatile unsigned rdtsc_traps, carry_traps, syscalls;
	volatile int rdtsc_site;
	struct sigaction old;
} hs;

/* gregs index of each x86 register number. */
static const int greg_of[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

static void on_sigill(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	uintptr_t rip = (uintptr_t)g[REG_RIP];

	(void)sig;
	(void)si;
	for (int i = 0; i < hs.n_rdtsc; i++) {
		if (rip == hs.rdtsc_at[i]) {
			/* rdtsc: EDX:EAX, each zero-extended to 64 bits. */
			g[REG_RAX] = (greg_t)(uint32_t)hs.tsc;
			g[REG_RDX] = (greg_t)(uint32_t)(hs.tsc >> 32);
			g[REG_RIP] += 2;
			hs.rdtsc_traps++;
			hs.rdtsc_site = i;
			return;
		}
	}
	for (int i = 0; i < hs.n_syscall; i++) {
		if (rip == hs.syscall_at[i]) {
			/* The pattern fixed rax = SYS_clock_gettime; syscall clobbers rcx and r11. */
			g[REG_RAX] = (greg_t)k_clock_gettime((clockid_t)g[REG_RDI], (struct timespec *)g[REG_RSI]);
			g[REG_RCX] = (greg_t)(rip + 2);
			g[REG_R11] = g[REG_EFL];
			g[REG_RIP] += 2;
			hs.syscalls++;
			return;
		}
	}
	for (int i = 0; i < hs.n_carry; i++) {
		const struct carry_site *c = &hs.carry[i];

		if (rip == c->at) {
			uint64_t v = (uint64_t)g[greg_of[c->val_reg]], n = 1;

			/*
			 * The first pass is unconditional (do-while); the counter is a 32-bit register.
			 * The final cmp's flags are not reproduced: the code after these loops writes
			 * the flags before reading them (carry_closed_form checks against native runs).
			 */
			v -= FR_NSEC_PER_SEC;
			if (v >= FR_NSEC_PER_SEC) {
				n += v / FR_NSEC_PER_SEC;
				v %= FR_NSEC_PER_SEC;
			}
			g[greg_of[c->val_reg]] = (greg_t)v;
			g[greg_of[c->cnt_reg]] = (greg_t)(uint32_t)((uint64_t)g[greg_of[c->cnt_reg]] + n);
			g[REG_RIP] = (greg_t)c->resume;
			hs.carry_traps++;
			return;
		}
	}
	/* Not ours: let the fault happen again, unhandled. */
	signal(SIGILL, SIG_DFL);
}

static int imm32_is(const uint8_t *p, uint32_t v)
{
	uint32_t x;

	memcpy(&x, p, 4);
	return x == v;
}

/* Matches the carry loop at t[i]: sub $1e9,%r64; add $1,%r32 (or inc); cmp $999999999,%r64; ja back. */
static int match_carry(const uint8_t *t, size_t i, size_t end, struct carry_site *cs)
{
	size_t p = i;
	int r, c, b = 0;

	if (p + 6 <= end && t[p] == 0x48 && t[p + 1] == 0x2d && imm32_is(t + p + 2, 1000000000u)) {
		r = 0;
		p += 6;
	} else if (p + 7 <= end && (t[p] & 0xfe) == 0x48 && t[p + 1] == 0x81 && (t[p + 2] & 0xf8) == 0xe8 &&
		   imm32_is(t + p + 3, 1000000000u)) {
		r = (t[p + 2] & 7) | (t[p] & 1) << 3;
		p += 7;
	} else {
		return 0;
	}
	if (p < end && t[p] == 0x41) {
		b = 8;
		p++;
	}
	if (p + 3 <= end && t[p] == 0x83 && (t[p + 1] & 0xf8) == 0xc0 && t[p + 2] == 1) {
		c = (t[p + 1] & 7) | b;
		p += 3;
	} else if (p + 2 <= end && t[p] == 0xff && (t[p + 1] & 0xf8) == 0xc0) {
		c = (t[p + 1] & 7) | b;
		p += 2;
	} else {
		return 0;
	}
	if (r == 0 && p + 6 <= end && t[p] == 0x48 && t[p + 1] == 0x3d && imm32_is(t + p + 2, 999999999u)) {
		p += 6;
	} else if (p + 7 <= end && t[p] == (0x48 | (r >> 3)) && t[p + 1] == 0x81 && t[p + 2] == (0xf8 | (r & 7)) &&
		   imm32_is(t + p + 3, 999999999u)) {
		p += 7;
	} else {
		return 0;
	}
	if (p + 2 > end || t[p] != 0x77 || (intptr_t)(p + 2) + (int8_t)t[p + 1] != (intptr_t)i)
		return 0;
	if (c == r || c == 4)
		return 0;
	cs->resume = p + 2;
	cs->val_reg = r;
	cs->cnt_reg = c;
	return 1;
}

/* The [lo, hi) file range of .text in the vDSO image (which is mapped exactly as its file). */
static int text_range(const uint8_t *img, size_t size, size_t *lo, size_t *hi)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh, *names;

	if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
		return -1;
	sh = (const void *)(img + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	for (int i = 0; i < eh->e_shnum; i++) {
		size_t name = names->sh_offset + sh[i].sh_name;

		if (name + 6 > size || memcmp(img + name, ".text", 6) != 0)
			continue;
		if (sh[i].sh_offset + sh[i].sh_size > size)
			return -1;
		*lo = sh[i].sh_offset;
		*hi = sh[i].sh_offset + sh[i].sh_size;
		return 0;
	}
	return -1;
}

static const uint8_t LFENCE_RDTSC[] = { 0x0f, 0xae, 0xe8, 0x0f, 0x31 };
static const uint8_t CLOCK_GETTIME_SYSCALL[] = { 0xb8, SYS_clock_gettime, 0, 0, 0, 0x0f, 0x05 };

/* Records the trap sites in the copy's .text and patches rdtsc and syscall into ud2. */
static const char *find_sites(struct vcopy *vc)
{
	uint8_t *t = vc->text;
	size_t lo, hi;

	if (text_range(t, VC_VDSO_PAGES * VC_PAGE, &lo, &hi) != 0)
		return "no .text section header in the vDSO image";
	for (size_t i = lo; i < hi; i++) {
		struct carry_site cs;

		if (i + sizeof(LFENCE_RDTSC) <= hi && !memcmp(t + i, LFENCE_RDTSC, sizeof(LFENCE_RDTSC)) &&
		    hs.n_rdtsc < VC_MAX_SITES)
			hs.rdtsc_at[hs.n_rdtsc++] = (uintptr_t)t + i + 3;
		if (i + sizeof(CLOCK_GETTIME_SYSCALL) <= hi &&
		    !memcmp(t + i, CLOCK_GETTIME_SYSCALL, sizeof(CLOCK_GETTIME_SYSCALL)) && hs.n_syscall < VC_MAX_SITES)
			hs.syscall_at[hs.n_syscall++] = (uintptr_t)t + i + 5;
		if (hs.n_carry < VC_MAX_SITES && match_carry(t, i, hi, &cs)) {
			cs.at = (uintptr_t)t + i;
			cs.resume += (uintptr_t)t;
			memcpy(cs.orig, t + i, 2);
			hs.carry[hs.n_carry++] = cs;
		}
	}
	if (hs.n_rdtsc == 0)
		return "no lfence;rdtsc in the vDSO text (rdtscp or another counter read?)";
	if (hs.n_syscall == 0)
		return "no clock_gettime fallback system call found in the vDSO text";
	for (int i = 0; i < hs.n_rdtsc; i++)
		memcpy((uint8_t *)hs.rdtsc_at[i], "\x0f\x0b", 2);
	for (int i = 0; i < hs.n_syscall; i++)
		memcpy((uint8_t *)hs.syscall_at[i], "\x0f\x0b", 2);
	vc->n_rdtsc = hs.n_rdtsc;
	memcpy(vc->rdtsc_at, hs.rdtsc_at, sizeof(vc->rdtsc_at));
	vc->n_carry = hs.n_carry;
	vc->n_syscall = hs.n_syscall;
	return NULL;
}

/* The three special mappings, checked for the 6.17+ arrangement. */
static const char *find_live(uintptr_t *vvar)
{
	uintptr_t lo[3] = { 0 }, hi[3] = { 0 };
	static const char *const names[3] = { "[vvar]", "[vvar_vclock]", "[vdso]" };
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return "/proc/self/maps unreadable";
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;
		char name[64];

		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %63s", &a, &b, name) != 3)
			continue;
		for (int i = 0; i < 3; i++) {
			if (!strcmp(name, names[i])) {
				lo[i] = a;
				hi[i] = b;
			}
		}
	}
	fclose(f);
	if (!lo[0] || !lo[1] || !lo[2])
		return "no [vvar], [vvar_vclock] or [vdso] mapping";
	if (hi[0] - lo[0] != VC_VVAR_PAGES * VC_PAGE || hi[1] - lo[1] != VC_VCLOCK_PAGES * VC_PAGE ||
	    hi[2] - lo[2] != VC_VDSO_PAGES * VC_PAGE || hi[0] != lo[1] || hi[1] != lo[2])
		return "[vvar]/[vvar_vclock]/[vdso] sizes or order differ from 4+2+2 contiguous pages";
	*vvar = lo[0];
	return NULL;
}

/* Copies one page of a seqcount-protected area, retrying until the count was even and unchanged. */
static int copy_stable(uint8_t *dst, const volatile uint8_t *src, size_t seq_off)
{
	for (int tries = 0; tries < 1000; tries++) {
		uint32_t s1 = *(const volatile uint32_t *)(src + seq_off), s2;

		if (s1 & 1)
			continue;
		__asm__ volatile("" ::: "memory");
		for (size_t i = 0; i < VC_PAGE; i++)
			dst[i] = src[i];
		__asm__ volatile("" ::: "memory");
		s2 = *(const volatile uint32_t *)(src + seq_off);
		if (s1 == s2)
			return 0;
	}
	return -1;
}

static const char *copy_pages(struct vcopy *vc, uintptr_t live)
{
	const struct fr_layout *lay = fr_layout_by_name("6.17");
	const volatile uint8_t *vvar = (const volatile uint8_t *)live;
	struct fr_kdata kd;
	const char *why;
	struct utsname u;

	if (uname(&u) != 0 || fr_layout_for_release(u.release, &why) != lay)
		return "kernel is not 6.17+ (the only page layout this oracle knows)";
	fr_kdata_init(&kd, lay, vvar, NULL);
	if (fr_kdata_in_timens(&kd))
		return "running inside a time namespace";
	why = fr_kdata_check(&kd);
	if (why)
		return why;
	vc->live_mode = fr_kdata_mode(&kd);
	if (copy_stable(vc->vvar, vvar, (size_t)(kd.raw0 - vvar)) != 0)
		return "[vvar] data page never settled";
	memcpy(vc->vvar + VC_RNG_PAGE * VC_PAGE, (const void *)(live + VC_RNG_PAGE * VC_PAGE), VC_PAGE);
	/* The pvclock page is mapped only once the kernel has used pvclock mode: touch it only then. */
	if (vc->live_mode == FR_MODE_PVCLOCK &&
	    copy_stable(vc->vclock, vvar + VC_VVAR_PAGES * VC_PAGE, FR_PV_VERSION) != 0)
		return "pvclock page never settled";
	memcpy(vc->text, (const void *)(live + (VC_VVAR_PAGES + VC_VCLOCK_PAGES) * VC_PAGE),
	       VC_VDSO_PAGES * VC_PAGE);
	memcpy(vc->time_page, vc->vvar, VC_PAGE);
	return NULL;
}

const char *vcopy_open(struct vcopy *vc)
{
	struct sigaction sa;
	uintptr_t live;
	const char *why;

	memset(vc, 0, sizeof(*vc));
	memset(&hs, 0, sizeof(hs));
	why = find_live(&live);
	if (why)
		return why;
	vc->region = mmap(NULL, VC_PAGES * VC_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (vc->region == MAP_FAILED) {
		vc->region = NULL;
		return "mmap of the copy failed";
	}
	vc->vvar = vc->region;
	vc->vclock = vc->region + VC_VVAR_PAGES * VC_PAGE;
	vc->text = vc->vclock + VC_VCLOCK_PAGES * VC_PAGE;
	why = copy_pages(vc, live);
	if (!why)
		why = find_sites(vc);
	if (!why && mprotect(vc->text, VC_VDSO_PAGES * VC_PAGE, PROT_READ | PROT_EXEC) != 0)
		why = "cannot make the copied vDSO text executable";
	if (!why && !(vc->gettime = (vc_gettime_fn)fr_vdso_sym(vc->text, "__vdso_clock_gettime", "LINUX_2.6")))
		why = "no __vdso_clock_gettime@LINUX_2.6 in the copy";
	if (why) {
		vcopy_close(vc);
		return why;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigill;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &hs.old);
	return NULL;
}

void vcopy_close(struct vcopy *vc)
{
	if (vc->gettime)
		sigaction(SIGILL, &hs.old, NULL);
	if (vc->region)
		munmap(vc->region, VC_PAGES * VC_PAGE);
	memset(vc, 0, sizeof(*vc));
}

void vcopy_set_carry_shortcut(struct vcopy *vc, int on)
{
	mprotect(vc->text, VC_VDSO_PAGES * VC_PAGE, PROT_READ | PROT_WRITE);
	for (int i = 0; i < hs.n_carry; i++)
		memcpy((uint8_t *)hs.carry[i].at, on ? (const uint8_t *)"\x0f\x0b" : hs.carry[i].orig, 2);
	mprotect(vc->text, VC_VDSO_PAGES * VC_PAGE, PROT_READ | PROT_EXEC);
}

void vcopy_gettime(struct vcopy *vc, clockid_t clk, uint64_t tsc, struct timespec *ts, struct vc_call *call)
{
	hs.tsc = tsc;
	hs.rdtsc_traps = hs.carry_traps = hs.syscalls = 0;
	hs.rdtsc_site = -1;
	call->ret = vc->gettime(clk, ts);
	call->rdtsc_traps = hs.rdtsc_traps;
	call->rdtsc_site = hs.rdtsc_site;
	call->carry_traps = hs.carry_traps;
	call->syscalls = hs.syscalls;
}
