/* The sampling engine as the shared function `send ... sampler` (SFID 2)
 * reaches (PRM vol. 7 "Sampler", "Sampling Engine Messages"; message
 * types as Mesa's brw_eu_defines.h names them, GEN5_SAMPLER_MESSAGE_*).
 *
 * Descriptor: 7:0 binding table index, 11:8 sampler index, 16:12 message
 * type, 18:17 SIMD mode (1 SIMD8, 2 SIMD16; 0 SIMD4x2 faults). Each type's
 * parameters are in sampler_msg.c's table. An optional one-register
 * header: M0.2 bits 11:8/7:4/3:0 the U/V/R texel offsets (signed 4-bit),
 * 15:12 the channels NOT to return (A, B, G, R from bit 15 down), 17:16
 * the gather4 channel; M0.3 the sampler state pointer (from Dynamic State
 * Base Address) replacing the thread's. Then the parameters, each one
 * register per 8 channels. The response is, for each returned channel R,
 * G, B, A in order, one register per 8 channels.
 *
 * The surface comes from RENDER_SURFACE_STATE through the thread's binding
 * table, the filtering from SAMPLER_STATE; texels are read through the
 * address space with the format module's unpack. An unsupported message
 * type, SIMD mode, surface or SAMPLER_STATE feature is a thread fault
 * naming it. */
#ifndef GTSIM_SFID_SAMPLER_H
#define GTSIM_SFID_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/mem/mem.h"
#include "gpu/eu/send.h"

/* What the dispatcher of a thread gives the sampler (the hardware passes
 * the binding table and sampler state pointers with the thread). */
struct sampler_unit {
	int gen;                    /* 8 or 9 */
	struct gt_vm vm;            /* the batch's address space */
	uint64_t surface_base;      /* Surface State Base Address */
	uint64_t dynamic_base;      /* Dynamic State Base Address */
	uint32_t binding_table;     /* offset from surface_base */
	uint32_t sampler_state;     /* offset from dynamic_base */
	bool pixel_shader;          /* channels form 2x2 subspans: implicit LOD */
};

/* Fill a unit (gen, vm, bases, the stage's 3DSTATE_BINDING_TABLE_POINTERS
 * and 3DSTATE_SAMPLER_STATE_POINTERS offsets). */
void sampler_unit_init(struct sampler_unit *u, int gen, const struct gt_vm *vm,
		       uint64_t surface_base, uint64_t dynamic_base,
		       uint32_t binding_table, uint32_t sampler_state, bool pixel_shader);

/* sfid_handler for EU_SFID_SAMPLER; ctx is a struct sampler_unit. */
int sampler_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg);

/* Message types (descriptor 16:12). */
enum sampler_msg {
	SMP_SAMPLE = 0, SMP_SAMPLE_B = 1, SMP_SAMPLE_L = 2, SMP_SAMPLE_C = 3,
	SMP_SAMPLE_D = 4, SMP_SAMPLE_B_C = 5, SMP_SAMPLE_L_C = 6, SMP_LD = 7,
	SMP_GATHER4 = 8, SMP_LOD = 9, SMP_RESINFO = 10, SMP_SAMPLEINFO = 11,
	SMP_GATHER4_C = 16, SMP_GATHER4_PO = 17, SMP_GATHER4_PO_C = 18, SMP_SAMPLE_D_C = 20,
	SMP_SAMPLE_LZ = 24, SMP_SAMPLE_C_LZ = 25, SMP_LD_LZ = 26, SMP_LD2DMS_W = 28,
	SMP_LD_MCS = 29, SMP_LD2DMS = 30, SMP_LD2DSS = 31,
};

#endif
