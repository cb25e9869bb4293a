/* SPDX-License-Identifier: MIT */
/* Trampolines for the 32-bit ARM vDSO copy (A32): a branch out of the kernel's code into a C handler and back, all registers kept. */
#include "trampolines.h"

#include <string.h>

/* A32 encodings (Arm ARM), each named for the instruction it is. */
#define SUB_SP_64 0xe24dd040u        /* sub sp, sp, #64 */
#define ADD_SP_64 0xe28dd040u        /* add sp, sp, #64 */
#define STM_SP_R0_R12_LR 0xe88d5fffu /* stm sp, {r0-r12, lr} */
#define LDM_SP_R0_R12_LR 0xe89d5fffu /* ldm sp, {r0-r12, lr} */
#define MRS_R0_APSR 0xe10f0000u      /* mrs r0, apsr */
#define MSR_APSR_R0 0xe128f000u      /* msr apsr_nzcvq, r0 */
#define STR_R0_SP_56 0xe58d0038u     /* str r0, [sp, #56] */
#define LDR_R0_SP_56 0xe59d0038u     /* ldr r0, [sp, #56] */
#define MOV_R0_SP 0xe1a0000du        /* mov r0, sp */
#define MOVW_R1(imm) (0xe3001000u | ((uint32_t)(imm) >> 12 & 0xfu) << 16 | ((uint32_t)(imm) & 0xfffu))
#define LDR_IP_PC(off) (0xe59fc000u | ((uint32_t)(off) & 0xfffu)) /* ldr ip, [pc, #off] (pc: this + 8) */
#define BLX_IP 0xe12fff3cu           /* blx ip: the handler may be Thumb code (bit 0 of its address) */

static uint32_t branch(const uint8_t *from, const uint8_t *to)
{
	return 0xea000000u | ((uint32_t)((to - from - 8) / 4) & 0xffffffu);
}

uint32_t at_site(struct at_writer *w, const uint8_t *from, unsigned id, const uint8_t *resume)
{
	const uint8_t *start = w->page + w->used;
	size_t ldr_at;

	/* 64 bytes keep the stack 8-byte aligned; the vDSO's own code keeps nothing below sp. */
	at_emit(w, SUB_SP_64);
	at_emit(w, STM_SP_R0_R12_LR);
	at_emit(w, MRS_R0_APSR);
	at_emit(w, STR_R0_SP_56);
	at_emit(w, MOV_R0_SP);
	at_emit(w, MOVW_R1(id));
	ldr_at = w->used;
	at_emit(w, 0); /* the literal load, once the literal's place is known */
	at_emit(w, BLX_IP);
	at_emit(w, LDR_R0_SP_56);
	at_emit(w, MSR_APSR_R0);
	at_emit(w, LDM_SP_R0_R12_LR);
	at_emit(w, ADD_SP_64);
	at_emit(w, branch(w->page + w->used, resume));
	if (w->full)
		return 0;
	{
		uint32_t ldr = LDR_IP_PC(w->used - (ldr_at + 8));

		memcpy(w->page + ldr_at, &ldr, 4);
	}
	at_emit(w, (uint32_t)(uintptr_t)w->handler);
	return branch(from, start);
}
