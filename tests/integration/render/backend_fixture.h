/* A fixture for draws through the back end without the front end: 1 MiB
 * of GGTT memory, the 3DSTATE_* commands recorded as the command streamer
 * would (cs_state), dynamic and surface state packed through the command
 * tables, a PS kernel assembled from GEN assembly at Instruction Base 0,
 * VUEs written into the URB by hand and primitives handed to the hook the
 * front end calls (rs->prim_sink). Oracles stay in the tests. */
#ifndef GTSIM_TEST_BACKEND_FIXTURE_H
#define GTSIM_TEST_BACKEND_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/devinfo.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_names.h"   /* tests may name fields */
#include "gpu/cs/regs.h"
#include "gpu/cs/state.h"
#include "gpu/eu/asm.h"
#include "gpu/format/format.h"
#include "tiling_ref.h"
#include "gpu/render/om.h"
#include "gpu/render/render_state.h"
#include "gpu/render/wm.h"
#include "test.h"

#define FX_MEM_SIZE (1u << 20)
#define FX_DYN 0x10000u       /* Dynamic State Base */
#define FX_SURF 0x20000u      /* Surface State Base; binding table at +0 */
#define FX_RT 0x40000u        /* render target */
#define FX_DEPTH 0x80000u
#define FX_STENCIL 0x90000u
#define FX_VUE_BYTES 128u     /* 8 rows: header, position, 2 clip distance rows, attributes */
#define FX_VUES 32u

/* dynamic state offsets (from FX_DYN) */
#define FX_SF_CLIP 0x0
#define FX_CC_VP 0x100
#define FX_BLEND 0x200
#define FX_CC 0x300
#define FX_SCISSOR 0x400

static uint8_t *fx_mem;
static struct gt_phys *fx_phys;
static struct gt_ggtt fx_ggtt;
static uint64_t fx_pa;
static struct cs_state *fx_cs;
static struct cs_regs *fx_regs;     /* pipeline statistics land here */
static int fx_gen = 8;

static inline uint64_t fx_fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void fx_record(const char *name, const char *const *fields, const uint64_t *vals, int n)
{
	const struct cmd_desc *d = cmd_find_name(fx_gen, name);
	uint32_t dw[32] = { 0 };
	CHECK(d != NULL);
	if (!d || d->length > 32)
		return;
	/* a command recorded again starts from its earlier dwords */
	uint32_t len;
	const uint32_t *old = cs_state_get(fx_cs, d, &len);
	if (old && len == d->length)
		memcpy(dw, old, len * 4);
	else
		cmd_init(d, dw, d->length);
	for (int i = 0; i < n; i++)
		CHECK_EQ(cmd_field_set(d, dw, d->length, fields[i], vals[i]), 0);
	CHECK_EQ(cs_state_record(fx_cs, d, dw, d->length), 0);
}

static void fx_put(const char *name, uint32_t at, const char *const *fields, const uint64_t *vals,
		   int n)
{
	const struct cmd_desc *d = cmd_struct_find(fx_gen, name);
	CHECK(d != NULL);
	if (!d)
		return;
	uint32_t *dw = (uint32_t *)(fx_mem + at);
	for (int i = 0; i < n; i++)
		CHECK_EQ(cmd_field_set(d, dw, 32, fields[i], vals[i]), 0);
}

#define FX_KV(fn, ...)                                                          \
	do {                                                                    \
		struct { const char *f; uint64_t v; } kv_[] = { __VA_ARGS__ };  \
		const char *f_[24]; uint64_t v_[24]; int n_ = 0;                \
		for (size_t i_ = 0; i_ < sizeof(kv_) / sizeof(kv_[0]); i_++, n_++) { \
			f_[n_] = kv_[i_].f; v_[n_] = kv_[i_].v; }               \
		fn;                                                             \
	} while (0)
/* REC("3DSTATE_X", { "Field", v }, ...): record a command (fields set on
 * top of its last recorded dwords); PUT: pack a state structure at an
 * offset of the fixture's memory. */
#define REC(name, ...) FX_KV(fx_record(name, f_, v_, n_), __VA_ARGS__)
#define PUT(name, at, ...) FX_KV(fx_put(name, at, f_, v_, n_), __VA_ARGS__)

/* The `stub` trace in a file of the test's (fx_trace_begin before
 * fx_init): which unmodelled state a draw reported. */
static char fx_trace_path[] = "/tmp/gtsim-fx-trace-XXXXXX";

static inline void fx_trace_begin(void)
{
	int fd = mkstemp(fx_trace_path);
	if (fd < 0)
		test_skip("cannot create a temporary file");
	close(fd);
	setenv("GTSIM_TRACE", "stub", 1);
	setenv("GTSIM_TRACE_FILE", fx_trace_path, 1);
}

static inline bool fx_trace_has(const char *text)
{
	FILE *f = fopen(fx_trace_path, "r");
	char line[512];
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, text) != NULL;
	if (f)
		fclose(f);
	return found;
}

