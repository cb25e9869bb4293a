/* SPDX-License-Identifier: MIT */
/* The page the ARM family's trampolines are written to, one 4-byte instruction word at a time. */
#include "trampoline_page.h"

#include <string.h>

void at_begin(struct at_writer *w, uint8_t *page, size_t size, uintptr_t handler)
{
	memset(w, 0, sizeof(*w));
	w->page = page;
	w->size = size;
	w->handler = handler;
}

void at_emit(struct at_writer *w, uint32_t word)
{
	if (w->used + 4 > w->size) {
		w->full = 1;
		return;
	}
	memcpy(w->page + w->used, &word, 4);
	w->used += 4;
}
