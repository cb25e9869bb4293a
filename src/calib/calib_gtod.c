/* SPDX-License-Identifier: MIT */
/* The pre-5.3 gtod page calibrated mode seeds from: [vvar] from 3.16 on, and 3.10's fixed-address page only where its own vDSO proves it mapped. */
#include "calib/calib_source.h"

#include "kdata/gtod.h"
#include "kdata/armdata.h"
#include "elf/vdso_elf.h"
#include "proc/maps.h"
#include "proc/readable.h"

/* 32-bit ARM's [vvar] is one page, directly below [vdso] (arch/arm/kernel/vdso.c, 4.1-5.4). */
#define ARM_VVAR_BYTES 4096

/* The gtod data in the page: vsyscall_gtod_data at +128, 144 bytes in the largest 3.10 layout (the debug one). */
#define FIXED_GTOD_OFFSET 128
#define FIXED_GTOD_BYTES 144
/* More than any clock_gettime a kernel built: a larger size is not a function's. */
#define FIXED_CODE_MAX 4096

/* The vDSO's clock_gettime at fn, called for CLOCK_MONOTONIC: its result, 0 or -errno. */
static int call_monotonic(void *fn)
{
	fr_real_fn f = { (int (*)(clockid_t, struct timespec *))fn };
	struct timespec ts;

	return f.call(CLOCK_MONOTONIC, &ts);
}

/*
 * Only 3.10's vDSO addresses its data at FR_GTOD_FIXED_PAGE, which lies above every user
 * mapping: neither futex nor process_vm_readv can ask about it, and a guess that misses faults.
 * Its own code is the proof: __vdso_clock_gettime loads the gtod fields from that address
 * (absolute operands, seq at +128 among them), and 3.10's CLOCK_MONOTONIC reads seq and the
 * clock mode before anything else, the system call fallback included (docs/kernel-data.md
 * §2.1), so a call that returned has read the page in this process. A kernel whose vDSO does
 * not address the page (3.16+, a vsyscall-less or non-x86 build), or a call that fails, leaves
 * the address untouched.
 */
const char *fr_cal_gtod_fixed(const struct fr_gtod_fixed *f, struct fr_gtod *g)
{
	const uint8_t *code;
	size_t size = 0;
	unsigned at_seq;
	uint64_t lo = FR_GTOD_FIXED_PAGE + FIXED_GTOD_OFFSET;

	*g = (struct fr_gtod){ .era = -1 };
	if (!FR_GTOD_FIXED_PAGE)
		return "no kernel of this CPU has a fixed-address gtod page";
	if (!f->vdso)
		return "no vDSO";
	/* Every page of the image is asked about before it is read: the program may have unmapped it. */
	code = fr_vdso_code(f->vdso, FR_ARCH_VDSO_CLOCK_GETTIME, FR_ARCH_VDSO_VERSION, &size);
	if (!code || size > FIXED_CODE_MAX)
		return "no clock_gettime of a function's size within the vDSO's image";
	if (fr_arch_abs_refs(code, size, lo, lo + FIXED_GTOD_BYTES, &at_seq) < 2 || !at_seq)
		return "the vDSO's clock_gettime does not address the fixed gtod page";
	if (f->call((void *)code) != 0)
		return "the vDSO's CLOCK_MONOTONIC failed";
	return fr_gtod_read_among(f->page, FR_GTOD_3_10, FR_GTOD_3_10_LAYOUTS, g);
}

/*
 * The exports decide the era, not the release: a vendor kernel may carry either vDSO under any
 * number. A vDSO with __vdso_clock_gettime64 or __vdso_clock_getres is 5.5's generic one, whose
 * page this layout would misread; one without __vdso_clock_gettime was nulled by a kernel that
 * found no usable virtual counter, and that kernel never updates its page.
 */
const char *fr_cal_armdata(const struct fr_armdata_where *w, struct fr_gtod *g)
{
	*g = (struct fr_gtod){ .era = -1 };
	if (!w->vdso)
		return "no vDSO";
	if (w->sym(w->vdso, "__vdso_clock_gettime64", FR_ARCH_VDSO_VERSION) ||
	    w->sym(w->vdso, "__vdso_clock_getres", FR_ARCH_VDSO_VERSION))
		return "the vDSO exports __vdso_clock_gettime64 or __vdso_clock_getres: 5.5's generic vDSO, not the pre-5.5 one";
	if (!w->sym(w->vdso, "__vdso_clock_gettime", FR_ARCH_VDSO_VERSION))
		return "the vDSO exports no __vdso_clock_gettime: the kernel found no virtual counter its vDSO may read";
	if (!w->vvar || (uintptr_t)w->vvar + ARM_VVAR_BYTES != (uintptr_t)w->vdso)
		return "no [vvar] page directly below the vDSO";
	if (w->readable(w->vvar) != 1)
		return "the [vvar] page cannot be read";
	return fr_armdata_read(w->vvar, g);
}

int fr_cal_gtod(const char *release, struct fr_gtod *g)
{
	struct fr_maps maps;
	int era = release ? fr_gtod_era_for_release(release) : -1;

	if (FR_ARCH_OLD_DATA == FR_OLD_DATA_ARM) {
		struct fr_armdata_where w = { .vdso = fr_vdso_base(), .sym = fr_vdso_sym, .readable = fr_readable };

		if (fr_maps_read(&maps) != 0)
			return -1;
		w.vvar = (const volatile uint8_t *)maps.vvar;
		if (maps.vdso)
			w.vdso = (const void *)maps.vdso;
		return fr_cal_armdata(&w, g) ? -1 : 0;
	}
	if (era == FR_GTOD_3_10) {
		const struct fr_gtod_fixed f = {
			.vdso = fr_vdso_base(),
			.page = (const volatile uint8_t *)(uintptr_t)FR_GTOD_FIXED_PAGE,
			.call = call_monotonic,
		};

		return fr_cal_gtod_fixed(&f, g) ? -1 : 0;
	}
	if (era != FR_GTOD_4_X && era != FR_GTOD_4_20)
		return -1;
	if (fr_maps_read(&maps) != 0 || !maps.vvar)
		return -1;
	return fr_gtod_read_any((const volatile uint8_t *)maps.vvar, era, g) ? -1 : 0;
}
