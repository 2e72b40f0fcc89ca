/* Draws through libgtdrv and execbuf for the stream output and statistics
 * tests: the seed's green VS (VUE row 1 = the vertex as fetched, row 2 =
 * (0, 1, 0, 1)), NV vertices whose components are hand-chosen numbers
 * (vertex v: v + 1, 10 (v + 1), 100 (v + 1), 1000 (v + 1)), an index
 * buffer, a result buffer for MI_STORE_REGISTER_MEM and four SO buffers.
 * The oracles stay in the tests. */
#ifndef GTSIM_TEST_SO_DRV_FIXTURE_H
#define GTSIM_TEST_SO_DRV_FIXTURE_H

#include <string.h>

#include "drv/pipeline.h"
#include "drv/seed_shaders.h"
#include "gpu/cs/cs.h"
#include "gpu/cs/regs.h"
#include "kernel/device.h"
#include "common/trace.h"
#include "test.h"

enum { SX_NV = 16, SX_SO_BYTES = 4096, SX_R32G32B32A32_FLOAT = 0 };
#define SX_MARK 0xdeadbeefu   /* what every SO buffer holds before a draw */

struct sx {
	struct gtsim_device *dev;
	struct gtsim_file *file;
	struct gtdrv drv;
	struct gtdrv_bo kernel, vbo, ibo, res, so[4];
	struct gtdrv_batch b;
};

static inline float sx_comp(unsigned v, unsigned c)
{
	static const float scale[4] = { 1, 10, 100, 1000 };
	return (float)(v + 1) * scale[c];
}

static void sx_init(struct sx *s, const char *device)
{
	memset(s, 0, sizeof(*s));
	struct gtsim_config cfg = { .device = device, .sync = 1 };
	s->dev = gtsim_device_create(&cfg);
	CHECK(s->dev != NULL);
	s->file = gtsim_open(s->dev);
	gtdrv_init(&s->drv, s->file, devinfo_lookup(device));
	float vtx[SX_NV][4];
	for (unsigned v = 0; v < SX_NV; v++)
		for (unsigned c = 0; c < 4; c++)
			vtx[v][c] = sx_comp(v, c);
	CHECK_EQ(gtdrv_bo_alloc(&s->drv, &s->kernel, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&s->drv, &s->vbo, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&s->drv, &s->ibo, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&s->drv, &s->res, 4096), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(gtdrv_bo_alloc(&s->drv, &s->so[i], SX_SO_BYTES), 0);
	CHECK_EQ(gtdrv_upload_kernel(&s->drv, &s->kernel, 0, gtdrv_green_vs, NULL), 0);
	CHECK_EQ(gtdrv_bo_write(&s->drv, &s->vbo, 0, vtx, sizeof(vtx)), 0);
}

static void sx_fini(struct sx *s)
{
	gtdrv_bo_free(&s->drv, &s->kernel);
	gtdrv_bo_free(&s->drv, &s->vbo);
	gtdrv_bo_free(&s->drv, &s->ibo);
	gtdrv_bo_free(&s->drv, &s->res);
	for (int i = 0; i < 4; i++)
		gtdrv_bo_free(&s->drv, &s->so[i]);
	gtsim_close(s->file);
	gtsim_device_destroy(s->dev);
}

/* Fills the SO buffers with SX_MARK and the result buffer with zeros, and
 * starts a batch with the state up to the vertex elements. */
static void sx_begin(struct sx *s)
{
	static uint32_t fill[SX_SO_BYTES / 4];
	for (unsigned i = 0; i < SX_SO_BYTES / 4; i++)
		fill[i] = SX_MARK;
	for (int i = 0; i < 4; i++)
		CHECK_EQ(gtdrv_bo_write(&s->drv, &s->so[i], 0, fill, sizeof(fill)), 0);
	memset(fill, 0, sizeof(fill));
	CHECK_EQ(gtdrv_bo_write(&s->drv, &s->res, 0, fill, 4096), 0);
	struct urb_config urb;
	CHECK_EQ(urb_config_compute(s->drv.info, 0, (const unsigned[4]){ 1, 0, 0, 0 }, &urb), 0);
	struct gtdrv_batch *b = &s->b;
	CHECK_EQ(gtdrv_batch_init(b, &s->drv), 0);
	CHECK_EQ(gtdrv_emit_3d_begin(b, &s->kernel, NULL), 0);
	CHECK_EQ(gtdrv_emit_urb(b, &urb), 0);
	CHECK_EQ(gtdrv_emit_geometry_off(b), 0);
	CHECK_EQ(gtdrv_emit_vs(b, &(struct gtdrv_vs){ .kernel_offset = 0, .grf_start = 2,
						      .read_length = 1, .output_length = 1 }), 0);
	const struct gtdrv_vb vb = { .index = 0, .bo = &s->vbo, .pitch = 16, .size = 16 * SX_NV };
	CHECK_EQ(gtdrv_emit_vertex_buffers(b, &vb, 1), 0);
	CHECK_EQ(gtdrv_emit_vertex_elements(b, &(struct gtdrv_vertex_attrib){
		.format = SX_R32G32B32A32_FLOAT, .size = 4 }, 1), 0);
	CHECK_EQ(GTDRV_EMIT(b, 3DSTATE_VF_SGVS, 0), 0);
	for (unsigned i = 0; i < 4; i++)      /* the SO counters from 0 */
		for (unsigned d = 0; d < 8; d += 4) {
			CHECK_EQ(gtdrv_emit_lri(b, SO_NUM_PRIMS_WRITTEN(i) + d, 0), 0);
			CHECK_EQ(gtdrv_emit_lri(b, SO_PRIM_STORAGE_NEEDED(i) + d, 0), 0);
		}
}

/* Submits the batch and waits. */
static void sx_end(struct sx *s)
{
	CHECK_EQ(gtdrv_batch_submit(&s->b), 0);
	gtdrv_batch_fini(&s->b);
	gtsim_device_idle(s->dev);
}

static inline void sx_draw(struct sx *s, uint32_t topology, bool indexed, uint32_t count,
		    uint32_t start, uint32_t instances)
{
	CHECK_EQ(gtdrv_emit_draw(&s->b, &(struct gtdrv_draw){ .topology = topology,
		.indexed = indexed, .vertex_count = count, .start_vertex = start,
		.instance_count = instances }), 0);
}

/* MI_LOAD_REGISTER_MEM of reg from the result buffer at offset. */
static inline void sx_lrm(struct sx *s, uint32_t reg, uint32_t offset)
{
	int gen = s->drv.gen;
	uint32_t len = GTDRV_CMD_LEN(&s->b, MI_LOAD_REGISTER_MEM);
	uint32_t *dw = gtdrv_cmd_start(&s->b, len);
	const struct cmd_MI_LOAD_REGISTER_MEM lrm = {
		.register_address = reg, .memory_address = s->res.offset + offset };
	gtdrv_cmd_reloc(&s->b, cmd_MI_LOAD_REGISTER_MEM_memory_address_bit(gen), &s->res,
			I915_GEM_DOMAIN_INSTRUCTION, 0);
	CHECK_EQ(gtdrv_cmd_end(&s->b, "MI_LOAD_REGISTER_MEM",
			       cmd_MI_LOAD_REGISTER_MEM_pack(gen, dw, len, &lrm)), 0);
}

static inline uint32_t sx_res(struct sx *s, uint32_t offset)
{
	uint32_t v = 0;
	CHECK_EQ(gtdrv_bo_read(&s->drv, &s->res, offset, &v, 4), 0);
	return v;
}

#endif
