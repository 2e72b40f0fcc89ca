/* The sampler's message table (internal): for each message type the
 * descriptor names (PRM vol. 7 "Sampler Message Types"; the numbers are
 * Mesa's brw_eu_defines.h GFX*_SAMPLER_MESSAGE_*), what it computes, where
 * its LOD comes from and its parameters in payload order after the header
 * (Mesa's lower_sampler_logical_send: one register per 8 channels in
 * SIMD8/SIMD16). The handler reads the payload through it and the trace
 * names the message from it. */
#ifndef GTSIM_SFID_SAMPLER_MSG_H
#define GTSIM_SFID_SAMPLER_MSG_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/eu/send.h"

/* What a payload parameter means. */
enum smp_param {
	P_NONE, P_U, P_V, P_R, P_AI, P_REF, P_BIAS, P_LOD, P_MLOD,
	P_DUDX, P_DUDY, P_DVDX, P_DVDY, P_DRDX, P_DRDY,
	P_OFFU, P_OFFV,             /* gather4_po: per-channel texel offsets */
	P_SI, P_MCSL, P_MCSH,       /* ld2dms*: sample index, MCS value */
	P_NUM
};

/* What a message computes. */
enum smp_op {
	OP_SAMPLE,                  /* filtered lookup (sample*) */
	OP_GATHER,                  /* gather4*: four texels' channel */
	OP_LD,                      /* ld, ld_lz: one texel by integer coordinates */
	OP_LD_MS,                   /* ld2dms, ld2dss, ld2dms_w: one sample */
	OP_LD_MCS,                  /* ld_mcs: the MCS value of a pixel */
	OP_RESINFO, OP_SAMPLEINFO,  /* sizes, sample count */
	OP_LOD,                     /* lod: the LOD a sample would use */
};

/* Where the LOD comes from. */
enum smp_lod_src {
	LOD_IMPLICIT,               /* from the 2x2 subspan (PS), 0 elsewhere */
	LOD_BIASED,                 /* implicit plus the bias parameter */
	LOD_EXPLICIT,               /* the lod parameter */
	LOD_ZERO,                   /* *_lz, gather4 */
	LOD_GRADIENTS,              /* the derivative parameters (sample_d*) */
};

#define SMP_MAX_PARAMS 12

struct smp_msg {
	const char *name;
	uint8_t type;               /* descriptor 16:12 */
	uint8_t min_gen, max_gen;
	uint8_t op;                 /* enum smp_op */
	uint8_t lod;                /* enum smp_lod_src */
	bool compare;               /* shadow reference parameter */
	bool integer;               /* integer parameters */
	uint8_t params[SMP_MAX_PARAMS];
};

/* The message of descriptor type `type` on generation gen, or NULL when
 * that generation has none. *exists (optional) says whether another
 * generation has it. */
const struct smp_msg *smp_msg_lookup(int gen, unsigned type, bool *exists);

/* One message's parameters: per parameter, the register holding channels
 * 0-7 (8-15 in the next), or NULL when the payload stops before it (reads
 * as 0, as the hardware reads missing trailing parameters). */
struct smp_msg_in {
	const uint8_t *reg[P_NUM][2];
	bool present[P_NUM];
	unsigned n;                 /* channels: 8 or 16 */
};

/* Fill in from the payload registers after the header (first: the first
 * parameter register). */
void smp_msg_read(const struct smp_msg *m, struct eu_thread *t, const struct eu_send *msg,
		  unsigned first, struct smp_msg_in *in);
uint32_t smp_in_ud(const struct smp_msg_in *in, unsigned p, unsigned ch);
float smp_in_f(const struct smp_msg_in *in, unsigned p, unsigned ch);

#endif
