/* Opcode table for Gen8/Gen9 (PRM vol. 7 "EU ISA", opcode encodings; names
 * spelled as Mesa's disassembler spells them). */
#include <string.h>

#include "gpu/eu/isa.h"

#define OP(num, nm, ns, nd, k, uip, lo, hi) \
	[num] = { nm, ns, nd, k, uip, lo, hi }

static const struct eu_opcode_info opcodes[128] = {
	OP(EU_OP_ILLEGAL, "illegal", 0, 0, EU_KIND_NOP, 0, 8, 9),
	OP(EU_OP_MOV, "mov", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_SEL, "sel", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_MOVI, "movi", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_NOT, "not", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_AND, "and", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_OR, "or", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_XOR, "xor", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_SHR, "shr", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_SHL, "shl", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_SMOV, "smov", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_ASR, "asr", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_CMP, "cmp", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_CMPN, "cmpn", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_CSEL, "csel", 3, 1, EU_KIND_ALU3, 0, 8, 9),
	OP(EU_OP_F32TO16, "f32to16", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_F16TO32, "f16to32", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_BFREV, "bfrev", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_BFE, "bfe", 3, 1, EU_KIND_ALU3, 0, 8, 9),
	OP(EU_OP_BFI1, "bfi1", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_BFI2, "bfi2", 3, 1, EU_KIND_ALU3, 0, 8, 9),
	OP(EU_OP_JMPI, "jmpi", 0, 0, EU_KIND_JMPI, 0, 8, 9),
	OP(EU_OP_BRD, "brd", 0, 0, EU_KIND_BRANCH, 0, 8, 9),
	OP(EU_OP_IF, "if", 0, 0, EU_KIND_BRANCH, 1, 8, 9),
	OP(EU_OP_BRC, "brc", 0, 0, EU_KIND_BRANCH, 1, 8, 9),
	OP(EU_OP_ELSE, "else", 0, 0, EU_KIND_BRANCH, 1, 8, 9),
	OP(EU_OP_ENDIF, "endif", 0, 0, EU_KIND_BRANCH, 0, 8, 9),
	OP(EU_OP_WHILE, "while", 0, 0, EU_KIND_BRANCH, 0, 8, 9),
	OP(EU_OP_BREAK, "break", 0, 0, EU_KIND_BRANCH, 1, 8, 9),
	OP(EU_OP_CONTINUE, "cont", 0, 0, EU_KIND_BRANCH, 1, 8, 9),
	OP(EU_OP_HALT, "halt", 0, 0, EU_KIND_BRANCH, 1, 8, 9),
	OP(EU_OP_CALLA, "calla", 0, 0, EU_KIND_JMPI, 0, 8, 9),
	OP(EU_OP_CALL, "call", 0, 0, EU_KIND_JMPI, 0, 8, 9),
	OP(EU_OP_RET, "ret", 0, 0, EU_KIND_JMPI, 0, 8, 9),
	OP(EU_OP_GOTO, "goto", 0, 0, EU_KIND_BRANCH, 1, 8, 9),
	OP(EU_OP_JOIN, "join", 0, 0, EU_KIND_BRANCH, 0, 8, 9),
	OP(EU_OP_WAIT, "wait", 0, 1, EU_KIND_WAIT, 0, 8, 9),
	OP(EU_OP_SEND, "send", 1, 1, EU_KIND_SEND, 0, 8, 9),
	OP(EU_OP_SENDC, "sendc", 1, 1, EU_KIND_SEND, 0, 8, 9),
	OP(EU_OP_SENDS, "sends", 2, 1, EU_KIND_SENDS, 0, 9, 9),
	OP(EU_OP_SENDSC, "sendsc", 2, 1, EU_KIND_SENDS, 0, 9, 9),
	OP(EU_OP_MATH, "math", 2, 1, EU_KIND_MATH, 0, 8, 9),
	OP(EU_OP_ADD, "add", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_MUL, "mul", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_AVG, "avg", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_FRC, "frc", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_RNDU, "rndu", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_RNDD, "rndd", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_RNDE, "rnde", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_RNDZ, "rndz", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_MAC, "mac", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_MACH, "mach", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_LZD, "lzd", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_FBH, "fbh", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_FBL, "fbl", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_CBIT, "cbit", 1, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_ADDC, "addc", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_SUBB, "subb", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_SAD2, "sad2", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_SADA2, "sada2", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_DP4, "dp4", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_DPH, "dph", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_DP3, "dp3", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_DP2, "dp2", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_LINE, "line", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_PLN, "pln", 2, 1, EU_KIND_ALU, 0, 8, 9),
	OP(EU_OP_MAD, "mad", 3, 1, EU_KIND_ALU3, 0, 8, 9),
	OP(EU_OP_LRP, "lrp", 3, 1, EU_KIND_ALU3, 0, 8, 9),
	OP(EU_OP_MADM, "madm", 3, 1, EU_KIND_ALU3, 0, 8, 9),
	OP(EU_OP_NOP, "nop", 0, 0, EU_KIND_NOP, 0, 8, 9),
};

const struct eu_opcode_info *eu_opcode_lookup(int gen, unsigned opcode)
{
	if (opcode >= 128 || !opcodes[opcode].name || opcode == EU_OP_ILLEGAL)
		return NULL;
	if (gen < opcodes[opcode].min_gen || gen > opcodes[opcode].max_gen)
		return NULL;
	return &opcodes[opcode];
}

bool eu_opcode_shows_targets(unsigned opcode)
{
	/* Mesa's brw_has_jip(): the only branches whose JIP/UIP its
	 * disassembler prints (and labels). goto, join, brd, brc, call,
	 * calla and ret print no operands at all (opcode_descs: 0 sources,
	 * 0 destinations), jmpi prints its src1. */
	switch (opcode) {
	case EU_OP_IF: case EU_OP_ELSE: case EU_OP_ENDIF: case EU_OP_WHILE:
	case EU_OP_BREAK: case EU_OP_CONTINUE: case EU_OP_HALT:
		return true;
	default:
		return false;
	}
}

int eu_opcode_by_name(int gen, const char *name)
{
	for (unsigned i = 1; i < 128; i++)
		if (opcodes[i].name && !strcmp(opcodes[i].name, name) &&
		    eu_opcode_lookup(gen, i))
			return (int)i;
	return -1;
}
