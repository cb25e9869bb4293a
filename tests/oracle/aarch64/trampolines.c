/* SPDX-License-Identifier: MIT */
/* Trampolines for the arm64 vDSO copy: a branch out of the kernel's code into a C handler and back, all registers kept. */
#include "trampolines.h"

#include <string.h>

/* A64 encodings (Arm ARM), each named for the instruction it is. */
#define SUB_SP_256 0xd10403ffu    /* sub sp, sp, #256 */
#define ADD_SP_256 0x910403ffu    /* add sp, sp, #256 */
#define MRS_X0_NZCV 0xd53b4200u   /* mrs x0, nzcv */
#define MSR_NZCV_X0 0xd51b4200u   /* msr nzcv, x0 */
#define MOV_X0_SP 0x910003e0u     /* add x0, sp, #0 */
#define MOVZ_W1(imm) (0x52800001u | (uint32_t)(imm) << 5)
#define LDR_X16_LIT(words) (0x58000010u | ((uint32_t)(words) & 0x7ffffu) << 5)
#define BLR_X16 0xd63f0200u
#define STP_SP(t, t2, off) (0xa9000000u | ((uint32_t)(off) / 8 & 0x7fu) << 15 | (uint32_t)(t2) << 10 | 31u << 5 | (t))
#define LDP_SP(t, t2, off) (STP_SP(t, t2, off) | 1u << 22)

static uint32_t branch(const uint8_t *from, const uint8_t *to)
{
	return 0x14000000u | ((uint32_t)((to - from) / 4) & 0x3ffffffu);
}

uint32_t at_site(struct at_writer *w, const uint8_t *from, unsigned id, const uint8_t *resume)
{
	const uint8_t *start;
	size_t ldr_at;
	uint64_t handler = (uint64_t)(uintptr_t)w->handler;

	w->used = (w->used + 7) & ~(size_t)7;
	start = w->page + w->used;
	/* The stack pointer stays 16-byte aligned; the vDSO's own code keeps nothing below it. */
	at_emit(w, SUB_SP_256);
	for (uint32_t r = 0; r < 30; r += 2)
		at_emit(w, STP_SP(r, r + 1, r * 8));
	at_emit(w, MRS_X0_NZCV);
	at_emit(w, STP_SP(30, 0, 240));
	at_emit(w, MOV_X0_SP);
	at_emit(w, MOVZ_W1(id));
	ldr_at = w->used;
	at_emit(w, 0); /* the literal load, once the literal's place is known */
	at_emit(w, BLR_X16);
	at_emit(w, LDP_SP(30, 0, 240));
	at_emit(w, MSR_NZCV_X0);
	for (uint32_t r = 0; r < 30; r += 2)
		at_emit(w, LDP_SP(r, r + 1, r * 8));
	at_emit(w, ADD_SP_256);
	at_emit(w, branch(w->page + w->used, resume));
	if (w->used & 7)
		at_emit(w, 0);
	if (w->full)
		return 0;
	{
		uint32_t ldr = LDR_X16_LIT((w->used - ldr_at) / 4);

		memcpy(w->page + ldr_at, &ldr, 4);
	}
	at_emit(w, (uint32_t)handler);
	at_emit(w, (uint32_t)(handler >> 32));
	return branch(from, start);
}
