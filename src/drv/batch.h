/* The batch builder: commands are written into a host copy of the batch;
 * BEGIN_BATCH reserves dwords, OUT_BATCH fills them, ADVANCE_BATCH checks
 * that exactly the reserved number was written (as i965's intel_batchbuffer
 * does). Addresses of other buffers are written as their presumed offsets
 * and recorded as relocations (seed 002): at submission the kernel model
 * patches them only if an object moved, and the new offsets come back as
 * the next presumed ones. */
#ifndef GTSIM_DRV_BATCH_H
#define GTSIM_DRV_BATCH_H

#include <i915_drm.h>
#include <stdbool.h>

#include "drv/gtdrv.h"

#define GTDRV_MAX_BOS 64

/* One exec object's relocation list (seed 002: every buffer of an
 * execbuf has its own; most have none). */
struct gtdrv_reloc_list {
	struct drm_i915_gem_relocation_entry *r;
	uint32_t n, cap;
};

/* The command being packed (emit.h): its dwords and the relocations of
 * its address fields, appended to the batch as a whole. */
#define GTDRV_CMD_MAX 256
#define GTDRV_CMD_MAX_RELOCS 8
struct gtdrv_cmd_stage {
	uint32_t dw[GTDRV_CMD_MAX];
	uint32_t len;
	struct {
		uint32_t at;                    /* dword of the address qword */
		struct gtdrv_bo *bo;
		uint32_t rd, wd;
	} relocs[GTDRV_CMD_MAX_RELOCS];
	unsigned nrelocs;
	int error;
};

struct gtdrv_batch {
	struct gtdrv *drv;
	uint32_t *dw;
	uint32_t used, cap;            /* dwords */
	uint32_t begin_at, begin_n;    /* the open BEGIN_BATCH, n == 0: none */
	struct gtdrv_reloc_list relocs;      /* the batch's own */
	struct gtdrv_bo *bos[GTDRV_MAX_BOS]; /* every relocation target and holder, once */
	struct gtdrv_reloc_list bo_relocs[GTDRV_MAX_BOS]; /* relocations inside bos[i] */
	uint32_t nbos;
	int error;                     /* first error: -ENOMEM, -EINVAL... */
	struct gtdrv_cmd_stage stage;  /* emit.h */
	int *fence_out;                /* set before one submission: I915_EXEC_FENCE_OUT,
					* its sync_file fd stored here (-1 when it fails) */
};

int gtdrv_batch_init(struct gtdrv_batch *b, struct gtdrv *drv);
void gtdrv_batch_fini(struct gtdrv_batch *b);
void gtdrv_batch_reset(struct gtdrv_batch *b);

void gtdrv_batch_begin(struct gtdrv_batch *b, uint32_t n);
void gtdrv_batch_out(struct gtdrv_batch *b, uint32_t dw);
/* A 64-bit address: bo's presumed offset + delta, with a relocation. */
void gtdrv_batch_reloc64(struct gtdrv_batch *b, struct gtdrv_bo *bo, uint32_t read_domains,
			 uint32_t write_domain, uint64_t delta);
void gtdrv_batch_advance(struct gtdrv_batch *b);

#define BEGIN_BATCH(b, n) gtdrv_batch_begin((b), (n))
#define OUT_BATCH(b, d) gtdrv_batch_out((b), (d))
#define OUT_RELOC64(b, bo, rd, wd, delta) gtdrv_batch_reloc64((b), (bo), (rd), (wd), (delta))
#define ADVANCE_BATCH(b) gtdrv_batch_advance((b))

/* Record a relocation for the qword at dword index `at` (already written
 * with bo->offset + delta) and add bo to the exec list. */
void gtdrv_batch_add_reloc(struct gtdrv_batch *b, uint32_t at, struct gtdrv_bo *bo,
			   uint32_t read_domains, uint32_t write_domain, uint64_t delta);

/* A relocation inside another buffer, such as the Surface Base Address
 * of a RENDER_SURFACE_STATE in a state buffer (seed 002: the batch points
 * at the surface state, which points at the render target): writes
 * target's presumed offset + delta as a qword at byte `offset` of holder
 * (PWRITE) and records the relocation in holder's own list, so the kernel
 * rewrites it if target moved. Both buffers join the exec list. */
void gtdrv_batch_state_reloc(struct gtdrv_batch *b, struct gtdrv_bo *holder, uint64_t offset,
			     struct gtdrv_bo *target, uint32_t read_domains,
			     uint32_t write_domain, uint64_t delta);

/* End the batch (MI_BATCH_BUFFER_END, padded to a qword), upload it into
 * a new buffer object, submit it on the render engine through
 * DRM_IOCTL_I915_GEM_EXECBUFFER2 (_WR with fence_out), wait for it, store
 * the kernel's offsets as the new presumed offsets and reset the builder
 * (fence_out too). 0 or -errno. */
int gtdrv_batch_submit(struct gtdrv_batch *b);

#endif
