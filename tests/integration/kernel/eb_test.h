/* Helpers for the execbuf integration tests: a device, objects, batches
 * built from hand-encoded MI commands (BDW PRM vol. 2a), execbuf. */
#ifndef GTSIM_TEST_EB_H
#define GTSIM_TEST_EB_H

#include <drm.h>
#include <errno.h>
#include <i915_drm.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gtsim/gtsim.h"
#include "test.h"
#include "unit/kernel/kernel_test.h"

#define eb_create test_create
#define eb_close test_close
#define eb_write test_pwrite
#define eb_read test_pread

/* MI commands, encoded by hand from the PRM (not from gtsim's tables). */
#define MI_NOOP 0u
#define MI_BATCH_BUFFER_END (0x0au << 23)
#define MI_STORE_DWORD_IMM_GEN8 ((0x20u << 23) | 2u)   /* 4 dwords */
#define MI_BATCH_BUFFER_START_GEN8 ((0x31u << 23) | 1u)
#define MI_BB_START_PPGTT (1u << 8)
#define MI_SEMAPHORE_WAIT_GEN8 ((0x1cu << 23) | 2u)    /* 4 dwords */
#define MI_SEMAPHORE_POLL (1u << 15)
#define MI_SEMAPHORE_SAD_EQ_SDD (4u << 12)
#define MI_LOAD_REGISTER_IMM1 ((0x22u << 23) | 1u)
#define MI_STORE_REGISTER_MEM_GEN8 ((0x24u << 23) | 2u)   /* 4 dwords */

static inline void eb_sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

/* Does *p become value within about ms milliseconds? */
static inline bool eb_lands(volatile uint32_t *p, uint32_t value, int ms)
{
	for (int i = 0; i < ms && *p != value; i++)
		eb_sleep_ms(1);
	return *p == value;
}

static inline struct gtsim_device *eb_device(int sync, unsigned hangcheck_ms, uint64_t ggtt)
{
	struct gtsim_config cfg = { .device = "bdw", .sync = sync, .ggtt_size = ggtt,
				    .hangcheck_ms = hangcheck_ms };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	return dev;
}

static inline uint32_t eb_read32(struct gtsim_file *f, uint32_t h, uint64_t off)
{
	uint32_t v = 0xbad0bad0;
	eb_read(f, h, off, &v, 4);
	return v;
}

static inline int eb_wait(struct gtsim_file *f, uint32_t h, int64_t timeout_ns)
{
	struct drm_i915_gem_wait w = { .bo_handle = h, .timeout_ns = timeout_ns };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &w);
}

static inline uint32_t eb_busy(struct gtsim_file *f, uint32_t h)
{
	struct drm_i915_gem_busy b = { .handle = h };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_BUSY, &b))
		return 0xffffffff;
	return b.busy;
}

static inline int eb_exec(struct gtsim_file *f, struct drm_i915_gem_exec_object2 *objs,
			  unsigned n, uint64_t flags, uint32_t ctx)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = n, .flags = flags,
		.rsvd1 = ctx,
	};
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
}

/* dw[] <- MI_STORE_DWORD_IMM of value at a PPGTT address. Returns dwords. */
static inline unsigned emit_store(uint32_t *dw, uint64_t addr, uint32_t value)
{
	dw[0] = MI_STORE_DWORD_IMM_GEN8;
	dw[1] = (uint32_t)addr;
	dw[2] = (uint32_t)(addr >> 32);
	dw[3] = value;
	return 4;
}

/* Submit on the render ring, in ctx, a new batch (softpinned at bb_addr)
 * storing value at out_addr + off into out (softpinned at out_addr);
 * returns the batch's handle (wait on it, then close it). */
static inline uint32_t eb_submit_store(struct gtsim_file *f, uint32_t ctx, uint32_t out,
				       uint64_t out_addr, unsigned off, uint32_t value,
				       uint64_t bb_addr)
{
	uint32_t dw[8];
	unsigned n = emit_store(dw, out_addr + off, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	uint32_t bb = eb_create(f, 4096);
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = out, .offset = out_addr, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = bb_addr, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 2, I915_EXEC_RENDER, ctx), 0);
	return bb;
}

