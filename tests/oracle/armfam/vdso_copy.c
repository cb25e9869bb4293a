/* SPDX-License-Identifier: MIT */
/* Builds the ARM family's vDSO copy: copies the live pages, reroutes counter reads, system calls and carry loops to trampolines. */
#define _GNU_SOURCE
#include "vdso_copy.h"

#include <string.h>
#include <sys/mman.h>

#include "../vdso_image.h"
#include "copy_cpu.h"
#include "vdso_elf.h"

/* What the trampolines' handler (copy_cpu.c) serves and counts: one copy at a time, used from one thread. */
struct ac_serve ac_hs;

static const char *copy_live(struct acopy *ac, const uint8_t *vdso)
{
	const struct acopy_geom *g = &ac->geom;
	const volatile uint8_t *vvar = vdso - (size_t)g->pages_below * AC_PAGE, *real = vvar;
	const volatile uint8_t *raw = vvar + g->raw_off;

	/* Page 0 is a namespace page when its RAW entry has seq 1 and the marker; only then is the next page mapped. */
	ac->live_in_timens = *(const volatile uint32_t *)raw == 1 && *(const volatile uint32_t *)(raw + 4) == AC_TIMENS_MODE;
	if (ac->live_in_timens) {
		/* The namespace page never changes (seq stays 1): a plain copy. */
		for (size_t i = 0; i < AC_PAGE; i++)
			ac->ns_page[i] = vvar[i];
		real += (size_t)g->timens_page * AC_PAGE;
	}
	ac->live = real;
	if (oimg_copy_stable(ac->time_page, real, g->raw_off) != 0)
		return "the live data page never settled";
	memcpy(&ac->live_mode, ac->time_page + g->raw_off + 4, 4);
	memcpy(ac->vvar, ac->time_page, AC_PAGE);
	memcpy(ac->text, vdso, ac->vdso_pages * AC_PAGE);
	return NULL;
}

/*
 * Another kernel's image (carved from its vmlinux): no live pages to copy. The data page starts
 * zero (clock mode none, seq 0) and the regimes write every field they use; the live regimes
 * skip, as the live mode is not the arch timer.
 */
static const char *copy_image(struct acopy *ac, const uint8_t *vdso)
{
	memset(ac->time_page, 0, AC_PAGE);
	ac->live_mode = 0;
	ac->live_in_timens = 0;
	memcpy(ac->vvar, ac->time_page, AC_PAGE);
	memcpy(ac->text, vdso, ac->vdso_pages * AC_PAGE);
	return NULL;
}

/* Every rerouted instruction is one 4-byte word (A64, A32): its replacement is the branch to a trampoline. */
static void put_insn(uint8_t *at, uint32_t w)
{
	memcpy(at, &w, 4);
}

/* Every rerouted instruction becomes a branch to its trampoline. */
static const char *reroute(struct acopy *ac)
{
	struct at_writer w;
	const struct asites *s = &ac->sites;

	at_begin(&w, ac->tramp, AC_PAGE, (uintptr_t)acpu_on_trap);
	for (int i = 0; i < s->n_read; i++)
		put_insn(ac->text + s->read[i].at,
			 at_site(&w, ac->text + s->read[i].at, AT_READ << 8 | (unsigned)i, ac->text + s->read[i].at + 4));
	for (int i = 0; i < s->n_syscall; i++)
		put_insn(ac->text + s->syscall_at[i],
			 at_site(&w, ac->text + s->syscall_at[i], AT_SYSCALL << 8 | (unsigned)i, ac->text + s->syscall_at[i] + 4));
	for (int i = 0; i < s->n_carry; i++)
		ac->carry_branch[i] = at_site(&w, ac->text + s->carry[i].at, AT_CARRY << 8 | (unsigned)i,
					      ac->text + s->carry[i].resume);
	return w.full ? "the trampolines do not fit in their page" : NULL;
}

