/* STATE_BASE_ADDRESS (PRM vol. 2a): the five base addresses that the 3D and
 * the GPGPU pipelines add to their state offsets. The command streamer owns
 * this state (both pipelines read it); each pipeline keeps a copy in its own
 * per-context state and applies the command through this one decoder. */
#ifndef GTSIM_CS_BASE_ADDRESS_H
#define GTSIM_CS_BASE_ADDRESS_H

#include <stdint.h>

struct cs_base_address {
	uint64_t general;     /* General State Base Address (scratch) */
	uint64_t surface;     /* Surface State Base Address (binding tables) */
	uint64_t dynamic;     /* Dynamic State Base Address (samplers, CURBE, IDs) */
	uint64_t indirect;    /* Indirect Object Base Address */
	uint64_t instruction; /* Instruction Base Address (kernel start pointers) */
};

/* Applies one STATE_BASE_ADDRESS command (dw[0..len)) on generation gen:
 * each base changes only when its Modify Enable bit is set. */
void cs_base_address_apply(struct cs_base_address *b, int gen, const uint32_t *dw, uint32_t len);

#endif
