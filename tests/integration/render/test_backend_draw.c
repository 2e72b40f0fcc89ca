/* The back end end to end without the front end: VUEs written into the URB
 * by hand, the 3DSTATE_* commands recorded as the command streamer would,
 * dynamic and surface state and a PS kernel (assembled from GEN assembly)
 * in GGTT memory; the primitives handed to the hook the front end calls.
 * The render target's pixels are compared with colours computed here from
 * the barycentric definition (within 1/255), for linear and Y-tiled
 * targets, and with the flat (provoking vertex) colour; a depth test (LESS
 * against a D32_FLOAT buffer) and a stencil REPLACE keep and update the
 * pixels the PRM's rules say. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/topology.h"

#define W 16
#define H 16

/* screen_space: the way Mesa's blorp draws (no clipping, no viewport
 * transform, vertices already in window coordinates, and no
 * SF_CLIP_VIEWPORT: its pointer leads outside memory and is not read). */
static int run(int tile_mode, bool flat, bool depth, bool screen_space)
{
	uint32_t pitch = tile_mode == 3 ? 128 : W * 4;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, pitch);
	fx_target(FMT_R8G8B8A8_UNORM, W, H, pitch, tile_mode);
	REC("3DSTATE_SF", { "Triangle Strip/List Provoking Vertex Select", 2 });
	REC("3DSTATE_SBE", { "Constant Interpolation Enable", flat ? 1 : 0 });
	if (screen_space) {
		REC("3DSTATE_CLIP", { "Clip Enable", 0 });
		REC("3DSTATE_SF", { "Viewport Transform Enable", 0 });
		REC("3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP",
		    { "SF Clip Viewport Pointer", FX_MEM_SIZE - FX_DYN });
	}
	if (depth) {
		/* D32_FLOAT (Y-major, pitch 128): 0.25 left of x = 8, 1.0 right;
		 * draw at z 0.5 with LESS: only the right half passes. Stencil
		 * (W-major, pitch 128: twice 64 B): REPLACE with 0x5a where both tests pass. */
		REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
		    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
		    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
		REC("3DSTATE_STENCIL_BUFFER", { "Stencil Buffer Enable", 1 }, { "Surface Pitch", 127 },
		    { "Surface Base Address", FX_STENCIL });
		REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
		    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 2 },
		    { "Stencil Test Enable", 1 }, { "Stencil Buffer Write Enable", 1 },
		    { "Stencil Test Function", 0 }, { "Stencil Pass Depth Pass Op", 2 },
		    { "Stencil Write Mask", 0xff }, { "Stencil Test Mask", 0xff });
		PUT("COLOR_CALC_STATE", FX_DYN + FX_CC, { "Stencil Reference Value", 0x5a });
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float z = x < 8 ? 0.25f : 1.0f;
				memcpy(fx_mem + FX_DEPTH + ref_tile_y_offset((uint64_t)x * 4, (uint64_t)y, 128),
				       &z, 4);
			}
	}

	/* two triangles over the whole target, one colour per vertex */
	static const float col[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 0, 1 } };
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	fx_begin();
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, screen_space ? (pos[i][0] + 1) * W / 2 : pos[i][0],
			  screen_space ? (pos[i][1] + 1) * H / 2 : pos[i][1], 0.5f, 1, col[i]);
	CHECK_EQ(fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);

	/* oracle: window positions of the vertices, barycentrics by Cramer */
	int bad = 0;
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
				want[c] = fx_unorm8(v);
			}
			uint64_t off = ref_tiled_offset(tile_mode == 3 ? REF_TILE_Y : REF_LINEAR,
						    (uint64_t)x * 4, (uint64_t)y, pitch);
			if (depth && x < 8)
				memset(want, 0, 4);      /* failed the depth test */
			const uint8_t *got = fx_mem + FX_RT + off;
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
				memcpy(&z, fx_mem + FX_DEPTH + ref_tile_y_offset((uint64_t)x * 4, (uint64_t)y, 128), 4);
				uint8_t st = fx_mem[FX_STENCIL + ref_tile_w_offset((uint64_t)x, (uint64_t)y, 128)];
				dbad += z != (x < 8 ? 0.25f : 0.5f);
				dbad += st != (x < 8 ? 0 : 0x5a);
			}
		CHECK_EQ(dbad, 0);
	}
	return 0;
}

/* A flat-shaded quad (QUADLIST or QUADSTRIP) over the whole target takes
 * one colour: its provoking vertex's, GL 4.6 compatibility table 13.2 --
 * the quad's last vertex (4i+4 and 2i+2 counted from 1), or its first with
 * the first-vertex convention. Before, each triangle half took its own
 * third vertex (piglit gl-1.0-dlist-shademodel: half the quad red). */
static int quad_flat(uint32_t topo, unsigned pv_select)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	fx_target(FMT_R8G8B8A8_UNORM, W, H, W * 4, 0);
	REC("3DSTATE_SF", { "Triangle Strip/List Provoking Vertex Select", pv_select });
	REC("3DSTATE_SBE", { "Constant Interpolation Enable", 1 });
	static const float col[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 0, 1 } };
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	fx_begin();
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, col[i]);
	/* the quad's vertices in GL's order: around it (list), or as a strip */
	static const unsigned list[4] = { 0, 1, 3, 2 }, strip[4] = { 0, 1, 2, 3 };
	const unsigned *q = topo == PRIM_QUADLIST ? list : strip;
	CHECK_EQ(fx_draw(topo, q, 1, 4), 0);
	const float *c = col[pv_select == 0 ? q[0] : q[3]];
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *got = fx_px(W * 4, 4, x, y);
			for (int k = 0; k < 4; k++)
				if (got[k] != fx_unorm8(c[k]) && bad++ < 5)
					fprintf(stderr, "quad topo %u pv %u pixel %d,%d ch %d: %u want %u\n",
						topo, pv_select, x, y, k, got[k], fx_unorm8(c[k]));
		}
	CHECK_EQ(bad, 0);
	return 0;
}

int main(void)
{
	fx_init();
	run(0, false, false, false);  /* linear, smooth */
	run(3, false, false, false);  /* Y-tiled */
	run(0, true, false, false);   /* flat: the provoking vertex's colour */
	run(0, false, true, false);   /* depth LESS and stencil REPLACE */
	run(0, false, false, true);   /* window coordinates, no SF_CLIP_VIEWPORT */
	quad_flat(PRIM_QUADLIST, 2);  /* last-vertex convention */
	quad_flat(PRIM_QUADSTRIP, 2);
	quad_flat(PRIM_QUADLIST, 0);  /* first-vertex convention */
	quad_flat(PRIM_QUADSTRIP, 0);
	fx_fini();
	return test_exit();
}