const char *acopy_open(struct acopy *ac, const uint8_t *vdso, const struct acopy_geom *geom)
{
	const char *why;

	memset(ac, 0, sizeof(*ac));
	memset(&ac_hs, 0, sizeof(ac_hs));
	ac->geom = *geom;
	ac->vdso_pages = oimg_pages(vdso);
	if (ac->vdso_pages > AC_MAX_VDSO_PAGES)
		return "vDSO image larger than the oracle's copy";
	ac->pages = geom->pages_below + ac->vdso_pages + 1;
	ac->region = mmap(NULL, ac->pages * AC_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ac->region == MAP_FAILED) {
		ac->region = NULL;
		return "mmap of the copy failed";
	}
	ac->vvar = ac->region;
	ac->text = ac->region + (size_t)geom->pages_below * AC_PAGE;
	ac->tramp = ac->text + ac->vdso_pages * AC_PAGE;
	/* An image's run may be under qemu-user, which lets user space read no counter register: none read. */
	ac->cntfrq = geom->image ? 0 : acpu_cntfrq();
	why = geom->image ? copy_image(ac, vdso) : copy_live(ac, vdso);
	if (!why)
		why = asites_find(ac->text, ac->vdso_pages * AC_PAGE, &ac->sites);
	if (!why)
		why = reroute(ac);
	if (!why && !(ac->gettime = (int (*)(clockid_t, struct timespec *))avelf_sym(
			      ac->text, ac->vdso_pages * AC_PAGE, ACPU_GETTIME, ACPU_GETTIME_VERSION)))
		why = "no " ACPU_GETTIME "@" ACPU_GETTIME_VERSION " in the copy";
	if (!why) {
		acopy_set_carry_shortcut(ac, 1);
		if (mprotect(ac->tramp, AC_PAGE, PROT_READ | PROT_EXEC) != 0)
			why = "cannot make the trampolines executable";
		__builtin___clear_cache((char *)ac->tramp, (char *)ac->tramp + AC_PAGE);
	}
	if (why) {
		acopy_close(ac);
		return why;
	}
	ac_hs.sites = &ac->sites;
	return NULL;
}

int acopy_refresh(struct acopy *ac)
{
	if (!ac->live || oimg_copy_stable(ac->time_page, ac->live, ac->geom.raw_off) != 0)
		return -1;
	memcpy(ac->vvar, ac->time_page, AC_PAGE);
	return 0;
}

void acopy_close(struct acopy *ac)
{
	if (ac->region)
		munmap(ac->region, ac->pages * AC_PAGE);
	memset(ac, 0, sizeof(*ac));
}

void acopy_set_carry_shortcut(struct acopy *ac, int on)
{
	size_t len = ac->vdso_pages * AC_PAGE;

	mprotect(ac->text, len, PROT_READ | PROT_WRITE);
	for (int i = 0; i < ac->sites.n_carry; i++)
		put_insn(ac->text + ac->sites.carry[i].at, on ? ac->carry_branch[i] : ac->sites.carry[i].orig);
	mprotect(ac->text, len, PROT_READ | PROT_EXEC);
	__builtin___clear_cache((char *)ac->text, (char *)ac->text + len);
}

void acopy_set_read_hook(ac_read_hook hook)
{
	ac_hs.hook = hook;
}

void acopy_gettime2(struct acopy *ac, clockid_t clk, uint64_t tsc, uint64_t tsc2, struct timespec *ts,
		    struct ac_call *call)
{
	ac_hs.tsc = tsc;
	ac_hs.tsc2 = tsc2;
	ac_hs.reads = ac_hs.carries = ac_hs.bad_carry = ac_hs.syscalls = 0;
	ac_hs.read_site = -1;
	call->ret = ac->gettime(clk, ts);
	call->reads = ac_hs.reads;
	call->read_site = ac_hs.read_site;
	call->carries = ac_hs.carries;
	call->bad_carry = ac_hs.bad_carry;
	call->syscalls = ac_hs.syscalls;
}

void acopy_gettime(struct acopy *ac, clockid_t clk, uint64_t tsc, struct timespec *ts, struct ac_call *call)
{
	acopy_gettime2(ac, clk, tsc, tsc, ts, call);
}
