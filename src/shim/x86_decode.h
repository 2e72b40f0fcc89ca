/* A decoder for the few x86-64 instructions compilers emit for volatile
 * 8/16/32/64-bit loads and 32/64-bit stores, enough to emulate a CPU access
 * to a PROT_NONE page (the PCI BAR, bar_mmio.c). Encodings from the Intel
 * SDM vol. 2, chapter 2 (REX, ModRM, SIB, displacements):
 *
 *   [REX] 8B /r        mov r32/r64, m32/m64      load
 *   [REX] 89 /r        mov m32/m64, r32/r64      store a register
 *   [REX] C7 /0 id     mov m32/m64, imm32        store an immediate
 *                                                (sign-extended with REX.W)
 *   [REX] 0F B6 /r     movzx r32/r64, m8         load a byte, zero-extended
 *   [REX] 0F B7 /r     movzx r32/r64, m16        load a word, zero-extended
 *
 * Prefixes other than one REX byte (40-4F) right before the opcode are not
 * accepted, nor register (mod 3) operands. */
#ifndef GTSIM_SHIM_X86_DECODE_H
#define GTSIM_SHIM_X86_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* x86 register numbers (ModRM/SIB encoding with the REX extension bit). */
enum x86_reg {
	X86_RAX, X86_RCX, X86_RDX, X86_RBX, X86_RSP, X86_RBP, X86_RSI, X86_RDI,
	X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15,
	X86_RIP = 16,       /* as a base: RIP-relative addressing */
	X86_NO_REG = -1,
};

enum x86_access_kind {
	X86_LOAD,           /* memory -> reg, zero-extended to dest_size */
	X86_STORE_REG,      /* reg (its low `size` bytes) -> memory */
	X86_STORE_IMM,      /* imm -> memory */
};

struct x86_mem_access {
	unsigned len;               /* instruction length in bytes */
	enum x86_access_kind kind;
	unsigned size;              /* bytes of memory accessed: 1, 2, 4, 8 */
	unsigned dest_size;         /* loads: register width written, 4 or 8 */
	int reg;                    /* enum x86_reg: load destination, store source */
	uint64_t imm;               /* X86_STORE_IMM, sign-extended to size */
	/* the memory operand: base + index * scale + disp */
	int base;                   /* enum x86_reg, X86_RIP or X86_NO_REG */
	int index;                  /* enum x86_reg or X86_NO_REG */
	unsigned scale;             /* 1, 2, 4, 8 */
	int64_t disp;
};

/* Decodes the instruction at code[0..n). True when it is one of the forms
 * above and fits in n bytes (at most 15 are looked at). */
bool x86_decode_mem_access(const uint8_t *code, size_t n, struct x86_mem_access *out);

/* The operand's address, given the 16 general registers in x86 order and
 * the address of the instruction (for RIP-relative operands). */
uint64_t x86_effective_address(const struct x86_mem_access *a, const uint64_t regs[16],
			       uint64_t rip);

#endif
