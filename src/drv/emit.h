/* State emitters built on the command tables: a command is packed field
 * by field by name (gpu/cmd/cmd.h), never with hand-written shifts, and
 * buffer addresses become relocations. */
#ifndef GTSIM_DRV_EMIT_H
#define GTSIM_DRV_EMIT_H

#include "drv/batch.h"
#include "drv/urb_config.h"
#include "gpu/cmd/cmd.h"

#define GTDRV_CMD_MAX 256
#define GTDRV_CMD_MAX_RELOCS 8

struct gtdrv_cmd {
	const struct cmd_desc *d;
	int gen;
	uint32_t dw[GTDRV_CMD_MAX];
	uint32_t len;
	struct {
		uint32_t at;              /* dword of the address qword */
		struct gtdrv_bo *bo;
		uint32_t rd, wd;
	} relocs[GTDRV_CMD_MAX_RELOCS];
	unsigned nrelocs;
	int error;                        /* -EINVAL: unknown name, no fit */
};

/* Start command `name` of len dwords (0: the table's length). */
void gtdrv_cmd_begin(struct gtdrv_cmd *c, int gen, const char *name, uint32_t len);
void gtdrv_cmd_set(struct gtdrv_cmd *c, const char *field, uint64_t value);
/* Field of state structure `sname` (e.g. "VERTEX_BUFFER_STATE") placed at
 * dword `at` of the command. */
void gtdrv_cmd_set_sub(struct gtdrv_cmd *c, const char *sname, uint32_t at,
		       const char *field, uint64_t value);
/* Address field (of the command when sname is NULL): bo's presumed offset
 * + delta, relocated at submission. */
void gtdrv_cmd_address(struct gtdrv_cmd *c, const char *sname, uint32_t at,
		       const char *field, struct gtdrv_bo *bo, uint64_t delta,
		       uint32_t read_domains, uint32_t write_domain);
/* Append to the batch (BEGIN/OUT/ADVANCE and the relocations). */
int gtdrv_cmd_emit(struct gtdrv_batch *b, struct gtdrv_cmd *c);

/* One command with plain fields, in one call. */
struct gtdrv_field {
	const char *name;
	uint64_t value;
};
int gtdrv_emit(struct gtdrv_batch *b, const char *cmd, const struct gtdrv_field *f,
	       unsigned n);
#define GTDRV_FIELDS(...) (const struct gtdrv_field[]){ __VA_ARGS__ }, \
	(unsigned)(sizeof((const struct gtdrv_field[]){ __VA_ARGS__ }) / sizeof(struct gtdrv_field))

/* 3DSTATE_VERTEX_BUFFERS */
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
