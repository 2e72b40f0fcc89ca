/* The URB as the shared function `send ... urb` reaches (PRM vol. 7 "URB
 * messages"): a memory divided into per-stage partitions of entries by
 * 3DSTATE_URB_*. A handle is the URB address of an entry in 64-byte units.
 * Any access outside the entry its handle names is a GPU fault. */
#ifndef GTSIM_SFID_URB_H
#define GTSIM_SFID_URB_H

#include <stdint.h>
#include <string.h>

#include "gpu/eu/send.h"

#define URB_NUM_PARTS 4   /* VS, HS, DS, GS */

struct urb_space {
	uint8_t *mem;
	uint32_t bytes;
	struct {
		uint32_t first;       /* byte offset of entry 0 */
		uint32_t entry_bytes; /* 0: partition unused */
		uint32_t entries;
	} part[URB_NUM_PARTS];
};

/* Bytes [off, off + n) of the entry `handle` names, or NULL (and *why)
 * when the handle is not the start of an entry or the range leaves it. */
uint8_t *urb_entry_bytes(const struct urb_space *u, uint32_t handle, uint32_t off,
			 uint32_t n, const char **why);

/* DWord i of a message register. */
static inline uint32_t urb_reg_dw(const uint8_t *reg, unsigned i)
{
	uint32_t v;
	memcpy(&v, reg + 4 * i, 4);
	return v;
}

/* sfid_handler for EU_SFID_URB; ctx is a struct urb_space. SIMD8 write and
 * read (opcodes 7, 8) with global offset, per-slot offsets and channel
 * masks, offsets in 128-bit units; the SIMD4x2 HWord and OWord writes
 * (opcodes 0, 1: urb_simd4x2_write). */
int urb_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg);

/* URB_WRITE_HWORD (hword) or URB_WRITE_OWORD of a SIMD4x2 thread
 * (urb_simd4x2.c). */
int urb_simd4x2_write(const struct urb_space *u, struct eu_thread *t, const struct eu_send *msg,
		      bool hword);

#endif
