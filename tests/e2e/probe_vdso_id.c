/* SPDX-License-Identifier: MIT */
/* Probe: whether getauxval(AT_SYSINFO_EHDR) is the vDSO as the loader, dladdr and /proc/self/maps know it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "probe.h"

struct walk {
	uintptr_t ehdr, lo, hi;
	int by_addr;       /* entries whose dlpi_addr is ehdr, as stress-ng --vdso looks for the vDSO */
	int found;         /* the vDSO's entry: named linux-vdso.so.1, or its phdrs inside [vdso] */
	uintptr_t addr;    /* its dlpi_addr */
	uintptr_t header;  /* where its ELF header is: the PT_LOAD at file offset 0, relocated */
	char name[64];
};

static int each(struct dl_phdr_info *info, size_t size, void *data)
{
	struct walk *w = data;
	uintptr_t ph = (uintptr_t)info->dlpi_phdr;

	(void)size;
	if (info->dlpi_addr == w->ehdr)
		w->by_addr++;
	if (strcmp(info->dlpi_name, "linux-vdso.so.1") != 0 && !(w->lo <= ph && ph < w->hi))
		return 0;
	w->found++;
	w->addr = info->dlpi_addr;
	snprintf(w->name, sizeof(w->name), "%s", info->dlpi_name[0] ? info->dlpi_name : "(empty)");
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_phdr[i].p_offset == 0)
			w->header = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	return 0;
}

int main(void)
{
	uintptr_t ehdr = (uintptr_t)getauxval(AT_SYSINFO_EHDR), kernel = e2e_kernel_ehdr();
	struct walk w = { .ehdr = ehdr };
	Dl_info di;
	int have_maps = e2e_maps_vdso(&w.lo, &w.hi) == 0;

	dl_iterate_phdr(each, &w);
	printf("ehdr_nonzero=%d\n", ehdr != 0);
	printf("ehdr_is_elf=%d\n", ehdr && memcmp((const void *)ehdr, ELFMAG, SELFMAG) == 0);
	printf("ehdr_is_kernel=%d\n", ehdr == kernel);
	printf("maps_vdso=%d\n", have_maps);
	printf("kernel_is_maps_start=%d\n", have_maps && kernel == w.lo);
	printf("ehdr_is_maps_start=%d\n", have_maps && ehdr == w.lo);
	printf("ehdr_in_maps_vdso=%d\n", have_maps && w.lo <= ehdr && ehdr < w.hi);
	printf("phdr_entries=%d\nphdr_name=%s\n", w.found, w.found ? w.name : "(none)");
	printf("phdr_addr_is_ehdr=%d\n", w.found == 1 && w.addr == ehdr);
	printf("phdr_header_is_ehdr=%d\n", w.found == 1 && w.header == ehdr);
	printf("phdr_by_addr=%d\n", w.by_addr);
	if (ehdr && dladdr((const void *)ehdr, &di) && di.dli_fname) {
		printf("dladdr_name=%s\n", di.dli_fname[0] ? di.dli_fname : "(empty)");
		printf("dladdr_base_is_ehdr=%d\n", (uintptr_t)di.dli_fbase == ehdr);
	} else {
		printf("dladdr_name=(none)\ndladdr_base_is_ehdr=0\n");
	}
	return 0;
}
