/* 3DSTATE_WM_HZ_OP by its effect, through libgtdrv, execbuf and the render
 * engine: a depth clear writes 3DSTATE_CLEAR_PARAMS's Depth Clear Value,
 * encoded in the depth buffer's format, into every pixel of the clear
 * rectangle (maxima exclusive) of the Y-major depth buffer and nothing
 * else; a stencil clear writes the Stencil Clear Value into the W-major
 * stencil buffer's rectangle; a depth or HiZ resolve changes nothing.
 * Expected values: D32_FLOAT 0.75 = 0x3f400000, D16_UNORM round(0.75 *
 * 65535) = 49151, D24_UNORM_X8 round(0.75 * 16777215) = 12582911; pixel
 * addresses from the PRM's Y- and W-tile formulas (gpu/mem/tiling).
 * Scissor Rectangle Enable, which must be zero "due to a hardware issue"
 * (the note blorp and anv follow), is a GPU hang that clears nothing.
 * A clear of a huge multisampled buffer is stopped by the reset hangcheck
 * asks for (the command polls the engine's abort flag once a row). */
#include <i915_drm.h>
#include <string.h>

#include "drv/pipeline.h"
#include "tiling_ref.h"
#include "kernel/device.h"
#include "test.h"

#define W 32
#define H 32
#define X0 4
#define Y0 8
#define X1 20
#define Y1 24

enum { D32_FLOAT = 1, D24_UNORM_X8 = 3, D16_UNORM = 5 };

struct hz_case {
	uint32_t format, cpp;
	uint32_t want;            /* the cleared pixel */
	bool depth, stencil, resolve;
	bool scissor;             /* Scissor Rectangle Enable: MBZ, a GPU fault */
};

