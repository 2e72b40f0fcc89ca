/* The back end end to end without the front end: VUEs written into the URB
 * by hand, the 3DSTATE_* commands recorded as the command streamer would,
 * dynamic and surface state and a PS kernel (assembled from GEN assembly)
 * in GGTT memory; the primitives handed to the hook the front end calls.
 * The render target's pixels are compared with colours computed here from
 * the barycentric definition (within 1/255), for linear and Y-tiled
 * targets, and with the flat (provoking vertex) colour; a depth test (LESS
 * against a D32_FLOAT buffer) and a stencil REPLACE keep and update the
 * pixels the PRM's rules say. */
#include <math.h>
#include <stdlib.h>

#include "common/devinfo.h"
#include "drv/seed_shaders.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cs/state.h"
#include "gpu/eu/asm.h"
#include "gpu/format/format.h"
#include "gpu/mem/tiling.h"
#include "gpu/render/render_state.h"
#include "gpu/render/om.h"
#include "gpu/render/wm.h"
#include "test.h"

#define MEM_SIZE (1u << 20)
#define DYN 0x10000u
#define SURF 0x20000u
#define RT 0x40000u
#define DEPTH 0x80000u
#define STENCIL 0x90000u
#define W 16
#define H 16

static uint8_t *mem;
static struct gt_phys *phys;
static struct gt_ggtt ggtt;
static struct cs_state *cs;
static int gen = 8;

static void record(const char *name, const char *const *fields, const uint64_t *vals, int n)
{
	const struct cmd_desc *d = cmd_find_name(gen, name);
	uint32_t dw[16] = { 0 };
	CHECK(d != NULL);
	if (!d)
		return;
	cmd_init(d, dw, d->length);
	for (int i = 0; i < n; i++)
		CHECK_EQ(cmd_field_set(d, dw, d->length, fields[i], vals[i]), 0);
	CHECK_EQ(cs_state_record(cs, d, dw, d->length), 0);
}
#define REC(name, ...)                                                          \
	do {                                                                    \
		struct { const char *f; uint64_t v; } kv_[] = { __VA_ARGS__ };  \
		const char *f_[16]; uint64_t v_[16]; int n_ = 0;                \
		for (size_t i_ = 0; i_ < sizeof(kv_) / sizeof(kv_[0]); i_++, n_++) { \
			f_[n_] = kv_[i_].f; v_[n_] = kv_[i_].v; }               \
		record(name, f_, v_, n_);                                       \
	} while (0)

static void put_struct(const char *name, uint32_t at, const char *const *fields,
		       const uint64_t *vals, int n)
{
	const struct cmd_desc *d = cmd_struct_find(gen, name);
	CHECK(d != NULL);
	if (!d)
		return;
	uint32_t *dw = (uint32_t *)(mem + at);
	for (int i = 0; i < n; i++)
		CHECK_EQ(cmd_field_set(d, dw, 16, fields[i], vals[i]), 0);
}
#define PUT(name, at, ...)                                                      \
	do {                                                                    \
		struct { const char *f; uint64_t v; } kv_[] = { __VA_ARGS__ };  \
		const char *f_[16]; uint64_t v_[16]; int n_ = 0;                \
		for (size_t i_ = 0; i_ < sizeof(kv_) / sizeof(kv_[0]); i_++, n_++) { \
			f_[n_] = kv_[i_].f; v_[n_] = kv_[i_].v; }               \
		put_struct(name, at, f_, v_, n_);                               \
	} while (0)