static inline void fx_trace_end(void)
{
	unlink(fx_trace_path);
}

static void fx_init(void)
{
	fx_mem = aligned_alloc(4096, FX_MEM_SIZE);
	fx_phys = phys_create();
	fx_pa = phys_add(fx_phys, fx_mem, FX_MEM_SIZE);
	fx_ggtt.size = FX_MEM_SIZE;
	fx_ggtt.ptes = calloc(FX_MEM_SIZE / 4096, 8);
	for (uint32_t i = 0; i < FX_MEM_SIZE / 4096; i++)
		fx_ggtt.ptes[i] = (fx_pa + i * 4096ull) | GT_PTE_PRESENT | GT_PTE_RW;
	fx_cs = cs_state_create();
	fx_regs = calloc(1, sizeof(*fx_regs));
}

static void fx_fini(void)
{
	cs_state_destroy(fx_cs);
	free(fx_regs);
	free(fx_ggtt.ptes);
	phys_remove(fx_phys, fx_pa);
	phys_destroy(fx_phys);
	free(fx_mem);
}

/* Assemble the PS at instruction offset 0. */
static int fx_kernel(const char *text)
{
	struct eu_asm_result res;
	if (eu_assemble(fx_gen, text, strlen(text), "ps.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		CHECK(0);
		return -1;
	}
	memcpy(fx_mem, res.bytes, res.len);
	eu_asm_result_free(&res);
	return 0;
}

/* A render target at FX_RT behind binding table entry 0. */
static void fx_target(uint32_t format, uint32_t w, uint32_t h, uint32_t pitch, int tile_mode)
{
	uint32_t entry = 0x40;
	memcpy(fx_mem + FX_SURF, &entry, 4);
	memset(fx_mem + FX_SURF + 0x40, 0, 64);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Surface Type", 1 },
	    { "Surface Format", format }, { "Width", w - 1 }, { "Height", h - 1 },
	    { "Surface Pitch", pitch - 1 }, { "Tile Mode", (uint64_t)tile_mode },
	    { "Surface Base Address", FX_RT });
}

/* Everything cleared; then the state of a plain draw into a w x h target
 * of `format`: clipping on (OGL), viewport mapping NDC [-1, 1] onto the
 * target (y down), no culling, provoking vertex 0, one attribute (VUE row
 * 2) interpolated, SIMD8 PS with the dispatch GRF start 4, no blending. */
static void fx_reset(const char *ps, uint32_t format, uint32_t w, uint32_t h, uint32_t pitch)
{
	memset(fx_mem, 0, FX_MEM_SIZE);
	cs_state_clear(fx_cs);
	fx_kernel(ps);
	REC("3DSTATE_CLIP", { "Clip Enable", 1 }, { "API Mode", 0 });
	REC("3DSTATE_SF", { "Viewport Transform Enable", 1 });
	REC("3DSTATE_RASTER", { "Cull Mode", 1 });
	REC("3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP", { "SF Clip Viewport Pointer", FX_SF_CLIP });
	REC("3DSTATE_VIEWPORT_STATE_POINTERS_CC", { "CC Viewport Pointer", FX_CC_VP });
	REC("3DSTATE_BLEND_STATE_POINTERS", { "Blend State Pointer", FX_BLEND },
	    { "Blend State Pointer Valid", 1 });
	REC("3DSTATE_CC_STATE_POINTERS", { "Color Calc State Pointer", FX_CC },
	    { "Color Calc State Pointer Valid", 1 });
	REC("3DSTATE_SBE", { "Vertex URB Entry Read Offset", 1 }, { "Vertex URB Entry Read Length", 1 },
	    { "Number of SF Output Attributes", 1 });
	REC("3DSTATE_WM", { "Barycentric Interpolation Mode", 1 });
	REC("3DSTATE_PS", { "Kernel Start Pointer 0", 0 }, { "8 Pixel Dispatch Enable", 1 },
	    { "Dispatch GRF Start Register For Constant/Setup Data 0", 4 });
	REC("3DSTATE_PS_EXTRA", { "Pixel Shader Valid", 1 });
	PUT("SF_CLIP_VIEWPORT", FX_DYN + FX_SF_CLIP,
	    { "Viewport Matrix Element m00", fx_fbits(w / 2.0f) },
	    { "Viewport Matrix Element m11", fx_fbits(h / 2.0f) },
	    { "Viewport Matrix Element m22", fx_fbits(1) },
	    { "Viewport Matrix Element m30", fx_fbits(w / 2.0f) },
	    { "Viewport Matrix Element m31", fx_fbits(h / 2.0f) },
	    { "X Min ViewPort", fx_fbits(0) }, { "X Max ViewPort", fx_fbits(w - 1.0f) },
	    { "Y Min ViewPort", fx_fbits(0) }, { "Y Max ViewPort", fx_fbits(h - 1.0f) });
	PUT("CC_VIEWPORT", FX_DYN + FX_CC_VP, { "Minimum Depth", fx_fbits(0) },
	    { "Maximum Depth", fx_fbits(1) });
	fx_target(format, w, h, pitch, 0);
}