/* GET_RESET_STATS' guilty batches of drv's context. */
static uint32_t batches_active(struct gtdrv *drv)
{
	struct drm_i915_reset_stats rs = { .ctx_id = drv->ctx_id };
	CHECK_EQ(gtsim_ioctl(drv->file, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	return rs.batch_active;
}

static void run_case(struct gtdrv *drv, const struct hz_case *c)
{
	struct gtdrv_bo kernel, depth, stencil;
	struct gtdrv_batch b;
	uint32_t pitch = 128;     /* one Y tile (128 B) across; W tiles 64 B */
	uint8_t *before = malloc(8192), *after = malloc(8192), *sbefore = malloc(8192),
		*safter = malloc(8192);
	CHECK_EQ(gtdrv_bo_alloc(drv, &kernel, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(drv, &depth, 8192), 0);
	CHECK_EQ(gtdrv_bo_alloc(drv, &stencil, 8192), 0);
	for (int i = 0; i < 8192; i++) {
		before[i] = (uint8_t)(i * 7 + 1);
		sbefore[i] = (uint8_t)(i * 13 + 5);
	}
	CHECK_EQ(gtdrv_bo_write(drv, &depth, 0, before, 8192), 0);
	CHECK_EQ(gtdrv_bo_write(drv, &stencil, 0, sbefore, 8192), 0);

	CHECK_EQ(gtdrv_batch_init(&b, drv), 0);
	CHECK_EQ(gtdrv_emit_3d_begin(&b, &kernel, NULL), 0);
	int gen = drv->gen;
	uint32_t len = GTDRV_CMD_LEN(&b, 3DSTATE_DEPTH_BUFFER);
	uint32_t *dw = gtdrv_cmd_start(&b, len);
	const struct cmd_3DSTATE_DEPTH_BUFFER db = {
		.surface_type = 1, .surface_format = c->format, .depth_write_enable = true,
		.width = W - 1, .height = H - 1, .surface_pitch = pitch - 1,
		.surface_base_address = depth.offset };
	gtdrv_cmd_reloc(&b, cmd_3DSTATE_DEPTH_BUFFER_surface_base_address_bit(gen), &depth,
			I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	CHECK_EQ(gtdrv_cmd_end(&b, "3DSTATE_DEPTH_BUFFER",
			       cmd_3DSTATE_DEPTH_BUFFER_pack(gen, dw, len, &db)), 0);
	len = GTDRV_CMD_LEN(&b, 3DSTATE_STENCIL_BUFFER);
	dw = gtdrv_cmd_start(&b, len);
	const struct cmd_3DSTATE_STENCIL_BUFFER sb = {
		.stencil_buffer_enable = true, .surface_pitch = 128 - 1,   /* W: twice 64 B */
		.surface_base_address = stencil.offset };
	gtdrv_cmd_reloc(&b, cmd_3DSTATE_STENCIL_BUFFER_surface_base_address_bit(gen), &stencil,
			I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	CHECK_EQ(gtdrv_cmd_end(&b, "3DSTATE_STENCIL_BUFFER",
			       cmd_3DSTATE_STENCIL_BUFFER_pack(gen, dw, len, &sb)), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_CLEAR_PARAMS, .depth_clear_value = 0.75f,
			    .depth_clear_value_valid = true), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_WM_HZ_OP,
		.depth_buffer_clear_enable = c->depth, .stencil_buffer_clear_enable = c->stencil,
		.depth_buffer_resolve_enable = c->resolve,
		.hierarchical_depth_buffer_resolve_enable = c->resolve,
		.scissor_rectangle_enable = c->scissor,
		.stencil_clear_value = 0x3c, .clear_rectangle_x_min = X0,
		.clear_rectangle_y_min = Y0, .clear_rectangle_x_max = X1,
		.clear_rectangle_y_max = Y1, .sample_mask = 1), 0);
	/* the end of the operation, as drivers send it */
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_WM_HZ_OP, 0), 0);
	uint32_t active = batches_active(drv);
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	CHECK_EQ(batches_active(drv), active + c->scissor);
	gtdrv_batch_fini(&b);
	CHECK_EQ(gtdrv_bo_read(drv, &depth, 0, after, 8192), 0);
	CHECK_EQ(gtdrv_bo_read(drv, &stencil, 0, safter, 8192), 0);

	/* the expected buffers: the old bytes, the rectangle overwritten */
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool in = x >= X0 && x < X1 && y >= Y0 && y < Y1;
			in = in && !c->scissor;
			if (in && c->depth)
				memcpy(before + ref_tile_y_offset((uint64_t)x * c->cpp, (uint64_t)y, pitch),
				       &c->want, c->cpp);
			if (in && c->stencil)
				sbefore[ref_tile_w_offset((uint64_t)x, (uint64_t)y, 128)] = 0x3c;
		}
	int bad = 0, sbad = 0;
	for (int i = 0; i < 8192; i++) {
		bad += before[i] != after[i];
		sbad += sbefore[i] != safter[i];
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(sbad, 0);
	gtdrv_bo_free(drv, &kernel);
	gtdrv_bo_free(drv, &depth);
	gtdrv_bo_free(drv, &stencil);
	free(before);
	free(after);
	free(sbefore);
	free(safter);
}

/* A BDW device of cfg, a file on it and libgtdrv over the file. */
static bool open_bdw(const struct gtsim_config *cfg, struct gtsim_device **dev,
		     struct gtsim_file **file, struct gtdrv *drv)
{
	*dev = gtsim_device_create(cfg);
	CHECK(*dev != NULL);
	if (!*dev)
		return false;
	*file = gtsim_open(*dev);
	gtdrv_init(drv, *file, devinfo_lookup("bdw"));
	return true;
}

/* An 8-sample 16384 x 16384 D32 buffer cleared whole: 2^31 samples, far
 * past the hangcheck period (a minute or more of host time); its base at
 * 1 TiB, where the address space maps nothing (the writes are dropped, no
 * object of the test is touched). Hangcheck (100 ms) finds no progress
 * and resets the engine; the clear stops at a row boundary and the batch
 * is guilty. Without the poll the test runs past meson's limit. */
static void huge_clear_reset(void)
{
	struct gtsim_config cfg = { .device = "bdw", .hangcheck_ms = 100 };
	struct gtsim_device *dev;
	struct gtsim_file *file;
	struct gtdrv drv;
	if (!open_bdw(&cfg, &dev, &file, &drv))
		return;
	struct gtdrv_bo kernel;
	struct gtdrv_batch b;
	CHECK_EQ(gtdrv_bo_alloc(&drv, &kernel, 4096), 0);
	CHECK_EQ(gtdrv_batch_init(&b, &drv), 0);
	CHECK_EQ(gtdrv_emit_3d_begin(&b, &kernel, NULL), 0);
	int gen = drv.gen;
	uint32_t len = GTDRV_CMD_LEN(&b, 3DSTATE_DEPTH_BUFFER);
	uint32_t *dw = gtdrv_cmd_start(&b, len);
	const struct cmd_3DSTATE_DEPTH_BUFFER db = {
		.surface_type = 1, .surface_format = D32_FLOAT, .depth_write_enable = true,
		.width = 16383, .height = 16383, .surface_pitch = 16384 * 4 * 4 - 1,
		.surface_base_address = 1ull << 40 };
	CHECK_EQ(gtdrv_cmd_end(&b, "3DSTATE_DEPTH_BUFFER",
			       cmd_3DSTATE_DEPTH_BUFFER_pack(gen, dw, len, &db)), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_CLEAR_PARAMS, .depth_clear_value = 0.75f,
			    .depth_clear_value_valid = true), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_WM_HZ_OP, .depth_buffer_clear_enable = true,
			    .number_of_multisamples = 3, .clear_rectangle_x_max = 16384,
			    .clear_rectangle_y_max = 16384, .sample_mask = 0xff), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_WM_HZ_OP, 0), 0);
	uint32_t active = batches_active(&drv);
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	CHECK_EQ(batches_active(&drv), active + 1);
	char *state = gtsim_error_state(dev);
	CHECK(state && strstr(state, "at 3DSTATE_WM_HZ_OP"));
	if (state && !strstr(state, "at 3DSTATE_WM_HZ_OP"))
		fprintf(stderr, "%.2000s\n", state);
	free(state);
	gtdrv_batch_fini(&b);
	gtdrv_bo_free(&drv, &kernel);
	gtsim_close(file);
	gtsim_device_destroy(dev);
}

int main(void)
{
	struct gtsim_config cfg = { .device = "bdw", .sync = 1 };
	struct gtsim_device *dev;
	struct gtsim_file *file;
	struct gtdrv drv;
	if (!open_bdw(&cfg, &dev, &file, &drv))
		return test_exit();
	static const struct hz_case cases[] = {
		{ D32_FLOAT, 4, 0x3f400000u, true, false, false, false },
		{ D16_UNORM, 2, 49151, true, false, false, false },
		{ D24_UNORM_X8, 4, 12582911, true, false, false, false },
		{ D32_FLOAT, 4, 0, false, true, false, false },   /* stencil only */
		{ D32_FLOAT, 4, 0x3f400000u, true, true, false, false },
		{ D32_FLOAT, 4, 0, false, false, true, false },   /* resolves: no change */
		/* scissored: a fault, nothing cleared */
		{ D32_FLOAT, 4, 0x3f400000u, true, true, false, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&drv, &cases[i]);
	gtsim_close(file);
	gtsim_device_destroy(dev);
	huge_clear_reset();
	return test_exit();
}
