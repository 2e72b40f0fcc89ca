/* One complete, valid compute dispatch through libgtdrv: the kernels
 * (EU assembly, one interface descriptor each), their CURBE data and an
 * output buffer are made once (gtdrv_walker_setup_init); a batch then
 * gets the compute state (gtdrv_walker_emit_state: the base addresses,
 * PIPELINE_SELECT GPGPU, MEDIA_VFE_STATE, MEDIA_CURBE_LOAD,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD) and one or more dispatches
 * (gtdrv_walker_emit_dispatch: GPGPU_WALKER, direct or with its
 * dimensions from GPGPU_DISPATCHDIMX/Y/Z as iris's
 * glDispatchComputeIndirect, and MEDIA_STATE_FLUSH), or with the media
 * pipeline selected MEDIA_OBJECTs. Used by tests and the walker fuzz
 * target. */
#ifndef GTSIM_DRV_WALKER_SETUP_H
#define GTSIM_DRV_WALKER_SETUP_H

#include "drv/pipeline.h"

#define GTDRV_WALKER_MAX_KERNELS 4
#define GTDRV_WALKER_KERNEL_STRIDE 0x400u   /* kernel i at i x this */
#define GTDRV_WALKER_DYN_IDD 0x0u           /* 32-byte descriptors */
#define GTDRV_WALKER_DYN_CURBE 0x100u
#define GTDRV_WALKER_MAX_CURBE 0x100u

struct gtdrv_walker_kernel {
	const char *text;             /* Mesa's syntax, ends with a thread_spawner EOT */
	bool barrier;                 /* the group uses a barrier */
	uint32_t threads_per_group;   /* Number of Threads in GPGPU Thread Group */
	uint32_t curbe_read_length;   /* Constant URB Entry Read Length, GRFs per thread */
};

struct gtdrv_walker_setup {
	struct gtdrv *drv;
	bool media;                   /* emit_state selects the media pipeline
				       * (for MEDIA_OBJECT), not GPGPU */
	struct gtdrv_bo kernel, dyn, out;   /* out: 4 KB, zeroed, for the caller */
	uint32_t curbe_bytes;
	unsigned nkernels;
};

/* n kernels (at most GTDRV_WALKER_MAX_KERNELS) and curbe_bytes of CURBE
 * data (a multiple of 32, at most GTDRV_WALKER_MAX_CURBE). 0 or -errno
 * (-EINVAL also for a kernel that does not assemble). */
int gtdrv_walker_setup_init(struct gtdrv_walker_setup *s, struct gtdrv *drv,
			    const struct gtdrv_walker_kernel *k, unsigned n,
			    const void *curbe, uint32_t curbe_bytes);
void gtdrv_walker_setup_fini(struct gtdrv_walker_setup *s);

int gtdrv_walker_emit_state(struct gtdrv_batch *b, struct gtdrv_walker_setup *s);

struct gtdrv_walker {
	unsigned kernel;              /* interface descriptor (kernel) index */
	uint32_t groups[3];           /* thread groups in x, y, z */
	bool indirect;                /* groups through GPGPU_DISPATCHDIMX/Y/Z (the
				       * walker's own dimensions are then 1) */
	uint32_t simd_size;           /* the SIMD Size field: 0 SIMD8, 1 SIMD16, 2 SIMD32 */
	uint32_t threads;             /* threads per group (width counter maximum + 1) */
	uint32_t right_mask;          /* execution mask of the group's last thread, 0: all */
};

int gtdrv_walker_emit_dispatch(struct gtdrv_batch *b, struct gtdrv_walker_setup *s,
			       const struct gtdrv_walker *w);

/* MEDIA_OBJECT of interface descriptor `kernel` with n (at most 8) inline
 * dwords, then MEDIA_STATE_FLUSH (the media pipeline: s->media). */
int gtdrv_walker_emit_media_object(struct gtdrv_batch *b, struct gtdrv_walker_setup *s,
				   unsigned kernel, const uint32_t *inline_dw, unsigned n);

#endif
