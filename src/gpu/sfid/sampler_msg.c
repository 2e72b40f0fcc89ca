/* The sampler's message table: the facts of PRM vol. 7 "Sampler Message
 * Types" / "Message Format" per type, in the parameter orders Mesa's
 * lower_sampler_logical_send builds for Gen8/Gen9 (the same for SIMD8 and
 * SIMD16: each parameter one register per 8 channels). Missing trailing
 * parameters read as 0. */
#include <string.h>

#include "gpu/sfid/sampler_msg.h"

#define COORDS P_U, P_V, P_R, P_AI
#define GRADS P_U, P_DUDX, P_DUDY, P_V, P_DVDX, P_DVDY, P_R, P_DRDX, P_DRDY, P_AI

static const struct smp_msg msgs[] = {
	{ "sample", 0, 8, 9, OP_SAMPLE, LOD_IMPLICIT, false, false, { COORDS, P_MLOD } },
	{ "sample_b", 1, 8, 9, OP_SAMPLE, LOD_BIASED, false, false, { P_BIAS, COORDS, P_MLOD } },
	{ "sample_l", 2, 8, 9, OP_SAMPLE, LOD_EXPLICIT, false, false, { P_LOD, COORDS } },
	{ "sample_c", 3, 8, 9, OP_SAMPLE, LOD_IMPLICIT, true, false, { P_REF, COORDS, P_MLOD } },
	{ "sample_d", 4, 8, 9, OP_SAMPLE, LOD_GRADIENTS, false, false, { GRADS, P_MLOD } },
	{ "sample_b_c", 5, 8, 9, OP_SAMPLE, LOD_BIASED, true, false,
	  { P_REF, P_BIAS, COORDS, P_MLOD } },
	{ "sample_l_c", 6, 8, 9, OP_SAMPLE, LOD_EXPLICIT, true, false, { P_REF, P_LOD, COORDS } },
	/* ld: u, lod, v, r on Gen8; Gen9 moved lod after v */
	{ "ld", 7, 8, 8, OP_LD, LOD_EXPLICIT, false, true, { P_U, P_LOD, P_V, P_R } },
	{ "ld", 7, 9, 9, OP_LD, LOD_EXPLICIT, false, true, { P_U, P_V, P_LOD, P_R } },
	{ "gather4", 8, 8, 9, OP_GATHER, LOD_ZERO, false, false, { COORDS } },
	{ "lod", 9, 8, 9, OP_LOD, LOD_IMPLICIT, false, false, { COORDS } },
	{ "resinfo", 10, 8, 9, OP_RESINFO, LOD_EXPLICIT, false, true, { P_LOD } },
	{ "sampleinfo", 11, 8, 9, OP_SAMPLEINFO, LOD_ZERO, false, true, { P_NONE } },
	{ "gather4_c", 16, 8, 9, OP_GATHER, LOD_ZERO, true, false, { P_REF, COORDS } },
	/* offsets: signed integers in the low 6 bits, per channel */
	{ "gather4_po", 17, 8, 9, OP_GATHER, LOD_ZERO, false, false,
	  { P_U, P_V, P_OFFU, P_OFFV, P_R } },
	{ "gather4_po_c", 18, 8, 9, OP_GATHER, LOD_ZERO, true, false,
	  { P_REF, P_U, P_V, P_OFFU, P_OFFV, P_R } },
	{ "sample_d_c", 20, 8, 9, OP_SAMPLE, LOD_GRADIENTS, true, false, { P_REF, GRADS, P_MLOD } },
	{ "sample_lz", 24, 9, 9, OP_SAMPLE, LOD_ZERO, false, false, { COORDS } },
	{ "sample_c_lz", 25, 9, 9, OP_SAMPLE, LOD_ZERO, true, false, { P_REF, COORDS } },
	{ "ld_lz", 26, 9, 9, OP_LD, LOD_ZERO, false, true, { P_U, P_V, P_R } },
	{ "ld2dms_w", 28, 9, 9, OP_LD_MS, LOD_EXPLICIT, false, true,
	  { P_SI, P_MCSL, P_MCSH, P_U, P_V, P_R, P_LOD } },
	{ "ld_mcs", 29, 8, 9, OP_LD_MCS, LOD_EXPLICIT, false, true, { P_U, P_V, P_R, P_LOD } },
	{ "ld2dms", 30, 8, 9, OP_LD_MS, LOD_EXPLICIT, false, true,
	  { P_SI, P_MCSL, P_U, P_V, P_R, P_LOD } },
	{ "ld2dss", 31, 8, 9, OP_LD_MS, LOD_EXPLICIT, false, true, { P_SI, P_U, P_V, P_R, P_LOD } },
};

const struct smp_msg *smp_msg_lookup(int gen, unsigned type, bool *exists)
{
	if (exists)
		*exists = false;
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		if (msgs[i].type != type)
			continue;
		if (exists)
			*exists = true;
		if (gen >= msgs[i].min_gen && gen <= msgs[i].max_gen)
			return &msgs[i];
	}
	return NULL;
}

void smp_msg_read(const struct smp_msg *m, struct eu_thread *t, const struct eu_send *msg,
		  unsigned first, struct smp_msg_in *in)
{
	unsigned per = in->n / 8;
	memset(in->reg, 0, sizeof(in->reg));
	memset(in->present, 0, sizeof(in->present));
	for (unsigned p = 0; p < SMP_MAX_PARAMS && m->params[p]; p++) {
		unsigned k = m->params[p];
		for (unsigned r = 0; r < per; r++) {
			unsigned reg = first + p * per + r;
			in->reg[k][r] = reg < msg->mlen ? eu_send_payload(t, msg, reg) : NULL;
		}
		in->present[k] = in->reg[k][0] != NULL;
	}
}

uint32_t smp_in_ud(const struct smp_msg_in *in, unsigned p, unsigned ch)
{
	const uint8_t *r = in->reg[p][ch / 8];
	uint32_t v = 0;
	if (r)
		memcpy(&v, r + 4 * (ch % 8), 4);
	return v;
}

float smp_in_f(const struct smp_msg_in *in, unsigned p, unsigned ch)
{
	uint32_t u = smp_in_ud(in, p, ch);
	float f;
	memcpy(&f, &u, 4);
	return f;
}
