/* SPDX-License-Identifier: MIT */
/* Probe: every export used from a program whose libraries are linked at a non-zero base, one of them moved by the loader. */
#include "early_rec.h"

#include "cpu_test.h"
#include <link.h>
#include <string.h>

int bias_one(void);
int bias_two(void);

static int show_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (strstr(info->dlpi_name, "e2e_bias"))
		printf("bias %s %#lx\n", strrchr(info->dlpi_name, '/') + 1, (unsigned long)info->dlpi_addr);
	return 0;
}

int main(void)
{
	struct early_rec r = { 0 };
	int (*cg)(clockid_t, struct timespec *);
	struct timespec ts, k;

	dl_iterate_phdr(show_bias, NULL);
	printf("calls=%d,%d\n", bias_one(), bias_two());
	early_record(&r);
	cg = (int (*)(clockid_t, struct timespec *))dlvsym(RTLD_NEXT, "clock_gettime", "GLIBC_2.17");
	printf("next_v_rc=%d\n", cg ? cg(CLOCK_MONOTONIC_RAW, &ts) : -2);
	syscall(FRT_SYS_CLOCK_GETTIME, CLOCK_MONOTONIC_RAW, &k);
	printf("kernel_raw_ns=%lld\n", (long long)early_ns(&k));
	early_print("main_", &r);
	return 0;
}
