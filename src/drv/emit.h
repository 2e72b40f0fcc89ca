/* State emitters built on the generated command code (gpu/cmd/cmd_structs.h):
 * a command is a typed struct packed by its generated cmd_<NAME>_pack(), so
 * a misspelt field is a compile error; buffer addresses become relocations.
 * Never a look-up of a field by its name.
 *
 *	GTDRV_EMIT(b, 3DSTATE_VF_TOPOLOGY, .primitive_topology_type = 5);
 *
 * packs the command at its usual length for the batch's generation and
 * appends it. A command with relocations or a length of its own is packed
 * in three steps:
 *
 *	uint32_t len = cmd_MI_STORE_REGISTER_MEM_length(gen);
 *	uint32_t *dw = gtdrv_cmd_start(b, len);
 *	struct cmd_MI_STORE_REGISTER_MEM srm = { .register_address = reg,
 *		.memory_address = bo->offset + offset };
 *	gtdrv_cmd_reloc(b, cmd_MI_STORE_REGISTER_MEM_memory_address_bit(gen), bo, rd, wd);
 *	return gtdrv_cmd_end(b, "MI_STORE_REGISTER_MEM",
 *			     cmd_MI_STORE_REGISTER_MEM_pack(gen, dw, len, &srm));
 */
#ifndef GTSIM_DRV_EMIT_H
#define GTSIM_DRV_EMIT_H

#include "drv/batch.h"
#include "drv/urb_config.h"
#include "gpu/cmd/cmd_structs.h"

/* Start a command of len dwords (at most GTDRV_CMD_MAX): its zeroed
 * dwords, to pack into. Never NULL. */
uint32_t *gtdrv_cmd_start(struct gtdrv_batch *b, uint32_t len);
/* The address field at bit `bit` of the command (cmd_<NAME>_<field>_bit(),
 * plus the bit where a nested structure starts) holds bo's presumed offset
 * plus a delta: relocate it at submission. bit < 0 (no such field on this
 * generation) makes the command fail. */
void gtdrv_cmd_reloc(struct gtdrv_batch *b, int bit, struct gtdrv_bo *bo,
		     uint32_t read_domains, uint32_t write_domain);
/* Append the command (BEGIN/OUT/ADVANCE and its relocations) when packed,
 * the pack's result, is 0; otherwise report name and fail the batch with
 * -EINVAL. Returns the batch's error (0 when all is well). */
int gtdrv_cmd_end(struct gtdrv_batch *b, const char *name, int packed);

/* The command's usual length on the batch's generation, 0 when it has
 * none there or it is longer than GTDRV_CMD_MAX (its pack then fails). */
#define GTDRV_CMD_LEN(b, NAME) \
	(cmd_##NAME##_length((b)->drv->gen) <= GTDRV_CMD_MAX ? cmd_##NAME##_length((b)->drv->gen) : 0)

/* One command with its usual length and no relocations, in one call; the
 * arguments initialize struct cmd_NAME (designated fields, or 0 for all
 * zero). Evaluates to the batch's error. */
#define GTDRV_EMIT(b, NAME, ...) \
	gtdrv_cmd_end((b), #NAME, cmd_##NAME##_pack((b)->drv->gen, \
		gtdrv_cmd_start((b), GTDRV_CMD_LEN(b, NAME)), GTDRV_CMD_LEN(b, NAME), \
		&(const struct cmd_##NAME){ __VA_ARGS__ }))

/* 3DSTATE_VERTEX_BUFFERS; a buffer without a bo is the raw address in
 * offset (no relocation). */
struct gtdrv_vb {
	uint32_t index;
	struct gtdrv_bo *bo;
	uint32_t offset, pitch, size;
};
int gtdrv_emit_vertex_buffers(struct gtdrv_batch *b, const struct gtdrv_vb *vb, unsigned n);

/* 3DSTATE_VERTEX_ELEMENTS by seed 000's loop: an attribute of `size`
 * components (0..4) gets STORE_SRC for those, then STORE_0 up to
 * component 2 and 1 (float, or integer for integer attributes) in 3. */
struct gtdrv_vertex_attrib {
	uint32_t buffer, offset, format;
	unsigned size;
	bool integer;
};
int gtdrv_emit_vertex_elements(struct gtdrv_batch *b, const struct gtdrv_vertex_attrib *a,
			       unsigned n);

/* 3DSTATE_PUSH_CONSTANT_ALLOC_VS/PS (half of the push constant space
 * each) and 3DSTATE_URB_VS/HS/DS/GS from a partition of urb_config.h. */
int gtdrv_emit_urb(struct gtdrv_batch *b, const struct urb_config *cfg);

#endif