/* The colour FS in SIMD16 (16 Pixel Dispatch Enable, dispatch GRF start
 * 6): g0, g1, perspective barycentrics g2-g5, attribute 0 in g6-g7 */
static const char fx_simd16_fs[] =
	"pln(16)         g120<1>F        g6<0,1,0>F      g2<8,8,1>F      { align1 1H };\n"
	"pln(16)         g122<1>F        g6.4<0,1,0>F    g2<8,8,1>F      { align1 1H };\n"
	"pln(16)         g124<1>F        g7<0,1,0>F      g2<8,8,1>F      { align1 1H };\n"
	"pln(16)         g126<1>F        g7.4<0,1,0>F    g2<8,8,1>F      { align1 1H };\n"
	"sendc(16)       null<1>UW       g120<8,8,1>F    0x90031000\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 1H EOT };\n";

/* The window position of NDC (x, y) under fx_reset's viewport. */
/* NDC of pixel boundary p of a target `size` pixels wide (fx_win's inverse). */
static inline float fx_ndc(int p, int size)
{
	return 2.0f * (float)p / (float)size - 1;
}

static inline double fx_win(double ndc, uint32_t size)
{
	return (ndc + 1) * size / 2;
}

static struct render_state *fx_rs;
static char fx_last_fault[256];   /* the last fx_draw fault's text */

/* A render state whose VS partition holds FX_VUES entries of FX_VUE_BYTES. */
static void fx_begin(void)
{
	fx_rs = render_state_create(devinfo_lookup(fx_gen == 9 ? "skl" : "bdw"));
	CHECK(fx_rs != NULL);
	fx_rs->sba.dynamic = FX_DYN;
	fx_rs->sba.surface = FX_SURF;
	fx_rs->sba.instruction = 0;
	fx_rs->urb_space.part[0].first = 0;
	fx_rs->urb_space.part[0].entry_bytes = FX_VUE_BYTES;
	fx_rs->urb_space.part[0].entries = FX_VUES;
	fx_rs->sink_vue_bytes = FX_VUE_BYTES;   /* the VUEs prim_sink receives */
	memset(fx_rs->urb_space.mem, 0, FX_VUE_BYTES * FX_VUES);
}

/* VUE i (handle i * FX_VUE_BYTES / 64): rows of 4 floats from row 0. */
static uint32_t fx_handle(unsigned i)
{
	return i * FX_VUE_BYTES / 64;
}
static float *fx_vue(unsigned i)
{
	return (float *)(fx_rs->urb_space.mem + (size_t)i * FX_VUE_BYTES);
}
/* Position (row 1) and attribute 0 (row 2, what fx_reset's SBE reads). */
static void fx_vertex(unsigned i, float x, float y, float z, float w, const float c[4])
{
	float *v = fx_vue(i);
	v[4] = x; v[5] = y; v[6] = z; v[7] = w;
	if (c)
		memcpy(v + 8, c, 16);
}

/* VUEs 0..3: the corners of the whole target (NDC -1..1; triangles
 * 0, 1, 2 and 2, 1, 3 cover it) at depth z, every corner colour c. */
static inline void fx_square(float z, const float c[4])
{
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], z, 1, c);
}

/* Draw: the primitives prims[p][0..per) (VUE indices) of topology topo.
 * Returns 0, or -1 on a GPU fault (printed). */
static int fx_draw(uint32_t topo, const unsigned *prims, unsigned nprims, unsigned per)
{
	struct render_env env = { .vm = { .phys = fx_phys, .ggtt = &fx_ggtt }, .regs = fx_regs };
	int r = wm_draw_begin(fx_rs, &env, fx_cs);
	if (!r && fx_rs->prim_sink) {
		for (unsigned p = 0; p < nprims; p++) {
			uint32_t h[6];
			for (unsigned k = 0; k < per; k++)
				h[k] = fx_handle(prims[p * per + k]);
			fx_rs->prim_first = p == 0;     /* one run: vue_prim.first */
			fx_rs->prim_sink(fx_rs->prim_ctx, topo, h, per);
		}
	}
	if (!r)
		r = wm_draw_end(fx_rs);
	if (r) {
		fprintf(stderr, "fault: %s\n", render_fault(fx_rs));
		snprintf(fx_last_fault, sizeof(fx_last_fault), "%s", render_fault(fx_rs));
	}
	render_state_destroy(fx_rs);
	fx_rs = NULL;
	return r;
}

static inline uint8_t fx_unorm8(double f)
{
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return (uint8_t)lrint(f * 255);
}

/* A pixel of the linear RGBA8-sized target of pitch bytes. */
static inline const uint8_t *fx_px(uint32_t pitch, uint32_t cpp, int x, int y)
{
	return fx_mem + FX_RT + (size_t)y * pitch + (size_t)x * cpp;
}

#endif
