/* The EU opcode table: the one place that says which opcodes exist on
 * which generation and what they are (PRM vol. 7 "EU ISA", opcode
 * encodings; mnemonics as Mesa's disassembler spells them). The decoder,
 * encoder, compaction, disassembler, assembler and executor all read it. */
#ifndef GTSIM_EU_OPCODES_H
#define GTSIM_EU_OPCODES_H

#include <stdbool.h>
#include <stdint.h>

/* What an opcode looks like in the encoding. */
enum eu_op_kind {
	EU_KIND_ALU = 0,     /* dst + nsrc sources */
	EU_KIND_ALU3,        /* 3-source (align16 on gen8/9) */
	EU_KIND_MATH,        /* math: function in the CondModifier field */
	EU_KIND_BRANCH,      /* if/else/endif/while/break/cont/halt/goto/join/
			      * brd/brc: JIP in bits 127:96 [UIP in 95:64] */
	EU_KIND_JMPI,        /* jmpi/call/calla/ret: ordinary operands */
	EU_KIND_SEND,        /* send/sendc */
	EU_KIND_SENDS,       /* sends/sendsc (gen9) */
	EU_KIND_WAIT,        /* wait n0.x */
	EU_KIND_NOP,
};

/* Which executor handler runs the opcode (exec_translate.c maps these to
 * its functions). EU_EXEC_NONE: defined by the hardware, not implemented
 * by gtsim: executing it is a thread fault saying so. */
enum eu_exec_entry {
	EU_EXEC_NONE = 0,
	EU_EXEC_ALU,         /* exec_alu.c (and the fast paths) */
	EU_EXEC_FLOW,        /* exec_flow.c: branches, wait, nop */
	EU_EXEC_SEND,        /* exec_send.c */
};

/* Facts the executor and disassembler need about an opcode. */
enum eu_op_flag {
	EU_OPF_UIP = 1u << 0,          /* branch with UIP as well as JIP */
	EU_OPF_SHOWS_TARGETS = 1u << 1,/* Mesa's disassembler prints JIP/UIP
					* (brw_has_jip) and labels them */
	EU_OPF_LOGIC = 1u << 2,        /* negate means bitwise NOT */
	EU_OPF_INT = 1u << 3,          /* computes on integers whatever the
					* types (bit ops, shifts, avg, ...) */
	EU_OPF_ACC_IMPLICIT = 1u << 4, /* writes acc itself (addc/subb/mach) */
	EU_OPF_COND_SELECTS = 1u << 5, /* sel/csel: the conditional modifier
					* chooses, no flag is written */
	EU_OPF_PRED_OPERAND = 1u << 6, /* the predicate is an input (sel), not
					* a channel mask */
	EU_OPF_BRANCH_CTRL = 1u << 7,  /* bit 28 is BranchCtrl, not AccWrEn */
};

#define EU_GEN(n) (1u << (n))

struct eu_opcode_info {
	const char *name;    /* Mesa's spelling */
	uint8_t nsrc, ndst;  /* operands as the text shows them */
	uint8_t kind;        /* enum eu_op_kind */
	uint8_t exec;        /* enum eu_exec_entry */
	uint16_t flags;      /* enum eu_op_flag */
	uint16_t gens;       /* EU_GEN(8) | EU_GEN(9) ... */
	bool has_uip;        /* == flags & EU_OPF_UIP */
};

/* NULL when the opcode is undefined on that generation. */
const struct eu_opcode_info *eu_opcode_lookup(int gen, unsigned opcode);
/* The row whatever the generation (names for traces), or NULL. */
const struct eu_opcode_info *eu_opcode_any(unsigned opcode);
/* The mnemonic, or "illegal". */
const char *eu_opcode_name(unsigned opcode);
/* True for the branches whose JIP/UIP Mesa's disassembler prints. */
bool eu_opcode_shows_targets(unsigned opcode);
/* Opcode number for a mnemonic on gen, or -1; *other_gens (may be NULL)
 * gets the gens that have it when gen does not (0: no such mnemonic). */
int eu_opcode_by_name(int gen, const char *name, unsigned *other_gens);

#endif