static uint64_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void setup_state(int tile_mode, bool flat)
{
	REC("3DSTATE_CLIP", { "Clip Enable", 1 }, { "API Mode", 0 });
	REC("3DSTATE_SF", { "Viewport Transform Enable", 1 },
	    { "Triangle Strip/List Provoking Vertex Select", 2 });
	REC("3DSTATE_RASTER", { "Cull Mode", 1 });
	REC("3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP", { "SF Clip Viewport Pointer", 0 });
	REC("3DSTATE_VIEWPORT_STATE_POINTERS_CC", { "CC Viewport Pointer", 0x100 });
	REC("3DSTATE_BLEND_STATE_POINTERS", { "Blend State Pointer", 0x200 },
	    { "Blend State Pointer Valid", 1 });
	REC("3DSTATE_CC_STATE_POINTERS", { "Color Calc State Pointer", 0x300 },
	    { "Color Calc State Pointer Valid", 1 });
	REC("3DSTATE_SBE", { "Vertex URB Entry Read Offset", 1 }, { "Vertex URB Entry Read Length", 1 },
	    { "Number of SF Output Attributes", 1 }, { "Constant Interpolation Enable", flat ? 1 : 0 });
	REC("3DSTATE_WM", { "Barycentric Interpolation Mode", 1 });
	REC("3DSTATE_PS", { "Kernel Start Pointer 0", 0 }, { "8 Pixel Dispatch Enable", 1 },
	    { "Dispatch GRF Start Register For Constant/Setup Data 0", 4 });
	REC("3DSTATE_PS_EXTRA", { "Pixel Shader Valid", 1 });

	PUT("SF_CLIP_VIEWPORT", DYN, { "Viewport Matrix Element m00", fbits(W / 2) },
	    { "Viewport Matrix Element m11", fbits(H / 2) }, { "Viewport Matrix Element m22", fbits(1) },
	    { "Viewport Matrix Element m30", fbits(W / 2) }, { "Viewport Matrix Element m31", fbits(H / 2) });
	PUT("CC_VIEWPORT", DYN + 0x100, { "Minimum Depth", fbits(0) }, { "Maximum Depth", fbits(1) });

	/* binding table entry 0 -> RENDER_SURFACE_STATE at +0x40 */
	uint32_t entry = 0x40;
	memcpy(mem + SURF, &entry, 4);
	uint32_t pitch = tile_mode == 3 ? 128 : W * 4;
	PUT("RENDER_SURFACE_STATE", SURF + 0x40, { "Surface Type", 1 },
	    { "Surface Format", FMT_R8G8B8A8_UNORM }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", pitch - 1 }, { "Tile Mode", (uint64_t)tile_mode },
	    { "Surface Base Address", RT });
}

static void put_vue(struct render_state *rs, uint32_t handle, float x, float y, const float c[4])
{
	float *v = (float *)(rs->urb_space.mem + handle * 64);
	memset(v, 0, 64);
	v[4] = x; v[5] = y; v[6] = 0.5f; v[7] = 1;
	memcpy(v + 8, c, 16);
}

static uint8_t unorm8(float f)
{
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return (uint8_t)lrintf(f * 255);
}

/* screen_space: the way Mesa's blorp draws (no clipping, no viewport
 * transform, vertices already in window coordinates, and no
 * SF_CLIP_VIEWPORT: its pointer leads outside memory and is not read). */
