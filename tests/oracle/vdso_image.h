/* SPDX-License-Identifier: MIT */
/* Reading the live vDSO for a copy, the same on every architecture: its size and its seqcount-protected pages. */
#ifndef FR_ORACLE_OIMAGE_H
#define FR_ORACLE_OIMAGE_H

#include <stddef.h>
#include <stdint.h>

/* The vDSO image's size in pages: its loaded extent and its section headers, which the oracle reads. */
size_t oimg_pages(const uint8_t *img);
/* Copies one page of a seqcount-protected area, retrying until the count was even and unchanged: 0, else -1. */
int oimg_copy_stable(uint8_t *dst, const volatile uint8_t *src, size_t seq_off);

#endif
