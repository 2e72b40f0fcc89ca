/* eu_encode_best: compaction "whenever the hardware allows" for programs
 * built through the C API. Compacted tables only hold some type
 * combinations (PRM "EU Compact Instruction Format"), so a few rewrites
 * that keep the result identical are tried, as Mesa's compiler does. */
#include <string.h>

#include "gpu/eu/isa.h"

static bool rewrite(const struct eu_inst *in, struct eu_inst *out)
{
	*out = *in;
	const struct eu_operand *s0 = &in->src[0];
	if (s0->file != EU_FILE_IMM || eu_type_size(s0->type) == 8)
		return false;
	/* "Non-present operands": src1 of a one-source instruction. */
	out->src[1].type = EU_TYPE_UD;
	/* 0.0F written as the vector float 0 (all four lanes 0.0). */
	if (s0->type == EU_TYPE_F && (uint32_t)s0->imm == 0 &&
	    in->dst.type == EU_TYPE_F && in->dst.hstride == 1)
		out->src[0].type = EU_TYPE_VF;
	/* A small D immediate moved to a D register: UD gives the same bits
	 * (no condition modifier looks at the sign). */
	int32_t v = (int32_t)s0->imm;
	if (s0->type == EU_TYPE_D && in->dst.type == EU_TYPE_D && !in->cond &&
	    !in->saturate && (v >> 12 == 0 || v >> 12 == -1)) {
		out->src[0].type = EU_TYPE_UD;
		out->dst.type = EU_TYPE_UD;
	}
	return memcmp(out, in, sizeof(*in)) != 0;
}

int eu_encode_best(int gen, const struct eu_inst *inst, uint8_t out[16])
{
	int n = eu_encode(gen, inst, out, true);
	if (n != 16)
		return n;
	struct eu_inst alt;
	uint8_t tmp[16];
	if (rewrite(inst, &alt) && eu_encode(gen, &alt, tmp, true) == 8) {
		memcpy(out, tmp, 8);
		return 8;
	}
	return 16;
}