static int run(int tile_mode, bool flat, bool depth, bool screen_space)
{
	memset(mem, 0, MEM_SIZE);
	cs_state_clear(cs);
	struct eu_asm_result res;
	if (eu_assemble(gen, gtdrv_color_fs, strlen(gtdrv_color_fs), "ps.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		CHECK(0);
		return -1;
	}
	memcpy(mem, res.bytes, res.len);
	eu_asm_result_free(&res);
	setup_state(tile_mode, flat);
	if (screen_space) {
		REC("3DSTATE_CLIP", { "Clip Enable", 0 });
		REC("3DSTATE_SF", { "Viewport Transform Enable", 0 },
		    { "Triangle Strip/List Provoking Vertex Select", 2 });
		REC("3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP",
		    { "SF Clip Viewport Pointer", MEM_SIZE - DYN });
	}
	if (depth) {
		/* D32_FLOAT (Y-major, pitch 128): 0.25 left of x = 8, 1.0 right;
		 * draw at z 0.5 with LESS: only the right half passes. Stencil
		 * (W-major, pitch 64): REPLACE with 0x5a where both tests pass. */
		REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
		    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
		    { "Surface Pitch", 127 }, { "Surface Base Address", DEPTH });
		REC("3DSTATE_STENCIL_BUFFER", { "Stencil Buffer Enable", 1 }, { "Surface Pitch", 63 },
		    { "Surface Base Address", STENCIL });
		REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
		    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 2 },
		    { "Stencil Test Enable", 1 }, { "Stencil Buffer Write Enable", 1 },
		    { "Stencil Test Function", 0 }, { "Stencil Pass Depth Pass Op", 2 },
		    { "Stencil Write Mask", 0xff }, { "Stencil Test Mask", 0xff });
		PUT("COLOR_CALC_STATE", DYN + 0x300, { "Stencil Reference Value", 0x5a });
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float z = x < 8 ? 0.25f : 1.0f;
				memcpy(mem + DEPTH + tile_y_offset((uint64_t)x * 4, (uint64_t)y, 128), &z, 4);
			}
	}

	struct render_state *rs = render_state_create(devinfo_lookup("bdw"));
	rs->dynamic_base = DYN;
	rs->surface_base = SURF;
	rs->instruction_base = 0;
	rs->urb_space.part[0].first = 0;
	rs->urb_space.part[0].entry_bytes = 64;
	rs->urb_space.part[0].entries = 8;
	/* two triangles over the whole target, one colour per vertex */
	static const float col[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 0, 1 } };
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (uint32_t i = 0; i < 4; i++)
		put_vue(rs, i, screen_space ? (pos[i][0] + 1) * W / 2 : pos[i][0],
			screen_space ? (pos[i][1] + 1) * H / 2 : pos[i][1], col[i]);
	struct render_env env = { .vm = { .phys = phys, .ggtt = &ggtt } };
	CHECK_EQ(wm_draw_begin(rs, &env, cs), 0);
	if (render_fault(rs)[0])
		fprintf(stderr, "fault: %s\n", render_fault(rs));
	CHECK(rs->prim_sink != NULL);
	if (rs->prim_sink) {
		rs->prim_sink(rs->prim_ctx, 4, (uint32_t[]){ 0, 1, 2 }, 3);
		rs->prim_sink(rs->prim_ctx, 4, (uint32_t[]){ 2, 1, 3 }, 3);
	}
	CHECK_EQ(wm_draw_end(rs), 0);
	if (render_fault(rs)[0])
		fprintf(stderr, "fault: %s\n", render_fault(rs));
	render_state_destroy(rs);

	/* oracle: window positions of the vertices, barycentrics by Cramer */
	int bad = 0;
	uint32_t pitch = tile_mode == 3 ? 128 : W * 4;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double px = x + 0.5, py = y + 0.5;
			const int tri[2][3] = { { 0, 1, 2 }, { 2, 1, 3 } };
			int t = px + py < W ? 0 : 1;   /* the diagonal from (16,0) to (0,16) */
			double vx[3], vy[3];
			for (int k = 0; k < 3; k++) {
				vx[k] = (pos[tri[t][k]][0] + 1) * W / 2;
				vy[k] = (pos[tri[t][k]][1] + 1) * H / 2;
			}
			double den = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (vy[1] - vy[0]);
			double b1 = ((px - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (py - vy[0])) / den;
			double b2 = ((vx[1] - vx[0]) * (py - vy[0]) - (px - vx[0]) * (vy[1] - vy[0])) / den;
			double b[3] = { 1 - b1 - b2, b1, b2 };
			uint8_t want[4];
			for (int c = 0; c < 4; c++) {
				double v = 0;
				for (int k = 0; k < 3; k++)
					v += b[k] * col[tri[t][k]][c];
				if (flat)
					v = col[tri[t][2]][c];   /* provoking vertex 2 */
				want[c] = unorm8((float)v);
			}
			uint64_t off = tiled_offset(tile_mode == 3 ? GT_TILING_Y : GT_TILING_NONE,
						    (uint64_t)x * 4, (uint64_t)y, pitch);
			if (depth && x < 8)
				memset(want, 0, 4);      /* failed the depth test */
			const uint8_t *got = mem + RT + off;
			for (int c = 0; c < 4; c++)
				if (abs(got[c] - want[c]) > 1 && bad++ < 5)
					fprintf(stderr, "tile %d flat %d pixel %d,%d ch %d: %u want %u\n",
						tile_mode, flat, x, y, c, got[c], want[c]);
		}
	CHECK_EQ(bad, 0);
	if (depth) {
		int dbad = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float z;
				memcpy(&z, mem + DEPTH + tile_y_offset((uint64_t)x * 4, (uint64_t)y, 128), 4);
				uint8_t st = mem[STENCIL + tile_w_offset((uint64_t)x, (uint64_t)y, 64)];
				dbad += z != (x < 8 ? 0.25f : 0.5f);
				dbad += st != (x < 8 ? 0 : 0x5a);
			}
		CHECK_EQ(dbad, 0);
	}
	return 0;
}

int main(void)
{
	mem = aligned_alloc(4096, MEM_SIZE);
	phys = phys_create();
	uint64_t pa = phys_add(phys, mem, MEM_SIZE);
	ggtt.size = MEM_SIZE;
	ggtt.ptes = calloc(MEM_SIZE / 4096, 8);
	for (uint32_t i = 0; i < MEM_SIZE / 4096; i++)
		ggtt.ptes[i] = (pa + i * 4096ull) | GT_PTE_PRESENT | GT_PTE_RW;
	cs = cs_state_create();

	run(0, false, false, false);  /* linear, smooth */
	run(3, false, false, false);  /* Y-tiled */
	run(0, true, false, false);   /* flat: the provoking vertex's colour */
	run(0, false, true, false);   /* depth LESS and stencil REPLACE */
	run(0, false, false, true);   /* window coordinates, no SF_CLIP_VIEWPORT */

	cs_state_destroy(cs);
	free(ggtt.ptes);
	phys_remove(phys, pa);
	phys_destroy(phys);
	free(mem);
	return test_exit();
}