/* A CPU mapping (GEM_MMAP) of the first page of an object, or NULL. */
/* Skips the test when every batch runs inside execbuf (GTSIM_SYNC): why
 * says what needs asynchronous engines. */
static inline void eb_require_async(const char *why)
{
	const char *sync_env = getenv("GTSIM_SYNC");
	if (sync_env && strcmp(sync_env, "0") && *sync_env)
		test_skip(why);
}

/* MI_LOAD_REGISTER_IMM of one register. Returns dwords. */
static inline unsigned emit_lri(uint32_t *dw, uint32_t reg, uint32_t value)
{
	dw[0] = MI_LOAD_REGISTER_IMM1;
	dw[1] = reg;
	dw[2] = value;
	return 3;
}

/* MI_STORE_REGISTER_MEM of reg to a PPGTT address. Returns dwords. */
static inline unsigned emit_srm(uint32_t *dw, uint32_t reg, uint64_t addr)
{
	dw[0] = MI_STORE_REGISTER_MEM_GEN8;
	dw[1] = reg;
	dw[2] = (uint32_t)addr;
	dw[3] = (uint32_t)(addr >> 32);
	return 4;
}

/* An IGT-style spin loop at PPGTT address loop (lib/igt_dummyload.c):
 * MI_ARB_CHECK, noops MI_NOOPs, MI_CONDITIONAL_BATCH_BUFFER_END with
 * Compare Semaphore against the dword at cond (it ends once that dword
 * is not greater than MI_BATCH_BUFFER_END, which is what the CPU writes
 * there to end it), MI_BATCH_BUFFER_START back to loop. Returns dwords. */
#define MI_ARB_CHECK (0x05u << 23)
#define MI_COND_BB_END_COMPARE ((0x36u << 23) | (1u << 21) | 2u)   /* 4 dwords */
static inline unsigned emit_spin_loop(uint32_t *dw, uint64_t loop, uint64_t cond, unsigned noops)
{
	unsigned n = 0;
	dw[n++] = MI_ARB_CHECK;
	for (unsigned i = 0; i < noops; i++)
		dw[n++] = MI_NOOP;
	dw[n++] = MI_COND_BB_END_COMPARE;
	dw[n++] = MI_BATCH_BUFFER_END;                       /* compare data */
	dw[n++] = (uint32_t)cond;
	dw[n++] = (uint32_t)(cond >> 32);
	dw[n++] = MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT;
	dw[n++] = (uint32_t)loop;
	dw[n++] = (uint32_t)(loop >> 32);
	return n;
}

/* MI_SEMAPHORE_WAIT polling until the dword at addr equals value. */
static inline unsigned emit_semaphore_wait(uint32_t *dw, uint64_t addr, uint32_t value)
{
	dw[0] = MI_SEMAPHORE_WAIT_GEN8 | MI_SEMAPHORE_POLL | MI_SEMAPHORE_SAD_EQ_SDD;
	dw[1] = value;
	dw[2] = (uint32_t)addr;
	dw[3] = (uint32_t)(addr >> 32);
	return 4;
}

static inline uint32_t *eb_cpu_map(struct gtsim_file *f, uint32_t handle)
{
	struct drm_i915_gem_mmap m = { .handle = handle, .size = 4096 };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m))
		return NULL;
	return (uint32_t *)(uintptr_t)m.addr_ptr;
}

static inline uint32_t eb_context_create(struct gtsim_file *f)
{
	struct drm_i915_gem_context_create c = { 0 };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c))
		return 0xffffffff;
	return c.ctx_id;
}

/* A context of the given I915_CONTEXT_PARAM_PRIORITY (above 0 needs
 * CAP_SYS_NICE). */
static inline uint32_t eb_context_priority(struct gtsim_file *f, int prio)
{
	uint32_t ctx = eb_context_create(f);
	struct drm_i915_gem_context_param p = { .ctx_id = ctx,
		.param = I915_CONTEXT_PARAM_PRIORITY, .value = (uint64_t)(int64_t)prio };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p))
		return 0xffffffff;
	return ctx;
}

#endif
