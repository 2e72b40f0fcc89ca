/* State gtsim does not model is a GPU fault that names it, never a draw
 * made some other way (a wrong image is worse than a hang), and the fault
 * changes no pixel:
 *   (a) 3DSTATE_RASTER Conservative Rasterization Enable (gen9; iris
 *       never sets it),
 *   (b) a 3DSTATE_SBE_SWIZ swizzle select of INPUTATTR_W (no driver here
 *       emits one, and gtsim has no source for what goes into W),
 *   (c) a render target of SURFTYPE_BUFFER,
 *   (d) a SIMD16 payload (r0, r1, two barycentric pairs: 6 registers)
 *       passing a Dispatch GRF Start of 4 while an attribute is set up
 *       there,
 *   (e) a topology the back end does not rasterize (a patch list reaching
 *       it: no tessellation in front),
 *   (f) a triangle whose face has the wireframe or point fill mode while
 *       a VERTEX_ELEMENT_STATE has Edge Flag Enable and the VF's flags do
 *       not reach the back end (render_state.vf_edge_flags off: a GS or
 *       tessellation in between; the fill modes and the VS's edge flags
 *       are modelled: render-fill-modes),
 *   (g) a line with 3DSTATE_RASTER Antialiasing Enable under 3DSTATE_SF
 *       AA Line Distance Mode 0 (Manhattan distance; the true distance is
 *       modelled: render-aa-lines), or with 3DSTATE_WM Line Stipple Enable,
 *   (h) a point with Smooth Point Enable under that distance mode,
 *   (i) a RECTLIST under the polygon stipple.
 * Cases (f) to (h) fault only on the primitives concerned: a triangle
 * with smooth lines and points enabled renders.
 * And the control: the same draw without the bad state renders. */
#include "backend_fixture.h"
#include "gpu/render/topology.h"
#include "drv/seed_shaders.h"

#define W 8
#define H 8
#define FILL 0x5a

enum bad { NONE, CONSERVATIVE, INPUTATTR_W, RT_BUFFER, PAYLOAD, TOPOLOGY, WIREFRAME,
	   POINT_FILL, EDGE_FLAG_SOLID, AA_LINE, LINE_STIPPLE, SMOOTH_POINT, STIPPLED_RECT, SMOOTH_TRIANGLE };

static int draw(enum bad bad)
{
	fx_gen = bad == CONSERVATIVE ? 9 : 8;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	switch (bad) {
	case CONSERVATIVE:
		REC("3DSTATE_RASTER", { "Conservative Rasterization Enable", 1 });
		break;
	case INPUTATTR_W:
		REC("3DSTATE_SBE", { "Attribute Swizzle Enable", 1 });
		REC("3DSTATE_SBE_SWIZ", { "Attribute", 2u << 6 });   /* attribute 0: INPUTATTR_W */
		break;
	case RT_BUFFER:
		PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Surface Type", 4 });
		break;
	case PAYLOAD:
		REC("3DSTATE_PS", { "8 Pixel Dispatch Enable", 0 }, { "16 Pixel Dispatch Enable", 1 });
		break;
	case WIREFRAME:    /* the square is front facing (counter-clockwise, y down) */
		REC("3DSTATE_RASTER", { "Cull Mode", 1 }, { "Front Face Fill Mode", 1 },
		    { "Back Face Fill Mode", 1 });
		break;
	case POINT_FILL:
		REC("3DSTATE_RASTER", { "Cull Mode", 1 }, { "Front Face Fill Mode", 2 },
		    { "Back Face Fill Mode", 2 });
		break;
	default:
		break;
	}
	/* an element carrying the edge flag (the fixture fetches none) */
	if (bad == WIREFRAME || bad == POINT_FILL || bad == EDGE_FLAG_SOLID) {
		fx_begin();
		fx_rs->num_ve = 1;
		fx_rs->ve[0].valid = true;
		fx_rs->ve[0].edge_flag = true;
	}
	switch (bad) {
	case AA_LINE:
	case SMOOTH_TRIANGLE:
		REC("3DSTATE_RASTER", { "Antialiasing Enable", 1 }, { "Smooth Point Enable", 1 });
		break;
	case LINE_STIPPLE:
		REC("3DSTATE_WM", { "Line Stipple Enable", 1 });
		break;
	case SMOOTH_POINT:
		REC("3DSTATE_RASTER", { "Smooth Point Enable", 1 });
		break;
	case STIPPLED_RECT: {
		REC("3DSTATE_WM", { "Polygon Stipple Enable", 1 });
		uint32_t dw[33] = { 0 };
		const struct cmd_desc *d = cmd_find_name(fx_gen, "3DSTATE_POLY_STIPPLE_PATTERN");
		cmd_init(d, dw, 33);
		CHECK_EQ(cs_state_record(fx_cs, d, dw, 33), 0);
		break;
	}
	default:
		break;
	}
	memset(fx_mem + FX_RT, FILL, W * H * 4);
	static const float col[4] = { 1, 1, 1, 1 };
	if (!fx_rs)
		fx_begin();
	fx_square(0.5f, col);
	fx_last_fault[0] = 0;
	if (bad == TOPOLOGY)
		return fx_draw(PRIM_PATCHLIST_1 + 3, (const unsigned[]){ 0, 1, 2, 3 }, 1, 4);
	if (bad == AA_LINE || bad == LINE_STIPPLE)
		return fx_draw(PRIM_LINELIST, (const unsigned[]){ 0, 3 }, 1, 2);
	if (bad == SMOOTH_POINT)
		return fx_draw(PRIM_POINTLIST, (const unsigned[]){ 0 }, 1, 1);
	if (bad == STIPPLED_RECT)
		return fx_draw(PRIM_RECTLIST, (const unsigned[]){ 0, 1, 2 }, 1, 3);
	return fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static int pixels_changed(void)
{
	int n = 0;
	for (int i = 0; i < W * H * 4; i++)
		n += fx_mem[FX_RT + i] != FILL;
	return n;
}

int main(void)
{
	fx_init();
	CHECK_EQ(draw(NONE), 0);
	CHECK_EQ(pixels_changed(), W * H * 4);   /* white over everything */
	CHECK_EQ(draw(SMOOTH_TRIANGLE), 0);
	CHECK_EQ(pixels_changed(), W * H * 4);
	CHECK_EQ(draw(EDGE_FLAG_SOLID), 0);      /* solid fill reads no edge flag */
	CHECK_EQ(pixels_changed(), W * H * 4);
	static const struct { enum bad bad; const char *named; } cases[] = {
		{ CONSERVATIVE, "conservative rasterization" },
		{ INPUTATTR_W, "INPUTATTR_W" },
		{ RT_BUFFER, "surface type 4" },
		{ PAYLOAD, "dispatch GRF start 4" },
		{ TOPOLOGY, "topology 35" },
		{ WIREFRAME, "Edge Flag Enable with the wireframe fill mode" },
		{ POINT_FILL, "Edge Flag Enable with the point fill mode" },
		{ AA_LINE, "Antialiasing Enable" },
		{ LINE_STIPPLE, "Line Stipple Enable" },
		{ SMOOTH_POINT, "Smooth Point Enable" },
		{ STIPPLED_RECT, "RECTLIST" },
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(draw(cases[i].bad) != 0);
		if (!strstr(fx_last_fault, cases[i].named)) {
			fprintf(stderr, "case %u: fault \"%s\" does not name \"%s\"\n", i,
				fx_last_fault, cases[i].named);
			CHECK(0);
		}
		CHECK_EQ(pixels_changed(), 0);
	}
	fx_fini();
	return test_exit();
}
