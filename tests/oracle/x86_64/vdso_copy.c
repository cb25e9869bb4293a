/* SPDX-License-Identifier: MIT */
/* Builds the patched vDSO copy: finds the live pages, copies them, patches counter reads to traps and serves the traps. */
#define _GNU_SOURCE
#include "vdso_copy.h"

#include <elf.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <ucontext.h>
#include <unistd.h>

#include "../vdso_image.h"
#include "ksys.h"
#include "startup/decide.h"
#include "startup/locate.h"
#include "startup/runtime.h"
#include "exact/fastpath.h"
#include "passthru/passthru.h"
#include "arch/arch.h"
#include "elf/vdso_elf.h"

/* State the SIGILL handler reads and writes: one copy at a time, used from one thread. */
static struct {
	uintptr_t text;
	const struct vsites *sites;
	volatile uint64_t tsc, tsc2;
	volatile uint32_t aux;
	volatile unsigned rdtsc_traps, carry_traps, syscalls;
	volatile int rdtsc_site;
	vc_read_hook hook;
	struct sigaction old;
} hs;

/* gregs index of each x86 register number. */
static const int greg_of[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

static int serve_read(greg_t *g, uintptr_t rip)
{
	for (int i = 0; i < hs.sites->n_read; i++) {
		const struct vs_read *r = &hs.sites->read[i];
		uint64_t v;

		if (rip != hs.text + r->at)
			continue;
		if (hs.hook)
			hs.hook(hs.rdtsc_traps);
		v = hs.rdtsc_traps ? hs.tsc2 : hs.tsc;
		/* EDX:EAX, each zero-extended to 64 bits; rdtscp also writes ECX (zero-extended) with TSC_AUX. */
		g[REG_RAX] = (greg_t)(uint32_t)v;
		g[REG_RDX] = (greg_t)(uint32_t)(v >> 32);
		if (r->kind == FR_X86_READ_RDTSCP)
			g[REG_RCX] = (greg_t)hs.aux;
		g[REG_RIP] += r->len;
		hs.rdtsc_traps++;
		hs.rdtsc_site = i;
		return 1;
	}
	return 0;
}

static void on_sigill(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	uintptr_t rip = (uintptr_t)g[REG_RIP];

	(void)sig;
	(void)si;
	if (serve_read(g, rip))
		return;
	for (int i = 0; i < hs.sites->n_syscall; i++) {
		if (rip == hs.text + hs.sites->syscall_at[i]) {
			/* The pattern fixed rax = SYS_clock_gettime; syscall clobbers rcx and r11. */
			g[REG_RAX] = (greg_t)k_clock_gettime((clockid_t)g[REG_RDI], (struct timespec *)g[REG_RSI]);
			g[REG_RCX] = (greg_t)(rip + 2);
			g[REG_R11] = g[REG_EFL];
			g[REG_RIP] += 2;
			hs.syscalls++;
			return;
		}
	}
	for (int i = 0; i < hs.sites->n_carry; i++) {
		const struct vs_carry *c = &hs.sites->carry[i];

		if (rip == hs.text + c->at) {
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
			g[REG_RIP] = (greg_t)(hs.text + c->resume);
			hs.carry_traps++;
			return;
		}
	}
	/* Not ours: let the fault happen again, unhandled. */
	signal(SIGILL, SIG_DFL);
}

/* What rdtscp leaves in ecx here: the CPU's own answer where it has rdtscp, else Linux's (node << 12) | cpu. */
static uint32_t tsc_aux(void)
{
	struct fr_cpu_features f;
	unsigned cpu = 0, node = 0;

	fr_cpu_probe(&f);
	if (f.ordered_read) {
		uint32_t lo, hi, aux;

		__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		return aux;
	}
	getcpu(&cpu, &node);
	return node << 12 | (cpu & 0xfff);
}

static const char *copy_live(struct vcopy *vc, const struct fr_kdata *kd, const uint8_t *vdso, size_t vdso_pages)
{
	const struct fr_layout *lay = kd->lay;
	const volatile uint8_t *real = kd->vvar;

	vc->live_in_timens = fr_kdata_in_timens(kd);
	if (vc->live_in_timens)
		real += (size_t)lay->timens_page * VC_PAGE;
	vc->live_mode = fr_kdata_mode(kd);
	vc->live = real;
	vc->live_seq_off = (size_t)(kd->raw0 - kd->vvar);
	if (oimg_copy_stable(vc->time_page, real, vc->live_seq_off) != 0)
		return "the live data page never settled";
	memcpy(vc->vvar, vc->time_page, VC_PAGE);
	/* The pvclock page is mapped only once the kernel has used pvclock mode: touch it only then. */
	if (vc->live_mode == FR_MODE_PVCLOCK && kd->vclock) {
		if (oimg_copy_stable(vc->pv_page, kd->vclock, FR_PV_VERSION) != 0)
			return "the live pvclock page never settled";
		memcpy(vc->vclock, vc->pv_page, VC_PAGE);
	}
	memcpy(vc->text, vdso, vdso_pages * VC_PAGE);
	return NULL;
}

/*
 * ORACLE_VDSO_IMAGE=file ORACLE_ERA=name: another kernel's vDSO image (carved from its vmlinux)
 * instead of this process's, every page synthetic. Its counter-read slots are as the build left
 * them (rdtsc and NOPs); ORACLE_PATCH=lfence or rdtscp rewrites them as that alternative would.
 */
static const char *image_source(uint8_t *img, size_t *pages, const struct fr_layout **lay)
{
	const char *path = getenv("ORACLE_VDSO_IMAGE"), *era = getenv("ORACLE_ERA");
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return "ORACLE_VDSO_IMAGE cannot be opened";
	n = fread(img, 1, VC_MAX_VDSO_PAGES * VC_PAGE, f);
	fclose(f);
	*lay = era ? fr_layout_by_name(era) : NULL;
	if (!*lay)
		return "ORACLE_ERA names no layout";
	*pages = (n + VC_PAGE - 1) / VC_PAGE;
	return n >= sizeof(Elf64_Ehdr) ? NULL : "ORACLE_VDSO_IMAGE is too short";
}

static const char *image_patch(struct vcopy *vc, size_t size)
{
	static const uint8_t lfence[FR_X86_READ_SLOT] = FR_X86_SLOT_LFENCE_RDTSC, rdtscp[FR_X86_READ_SLOT] = FR_X86_SLOT_RDTSCP;
	const char *how = getenv("ORACLE_PATCH"), *why;
	struct vsites vs;

	if (!how || !strcmp(how, "rdtsc"))
		return NULL;
	why = vsites_find(vc->text, size, &vs);
	if (why)
		return why;
	for (int i = 0; i < vs.n_read; i++) {
		if (vs.read[i].kind != FR_X86_READ_RDTSC)
			continue;
		/* The slot starts at the rdtsc (0f 31 + 3 NOPs). */
		memcpy(vc->text + vs.read[i].at, !strcmp(how, "rdtscp") ? rdtscp : lfence, FR_X86_READ_SLOT);
	}
	return NULL;
}

const char *vcopy_open(struct vcopy *vc, int *fatal)
{
	const uint8_t *vdso = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	static uint8_t img[VC_MAX_VDSO_PAGES * VC_PAGE];
	struct fr_kdata kd;
	struct sigaction sa;
	struct utsname u;
	const char *why, *base;
	struct fr_pick pick;
	size_t vdso_pages;

	memset(vc, 0, sizeof(*vc));
	memset(&hs, 0, sizeof(hs));
	*fatal = 1;
	if (getenv("ORACLE_VDSO_IMAGE")) {
		why = image_source(img, &vdso_pages, &kd.lay);
		if (why)
			return why;
		vdso = img;
		goto map;
	}
	*fatal = 0;
	if (!vdso)
		return "no vDSO in this process";
	if (uname(&u) != 0)
		return "uname failed";
	/* The library's own choice of layout (also one its page and vDSO prove for a release it
	   does not know), judged with the ordered read every x86_64 CPU has. */
	why = fr_locate(u.release, fr_counter_for(FR_CTR_FENCED), fr_real_get(), &kd, &pick);
	/* A release before 5.3 whose page proves no layout has no RAW data (RHEL 8.4+'s 4.18 has). */
	if (why && !fr_layout_for_release(u.release, &base) && !strncmp(base, "kernel before 5.3", 17))
		return base;
	/* From here on a vDSO with RAW data exists: anything that stops the oracle is a failure. */
	*fatal = 1;
	if (why)
		return why;
	vdso_pages = oimg_pages(vdso);
	if (vdso_pages > VC_MAX_VDSO_PAGES)
		return "vDSO image larger than the oracle's copy";
map:
	vc->lay = kd.lay;
	vc->pages = kd.lay->pages_below + vdso_pages;
	vc->region = mmap(NULL, vc->pages * VC_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (vc->region == MAP_FAILED) {
		vc->region = NULL;
		return "mmap of the copy failed";
	}
	vc->vvar = vc->region;
	vc->vclock = vc->region + (size_t)kd.lay->vclock_page * VC_PAGE;
	vc->hvclock = vc->vclock + VC_PAGE;
	vc->text = vc->region + (size_t)kd.lay->pages_below * VC_PAGE;
	vc->tsc_aux = tsc_aux();
	if (vdso == img) {
		memcpy(vc->text, img, vdso_pages * VC_PAGE);
		why = image_patch(vc, vdso_pages * VC_PAGE);
	} else {
		why = copy_live(vc, &kd, vdso, vdso_pages);
	}
	if (!why)
		why = vsites_find(vc->text, vdso_pages * VC_PAGE, &vc->sites);
	if (!why) {
		for (int i = 0; i < vc->sites.n_read; i++)
			memcpy(vc->text + vc->sites.read[i].at, "\x0f\x0b", 2);
		for (int i = 0; i < vc->sites.n_syscall; i++)
			memcpy(vc->text + vc->sites.syscall_at[i], "\x0f\x0b", 2);
	}
	if (!why && mprotect(vc->text, vdso_pages * VC_PAGE, PROT_READ | PROT_EXEC) != 0)
		why = "cannot make the copied vDSO text executable";
	if (!why && !(vc->gettime = (vc_gettime_fn)fr_vdso_sym(vc->text, "__vdso_clock_gettime", "LINUX_2.6")))
		why = "no __vdso_clock_gettime@LINUX_2.6 in the copy";
	if (why) {
		vcopy_close(vc);
		return why;
	}
	hs.text = (uintptr_t)vc->text;
	hs.sites = &vc->sites;
	hs.aux = vc->tsc_aux;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigill;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &hs.old);
	return NULL;
}

int vcopy_refresh(struct vcopy *vc)
{
	if (!vc->live || oimg_copy_stable(vc->time_page, vc->live, vc->live_seq_off) != 0)
		return -1;
	memcpy(vc->vvar, vc->time_page, VC_PAGE);
	return 0;
}

void vcopy_close(struct vcopy *vc)
{
	if (vc->gettime)
		sigaction(SIGILL, &hs.old, NULL);
	if (vc->region)
		munmap(vc->region, vc->pages * VC_PAGE);
	memset(vc, 0, sizeof(*vc));
}

void vcopy_set_carry_shortcut(struct vcopy *vc, int on)
{
	size_t len = (vc->pages - vc->lay->pages_below) * VC_PAGE;

	mprotect(vc->text, len, PROT_READ | PROT_WRITE);
	for (int i = 0; i < vc->sites.n_carry; i++) {
		const struct vs_carry *c = &vc->sites.carry[i];

		memcpy(vc->text + c->at, on ? (const uint8_t *)"\x0f\x0b" : c->orig, 2);
	}
	mprotect(vc->text, len, PROT_READ | PROT_EXEC);
}

void vcopy_set_read_hook(vc_read_hook hook)
{
	hs.hook = hook;
}

void vcopy_gettime2(struct vcopy *vc, clockid_t clk, uint64_t tsc, uint64_t tsc2, struct timespec *ts,
		    struct vc_call *call)
{
	hs.tsc = tsc;
	hs.tsc2 = tsc2;
	hs.rdtsc_traps = hs.carry_traps = hs.syscalls = 0;
	hs.rdtsc_site = -1;
	call->ret = vc->gettime(clk, ts);
	call->rdtsc_traps = hs.rdtsc_traps;
	call->rdtsc_site = hs.rdtsc_site;
	call->carry_traps = hs.carry_traps;
	call->syscalls = hs.syscalls;
}

void vcopy_gettime(struct vcopy *vc, clockid_t clk, uint64_t tsc, struct timespec *ts, struct vc_call *call)
{
	vcopy_gettime2(vc, clk, tsc, tsc, ts, call);
}
