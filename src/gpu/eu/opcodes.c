/* The EU opcode table (opcodes.h). One row per opcode: encoding, Mesa's
 * mnemonic, operands as the text shows them, encoding kind, executor
 * entry, flags, and the generations that define it (PRM vol. 7 "EU ISA",
 * "Opcode Encoding"; Mesa's opcode_descs agree for gen8/9). */
#include <string.h>

#include "gpu/eu/inst.h"
#include "gpu/eu/opcodes.h"

#define G89 (EU_GEN(8) | EU_GEN(9))
#define ROW(num, nm, ns, nd, k, ex, fl, g) \
	[num] = { nm, ns, nd, EU_KIND_##k, EU_EXEC_##ex, fl, g, ((fl) & EU_OPF_UIP) != 0 }

/* short names for the flags of the rows */
#define UIP EU_OPF_UIP
#define SHOW EU_OPF_SHOWS_TARGETS
#define LOGIC (EU_OPF_LOGIC | EU_OPF_INT)
#define INT EU_OPF_INT
#define ACC EU_OPF_ACC_IMPLICIT
#define PRED EU_OPF_PRED_OPERAND
#define BCTL EU_OPF_BRANCH_CTRL

static const struct eu_opcode_info opcodes[128] = {
	ROW(EU_OP_MOV,      "mov",      1, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_SEL,      "sel",      2, 1, ALU,    ALU,  EU_OPF_COND_SELECTS | PRED, G89),
	ROW(EU_OP_MOVI,     "movi",     2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_NOT,      "not",      1, 1, ALU,    ALU,  LOGIC, G89),
	ROW(EU_OP_AND,      "and",      2, 1, ALU,    ALU,  LOGIC, G89),
	ROW(EU_OP_OR,       "or",       2, 1, ALU,    ALU,  LOGIC, G89),
	ROW(EU_OP_XOR,      "xor",      2, 1, ALU,    ALU,  LOGIC, G89),
	ROW(EU_OP_SHR,      "shr",      2, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_SHL,      "shl",      2, 1, ALU,    ALU,  INT, G89),
	/* smov (scattered move): defined on gen8+, not modelled by gtsim */
	ROW(EU_OP_SMOV,     "smov",     2, 1, ALU,    NONE, 0, G89),
	ROW(EU_OP_ASR,      "asr",      2, 1, ALU,    ALU,  INT, G89),
	/* rotates: gen11+ only (reserved encodings on gen8/9) */
	ROW(EU_OP_ROR,      "ror",      2, 1, ALU,    NONE, INT, EU_GEN(11)),
	ROW(EU_OP_ROL,      "rol",      2, 1, ALU,    NONE, INT, EU_GEN(11)),
	ROW(EU_OP_CMP,      "cmp",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_CMPN,     "cmpn",     2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_CSEL,     "csel",     3, 1, ALU3,   ALU,  EU_OPF_COND_SELECTS, G89),
	/* Gen7 opcodes (iga64 -p=8/9 rejects them); gtsim decodes and runs
	 * them on gen8/9 as an extension (docs/eu-isa.md) */
	ROW(EU_OP_F32TO16,  "f32to16",  1, 1, ALU,    ALU,  0, EU_GEN(7) | G89),
	ROW(EU_OP_F16TO32,  "f16to32",  1, 1, ALU,    ALU,  INT, EU_GEN(7) | G89),
	ROW(EU_OP_BFREV,    "bfrev",    1, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_BFE,      "bfe",      3, 1, ALU3,   ALU,  INT, G89),
	ROW(EU_OP_BFI1,     "bfi1",     2, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_BFI2,     "bfi2",     3, 1, ALU3,   ALU,  INT, G89),
	ROW(EU_OP_JMPI,     "jmpi",     0, 0, JMPI,   FLOW, PRED, G89),
	ROW(EU_OP_BRD,      "brd",      0, 0, BRANCH, FLOW, PRED, G89),
	ROW(EU_OP_IF,       "if",       0, 0, BRANCH, FLOW, UIP | SHOW | PRED | BCTL, G89),
	ROW(EU_OP_BRC,      "brc",      0, 0, BRANCH, FLOW, UIP | PRED, G89),
	ROW(EU_OP_ELSE,     "else",     0, 0, BRANCH, FLOW, UIP | SHOW | PRED | BCTL, G89),
	ROW(EU_OP_ENDIF,    "endif",    0, 0, BRANCH, FLOW, SHOW | PRED, G89),
	ROW(EU_OP_WHILE,    "while",    0, 0, BRANCH, FLOW, SHOW | PRED, G89),
	ROW(EU_OP_BREAK,    "break",    0, 0, BRANCH, FLOW, UIP | SHOW | PRED, G89),
	ROW(EU_OP_CONTINUE, "cont",     0, 0, BRANCH, FLOW, UIP | SHOW | PRED, G89),
	ROW(EU_OP_HALT,     "halt",     0, 0, BRANCH, FLOW, UIP | SHOW | PRED, G89),
	ROW(EU_OP_CALLA,    "calla",    0, 0, JMPI,   FLOW, PRED, G89),
	ROW(EU_OP_CALL,     "call",     0, 0, JMPI,   FLOW, PRED, G89),
	ROW(EU_OP_RET,      "ret",      0, 0, JMPI,   FLOW, PRED, G89),
	ROW(EU_OP_GOTO,     "goto",     0, 0, BRANCH, FLOW, UIP | PRED | BCTL, G89),
	ROW(EU_OP_JOIN,     "join",     0, 0, BRANCH, FLOW, PRED, G89),
	ROW(EU_OP_WAIT,     "wait",     0, 1, WAIT,   FLOW, PRED, G89),
	ROW(EU_OP_SEND,     "send",     1, 1, SEND,   SEND, 0, G89),
	ROW(EU_OP_SENDC,    "sendc",    1, 1, SEND,   SEND, 0, G89),
	ROW(EU_OP_SENDS,    "sends",    2, 1, SENDS,  SEND, 0, EU_GEN(9)),
	ROW(EU_OP_SENDSC,   "sendsc",   2, 1, SENDS,  SEND, 0, EU_GEN(9)),
	ROW(EU_OP_MATH,     "math",     2, 1, MATH,   ALU,  0, G89),
	ROW(EU_OP_ADD,      "add",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_MUL,      "mul",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_AVG,      "avg",      2, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_FRC,      "frc",      1, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_RNDU,     "rndu",     1, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_RNDD,     "rndd",     1, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_RNDE,     "rnde",     1, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_RNDZ,     "rndz",     1, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_MAC,      "mac",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_MACH,     "mach",     2, 1, ALU,    ALU,  INT | ACC, G89),
	ROW(EU_OP_LZD,      "lzd",      1, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_FBH,      "fbh",      1, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_FBL,      "fbl",      1, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_CBIT,     "cbit",     1, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_ADDC,     "addc",     2, 1, ALU,    ALU,  INT | ACC, G89),
	ROW(EU_OP_SUBB,     "subb",     2, 1, ALU,    ALU,  INT | ACC, G89),
	ROW(EU_OP_SAD2,     "sad2",     2, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_SADA2,    "sada2",    2, 1, ALU,    ALU,  INT, G89),
	ROW(EU_OP_DP4,      "dp4",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_DPH,      "dph",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_DP3,      "dp3",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_DP2,      "dp2",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_LINE,     "line",     2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_PLN,      "pln",      2, 1, ALU,    ALU,  0, G89),
	ROW(EU_OP_MAD,      "mad",      3, 1, ALU3,   ALU,  0, G89),
	ROW(EU_OP_LRP,      "lrp",      3, 1, ALU3,   ALU,  0, G89),
	ROW(EU_OP_MADM,     "madm",     3, 1, ALU3,   ALU,  0, G89),
	ROW(EU_OP_NOP,      "nop",      0, 0, NOP,    FLOW, PRED, G89),
};

const struct eu_opcode_info *eu_opcode_any(unsigned opcode)
{
	return opcode < 128 && opcodes[opcode].name ? &opcodes[opcode] : NULL;
}

const struct eu_opcode_info *eu_opcode_lookup(int gen, unsigned opcode)
{
	const struct eu_opcode_info *op = eu_opcode_any(opcode);
	if (!op || gen < 0 || gen > 15 || !(op->gens & EU_GEN(gen)))
		return NULL;
	return op;
}

const char *eu_opcode_name(unsigned opcode)
{
	const struct eu_opcode_info *op = eu_opcode_any(opcode);
	return op ? op->name : "illegal";
}

bool eu_opcode_shows_targets(unsigned opcode)
{
	const struct eu_opcode_info *op = eu_opcode_any(opcode);
	return op && (op->flags & EU_OPF_SHOWS_TARGETS);
}

int eu_opcode_by_name(int gen, const char *name, unsigned *other_gens)
{
	if (other_gens)
		*other_gens = 0;
	for (unsigned i = 0; i < 128; i++) {
		if (!opcodes[i].name || strcmp(opcodes[i].name, name))
			continue;
		if (eu_opcode_lookup(gen, i))
			return (int)i;
		if (other_gens)
			*other_gens = opcodes[i].gens;
	}
	return -1;
}
