/* The EU instruction set module: decode, encode, compaction (Gen8/Gen9).
 *
 * Bytes <-> struct eu_inst (inst.h). Native instructions are 16 bytes,
 * compacted ones 8 bytes (bit 29, CmptCtrl, tells them apart). Branch
 * offsets (jip/uip) are byte offsets relative to the branch instruction,
 * as Gen8 encodes them. */
#ifndef GTSIM_EU_ISA_H
#define GTSIM_EU_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/eu/inst.h"

#include "gpu/eu/opcodes.h"

/* Element size in bytes of an enum eu_type (V/UV/VF: 4). */
unsigned eu_type_size(unsigned type);
/* Mesa's letters: "UD", "F", ... */
const char *eu_type_letters(unsigned type);
/* Register-file hardware type codes (Gen8 "Source/Destination Register
 * Type"), -1 when not encodable. */
int eu_type_to_hw(unsigned type, bool imm);
int eu_type_from_hw(unsigned hw, bool imm);

/* VF: the 8-bit restricted float of vector immediates (PRM "Vector
 * Immediate": sign, 3-bit exponent biased by 3, 4-bit mantissa). */
float eu_vf_to_float(uint8_t vf);
int eu_float_to_vf(float f);   /* -1 if not exactly representable */

/* Decode one instruction. Returns 0 or -1 (undefined opcode, illegal
 * encoding, or fewer than 8/16 bytes available); never reads past avail. */
int eu_decode(int gen, const void *bytes, size_t avail, struct eu_inst *out,
	      size_t *consumed);
/* Decode a native 128-bit instruction given as two little-endian qwords. */
int eu_decode_native(int gen, const uint64_t q[2], struct eu_inst *out);

/* Encode; returns 16, 8 (when try_compact and the hardware allows it), or
 * -1 when the instruction cannot be encoded. */
int eu_encode(int gen, const struct eu_inst *inst, uint8_t out[16],
	      bool try_compact);
int eu_encode_native(int gen, const struct eu_inst *inst, uint64_t q[2]);
/* For programs built through the C API: compacts whenever the hardware
 * allows, first as is, then after the type rewrites that do not change
 * what the instruction computes (Mesa's precompact: src1 type of an
 * immediate src0 cleared, 0.0F immediate as VF, dst:D/imm:D as UD).
 * Returns 8 or 16, or -1. */
int eu_encode_best(int gen, const struct eu_inst *inst, uint8_t out[16]);

/* Compaction (compact_*.c). eu_compact returns true and fills c when the
 * native instruction q has a compacted form; eu_uncompact expands one. */
bool eu_compact(int gen, const uint64_t q[2], uint64_t *c);
int eu_uncompact(int gen, uint64_t c, uint64_t q[2]);

/* A whole program decoded once. */
struct eu_program {
	struct eu_inst *insts;
	uint32_t *offsets;       /* byte offset of each instruction */
	size_t count;
	size_t size;             /* bytes decoded */
};

/* Returns 0, or -1 with *bad_offset set to the first undecodable byte
 * offset (insts decoded before it are kept). */
int eu_program_decode(int gen, const void *bytes, size_t len,
		      struct eu_program *prog, size_t *bad_offset);
void eu_program_free(struct eu_program *prog);
/* Index of the instruction at byte offset off, or -1. */
long eu_program_index(const struct eu_program *prog, uint32_t off);

#endif
