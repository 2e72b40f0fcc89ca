/* The command tables: one per generation, generated from the description
 * (desc/genN.cmds, docs/cmd.md), describing every command the engines parse
 * (MI, 3D, media/GPGPU, blitter, video), the state structures those
 * commands point at and the registers. The command streamer finds commands
 * by header here; execution code reads and writes fields only through the
 * typed structs of cmd_structs.h; field access by table (cmd_field_value)
 * is for the decoder, and look-ups by name are in cmd_names.h.
 *
 * Bit positions follow the PRM's convention: a field spans bits
 * [start, end] counted from bit 0 of DWord 0 (DWord n bit b is n*32+b).
 * Fields inside a group (a repeated part, e.g. the register/value pairs of
 * MI_LOAD_REGISTER_IMM) count from the start of one group element. */
#ifndef GTSIM_CMD_CMD_H
#define GTSIM_CMD_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/devinfo.h"

enum cmd_type {
	CMD_T_UINT,
	CMD_T_INT,       /* two's complement over the field's width */
	CMD_T_BOOL,
	CMD_T_ADDRESS,   /* graphics address, kept in place (low bits zero) */
	CMD_T_OFFSET,    /* offset (register offset, state offset), in place */
	CMD_T_FLOAT,     /* IEEE single */
	CMD_T_UFIXED,    /* unsigned fixed point, frac fraction bits */
	CMD_T_SFIXED,    /* signed fixed point */
	CMD_T_ENUM,      /* uint with value names */
	CMD_T_STRUCT,    /* a nested structure (sub) */
	CMD_T_MBO,       /* must be one */
};

struct cmd_value {
	uint32_t value;
	const char *name;
};

struct cmd_desc;

struct cmd_field {
	const char *name;
	uint16_t start, end;          /* bits, see above */
	uint8_t type;                 /* enum cmd_type */
	uint8_t frac;                 /* fraction bits of u/sfixed */
	/* Group: 0 when the field is not in one. Otherwise the group starts at
	 * bit group_start of the command, each element is group_size bits,
	 * and there are group_count elements (0: as many as the length has). */
	uint16_t group_count;
	uint16_t group_start, group_size;
	uint8_t in_group;
	uint16_t num_values;
	const struct cmd_value *values;
	const struct cmd_desc *sub;   /* CMD_T_STRUCT */
	/* ';'-separated names of the fields whose bits this one overlays (the
	 * PRM's alternative meanings of the same bits), NULL when none. */
	const char *alt;
};

/* Engines a command is valid on. */
#define CMD_RCS (1u << ENGINE_RCS)
#define CMD_BCS (1u << ENGINE_BCS)
#define CMD_VCS (1u << ENGINE_VCS)
#define CMD_VECS (1u << ENGINE_VECS)
#define CMD_ALL (CMD_RCS | CMD_BCS | CMD_VCS | CMD_VECS)

/* Privilege (seed 004: a privileged command in a non-privileged batch
 * executes as MI_NOOP). */
#define CMD_PRIV_FIELDS 2

enum cmd_priv {
	CMD_PRIV_NONE,
	CMD_PRIV_ALWAYS,   /* privileged command */
	CMD_PRIV_GGTT,     /* privileged when a priv_fields field selects the GGTT */
	CMD_PRIV_REG,      /* privileged when it writes a privileged register */
};

/* cmd_desc.flags */
#define CMD_F_HW_NOOP 1u   /* a no-op on the hardware too (MI_NOOP, MI_ARB_CHECK...) */
#define CMD_F_MASKED 2u    /* a masked register: bit n+16 enables the write of bit n */

struct cmd_desc {
	const char *name;
	uint16_t id;                  /* enum cmd_id / cmd_struct_id / cmd_reg_id */
	uint32_t match, mask;         /* header: (dw0 & mask) == match */
	uint32_t len_mask;            /* DWord Length field in dw0, 0: fixed */
	uint8_t bias;                 /* total dwords = DWord Length + bias */
	uint16_t length;              /* default/fixed total length, dwords */
	/* shortest total length the hardware accepts; the dwords it leaves
	 * out read as zero (docs/cmd.md `minlength`) */
	uint16_t min_length;
	uint8_t engines;              /* CMD_* bits; 0 for structures */
	uint8_t priv;                 /* enum cmd_priv */
	/* CMD_PRIV_GGTT: the bool/enum fields selecting the GGTT (NULL: none) */
	const struct cmd_field *priv_fields[CMD_PRIV_FIELDS];
	uint8_t flags;                /* CMD_F_* */
	uint16_t num_fields;
	const struct cmd_field *fields;
};

struct cmd_table {
	int gen;
	uint16_t num_cmds, num_structs, num_regs;
	const struct cmd_desc *cmds;
	const struct cmd_desc *structs;
	const struct cmd_desc *regs;  /* registers (length 1 or 2 dwords) */
};

/* The table of generation 8 or 9, NULL for another. */
const struct cmd_table *cmd_table(int gen);

/* The command whose header is dw0, valid on engine; NULL when none. A
 * command of the table that is not valid on that engine is NULL too. */
const struct cmd_desc *cmd_find(int gen, enum gt_engine_id engine, uint32_t dw0);
/* The command matching dw0 on any engine (the decoder's fallback). */
const struct cmd_desc *cmd_find_any(int gen, uint32_t dw0);
/* The command whose id is id (enum cmd_id of cmd_structs.h, e.g.
 * CMD_ID_3DSTATE_VS), NULL when generation gen has none. */
const struct cmd_desc *cmd_find_id(int gen, unsigned id);

/* Total length in dwords of the command starting with dw0. */
uint32_t cmd_length(const struct cmd_desc *d, uint32_t dw0);
/* Value of DWord Length for a command of total length dwords. */
uint32_t cmd_length_field(const struct cmd_desc *d, uint32_t dwords);

/* Raw value of field f from dwords dw (len dwords; 0 beyond them). For a
 * group field, element index. Addresses and offsets keep their bits in
 * place; other fields are shifted down to bit 0. Signed types are sign
 * extended. */
uint64_t cmd_field_value(const struct cmd_field *f, const uint32_t *dw,
			 uint32_t len, uint32_t index);
/* The same with the field's bits counted from base_bit (a structure
 * nested at any bit of a command). */
uint64_t cmd_field_value_at(const struct cmd_field *f, const uint32_t *dw,
			    uint32_t len, uint64_t base_bit);
/* Absolute first bit of field f in element index (for a nested structure:
 * pass it as base_bit of its fields). */
uint64_t cmd_field_bit(const struct cmd_field *f, uint32_t index);
/* Number of elements of the group holding f in a command of len dwords. */
uint32_t cmd_group_count(const struct cmd_field *f, uint32_t len);
/* Store value into field f (element index) of dw. Returns -1 when the
 * value does not fit or the field is past len. */
int cmd_field_pack(const struct cmd_field *f, uint32_t *dw, uint32_t len,
		   uint32_t index, uint64_t value);
/* A new command's dword 0..n with the header and default length set. */
void cmd_init(const struct cmd_desc *d, uint32_t *dw, uint32_t len);
/* Name of value v of an enum field, NULL when it has none. */
const char *cmd_value_name(const struct cmd_field *f, uint64_t v);

#endif
