/* The data ports as the shared functions `send` reaches (PRM vol. 7
 * "Data Port", "Shared Functions"): the constant cache (SFID 9: OWord block
 * reads of pull constants and UBOs), data cache 0 (SFID 10: scratch block
 * read/write, OWord block, byte and dword scattered, SLM) and data cache 1
 * (SFID 12: untyped and typed surface read/write and atomics, A64
 * messages, memory fences).
 *
 * A message names its surface by binding table index (descriptor 7:0):
 * a RENDER_SURFACE_STATE through the thread's binding table, 254 the
 * thread group's shared local memory, 255 stateless (Gen8: General State
 * Base Address relative; Gen9 A64 messages take 64-bit addresses).
 * Out-of-bounds reads return 0 and writes are dropped, as the PRM says. */
#ifndef GTSIM_DATAPORT_H
#define GTSIM_DATAPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/mem/mem.h"
#include "gpu/eu/send.h"

/* What the dispatcher of a thread gives the data port (the hardware passes
 * the binding table pointer with the thread; the scratch offset comes in
 * the thread's R0.5, written by the dispatcher). */
struct dp_unit {
	int gen;                    /* 8 or 9 */
	struct gt_vm vm;            /* the batch's address space */
	uint64_t general_base;      /* General State Base Address */
	uint64_t surface_base;      /* Surface State Base Address */
	uint64_t dynamic_base;      /* Dynamic State Base Address */
	uint32_t binding_table;     /* offset from surface_base */
	/* the stage's scratch space (3DSTATE_VS/PS/..., MEDIA_VFE_STATE):
	 * Scratch Space Base Pointer from General State Base, bytes per
	 * thread; 0: the stage has none */
	uint64_t scratch_base;
	uint32_t scratch_per_thread;
	/* the thread group's shared local memory (compute); NULL: none */
	uint8_t *slm;
	uint32_t slm_size;
};

/* Fill a unit from the stage's state; no scratch and no SLM. */
void dp_unit_init(struct dp_unit *u, int gen, const struct gt_vm *vm,
		  uint64_t general_base, uint64_t surface_base,
		  uint64_t dynamic_base, uint32_t binding_table);

/* sfid_handler for EU_SFID_DP_CC, EU_SFID_DP_DC0 and EU_SFID_DP_DC1;
 * ctx is a struct dp_unit. A message type the unit does not implement is
 * a thread fault naming it. */
int dp_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg);

#endif
