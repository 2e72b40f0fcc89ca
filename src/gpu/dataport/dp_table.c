/* The data ports' message types, one table for the handler and the trace
 * (PRM vol. 7 "Data Port Messages"; the numbers as Mesa's
 * brw_eu_defines.h names them: GFX7_DATAPORT_DC_*, HSW_DATAPORT_DC_PORT0_*
 * and _PORT1_*, GFX8/9_DATAPORT_DC_PORT1_A64_*). The constant cache (SFID
 * 9) takes the read messages of data cache 0 under the same numbers.
 * Entries without a handler are messages Mesa's Gen8/9 3D and compute
 * stages do not emit (SIMD4x2 forms of the vec4 back end, dual block,
 * atomic counters); they fault by name. */
#include "gpu/dataport/dp_priv.h"

#define G89 (DP_GEN8 | DP_GEN9)
#define CC EU_SFID_DP_CC
#define DC0 EU_SFID_DP_DC0
#define DC1 EU_SFID_DP_DC1

static const struct dp_msg_info msgs[] = {
	{ "OWord block read", CC, 0, G89, dp_oword_block_read },
	{ "unaligned OWord block read", CC, 1, G89, dp_oword_block_read },
	{ "OWord dual block read", CC, 2, G89, NULL },
	{ "DWord scattered read", CC, 3, G89, dp_dword_scattered },

	{ "OWord block read", DC0, 0, G89, dp_oword_block_read },
	{ "unaligned OWord block read", DC0, 1, G89, dp_oword_block_read },
	{ "OWord dual block read", DC0, 2, G89, NULL },
	{ "DWord scattered read", DC0, 3, G89, dp_dword_scattered },
	{ "byte scattered read", DC0, 4, G89, dp_byte_scattered },
	{ "memory fence", DC0, 7, G89, dp_fence },
	{ "OWord block write", DC0, 8, G89, dp_oword_block_write },
	{ "OWord dual block write", DC0, 10, G89, NULL },
	{ "DWord scattered write", DC0, 11, G89, dp_dword_scattered },
	{ "byte scattered write", DC0, 12, G89, dp_byte_scattered },
	{ "scratch block read", DC0, 0x10, G89, dp_scratch_block },
	{ "scratch block write", DC0, 0x18, G89, dp_scratch_block },

	{ "untyped surface read", DC1, 1, G89, dp_untyped_rw },
	{ "untyped atomic", DC1, 2, G89, dp_untyped_atomic },
	{ "untyped atomic SIMD4x2", DC1, 3, G89, NULL },
	{ "media block read", DC1, 4, G89, dp_media_block },
	{ "typed surface read", DC1, 5, G89, dp_typed_rw },
	{ "typed atomic", DC1, 6, G89, dp_typed_atomic },
	{ "typed atomic SIMD4x2", DC1, 7, G89, NULL },
	{ "untyped surface write", DC1, 9, G89, dp_untyped_rw },
	{ "media block write", DC1, 10, G89, dp_media_block },
	{ "atomic counter", DC1, 11, G89, NULL },
	{ "atomic counter SIMD4x2", DC1, 12, G89, NULL },
	{ "typed surface write", DC1, 13, G89, dp_typed_rw },
	{ "A64 scattered read", DC1, 0x10, DP_GEN9, dp_a64_scattered },
	{ "A64 untyped surface read", DC1, 0x11, G89, dp_a64_untyped_rw },
	{ "A64 untyped atomic", DC1, 0x12, G89, dp_a64_atomic },
	{ "A64 OWord block read", DC1, 0x14, DP_GEN9, dp_a64_oword_block },
	{ "A64 OWord block write", DC1, 0x15, DP_GEN9, dp_a64_oword_block },
	{ "A64 untyped surface write", DC1, 0x19, G89, dp_a64_untyped_rw },
	{ "A64 scattered write", DC1, 0x1a, G89, dp_a64_scattered },
	{ "untyped atomic float", DC1, 0x1b, DP_GEN9, dp_untyped_atomic_float },
	{ "A64 untyped atomic float", DC1, 0x1d, DP_GEN9, dp_a64_atomic_float },
};

unsigned dp_msg_type(unsigned sfid, uint32_t desc)
{
	unsigned type = (desc >> 14) & 0x1f;
	/* data cache 0: descriptor bit 18 selects the scratch block
	 * messages, bit 17 their direction */
	if (sfid == DC0 && (type & 0x10))
		type &= 0x18;
	return type;
}

const struct dp_msg_info *dp_msg_lookup(unsigned sfid, unsigned type)
{
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		if (msgs[i].sfid == sfid && msgs[i].type == type)
			return &msgs[i];
	return NULL;
}
