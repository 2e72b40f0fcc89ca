/* Pixel shader throughput: a full-screen 1024x1024 RECTLIST through the
 * back end (setup, rasterization, PS threads, render target writes into a
 * linear R8G8B8A8_UNORM target) with a 1-instruction PS (the render target
 * write alone, of the barycentric registers) and a 30-instruction PS (29
 * mul/add then the write), SIMD8 and SIMD16. Prints pixels per second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/devinfo.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/state.h"
#include "gpu/eu/asm.h"
#include "gpu/format/format.h"
#include "gpu/render/render_state.h"
#include "gpu/render/wm.h"

#define SIZE 1024
#define MEM (8u << 20)
#define DYN 0x10000u
#define SURF 0x20000u
#define RT 0x100000u

static uint8_t *mem;

/* A command packed by its generated pack function (the pack's result in
 * packed), recorded as the command streamer would. */
static void record(struct cs_state *cs, int packed, const uint32_t *dw, uint32_t len)
{
	const struct cmd_desc *d = cmd_find(8, ENGINE_RCS, dw[0]);
	if (packed || !d) {
		fprintf(stderr, "bench_ps: a command does not pack\n");
		exit(1);
	}
	cs_state_record(cs, d, dw, len);
}

#define RECORD(cs, NAME, ...)                                                   \
	do {                                                                    \
		uint32_t dw_[16];                                               \
		record(cs, cmd_##NAME##_pack(8, dw_, cmd_##NAME##_length(8),    \
			&(const struct cmd_##NAME){ __VA_ARGS__ }), dw_, cmd_##NAME##_length(8)); \
	} while (0)

static double run(unsigned simd, unsigned alu, const struct gt_vm *vm, struct cs_state *cs)
{
	/* the kernel */
	char text[8192] = "";
	for (unsigned i = 0; i < alu; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "%s(%u)         g%u<1>F         g2<8,8,1>F      g%u<8,8,1>F { align1 1%s };\n",
			 i % 2 ? "add" : "mul", simd, 20 + (i % 8) * 2, 20 + ((i + 7) % 8) * 2,
			 simd == 8 ? "Q" : "H");
	snprintf(text + strlen(text), sizeof(text) - strlen(text),
		 "sendc(%u)       null<1>UW       g2<8,8,1>F      0x%08x\n"
		 "                render MsgDesc: RT write mlen %u rlen 0 { align1 1%s EOT };\n",
		 simd, simd == 8 ? 0x88031400u : 0x90031000u, simd / 2, simd == 8 ? "Q" : "H");
	struct eu_asm_result res;
	if (eu_assemble(8, text, strlen(text), "ps.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		exit(1);
	}
	memcpy(mem, res.bytes, res.len);
	eu_asm_result_free(&res);

	cs_state_clear(cs);
	RECORD(cs, 3DSTATE_CLIP, .clip_enable = true);
	RECORD(cs, 3DSTATE_SF, .viewport_transform_enable = true);
	RECORD(cs, 3DSTATE_RASTER, .cull_mode = 1);
	RECORD(cs, 3DSTATE_VIEWPORT_STATE_POINTERS_CC, .cc_viewport_pointer = 0x100);
	RECORD(cs, 3DSTATE_SBE, .number_of_sf_output_attributes = 1);
	RECORD(cs, 3DSTATE_WM, .barycentric_interpolation_mode = 1);
	RECORD(cs, 3DSTATE_PS, ._8_pixel_dispatch_enable = simd == 8,
	       ._16_pixel_dispatch_enable = simd == 16,
	       .dispatch_grf_start_register_for_constant_setup_data_0 = simd == 8 ? 4 : 6);
	RECORD(cs, 3DSTATE_PS_EXTRA, .pixel_shader_valid = true);

	struct render_state *rs = render_state_create(devinfo_lookup("bdw"));
	rs->sba.dynamic = DYN;
	rs->sba.surface = SURF;
	rs->urb_space.part[0].entry_bytes = 64;
	rs->urb_space.part[0].entries = 4;
	rs->sink_vue_bytes = 64;          /* the VUEs prim_sink receives */
	/* RECTLIST corners (x1,y1) (x0,y1) (x0,y0) in NDC */
	static const float pos[3][2] = { { 1, 1 }, { -1, 1 }, { -1, -1 } };
	for (int i = 0; i < 3; i++) {
		float *v = (float *)(rs->urb_space.mem + i * 64);
		memset(v, 0, 64);
		v[4] = pos[i][0]; v[5] = pos[i][1]; v[7] = 1;
	}
	struct render_env env = { .vm = *vm };
	struct timespec t0, t1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	int ok = !wm_draw_begin(rs, &env, cs) && rs->prim_sink;
	if (ok)
		rs->prim_sink(rs->prim_ctx, 15, (uint32_t[]){ 0, 1, 2 }, 3);
	ok = ok && !wm_draw_end(rs);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	if (!ok)
		fprintf(stderr, "bench_ps: %s\n", render_fault(rs));
	render_state_destroy(rs);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return ok ? SIZE * (double)SIZE / s : 0;
}

int main(void)
{
	mem = aligned_alloc(4096, MEM);
	memset(mem, 0, MEM);
	struct gt_phys *phys = phys_create();
	uint64_t pa = phys_add(phys, mem, MEM);
	struct gt_ggtt ggtt = { .size = MEM, .ptes = calloc(MEM / 4096, 8) };
	for (uint32_t i = 0; i < MEM / 4096; i++)
		ggtt.ptes[i] = (pa + i * 4096ull) | GT_PTE_PRESENT | GT_PTE_RW;
	struct gt_vm vm = { .phys = phys, .ggtt = &ggtt };

	int bad = cmd_SF_CLIP_VIEWPORT_pack(8, (uint32_t *)(mem + DYN), 16, &(const struct cmd_SF_CLIP_VIEWPORT){
		.viewport_matrix_element_m00 = SIZE / 2, .viewport_matrix_element_m11 = SIZE / 2,
		.viewport_matrix_element_m30 = SIZE / 2, .viewport_matrix_element_m31 = SIZE / 2,
		.x_max_viewport = SIZE - 1, .y_max_viewport = SIZE - 1 });
	bad |= cmd_CC_VIEWPORT_pack(8, (uint32_t *)(mem + DYN + 0x100), 2,
				    &(const struct cmd_CC_VIEWPORT){ .maximum_depth = 1 });
	uint32_t entry = 0x40;
	memcpy(mem + SURF, &entry, 4);
	bad |= cmd_RENDER_SURFACE_STATE_pack(8, (uint32_t *)(mem + SURF + 0x40), 16,
		&(const struct cmd_RENDER_SURFACE_STATE){
		.surface_type = 1, .surface_format = FMT_R8G8B8A8_UNORM,
		.width = SIZE - 1, .height = SIZE - 1, .surface_pitch = SIZE * 4 - 1,
		.surface_base_address = RT });
	if (bad) {
		fprintf(stderr, "bench_ps: a state structure does not pack\n");
		return 1;
	}

	struct cs_state *cs = cs_state_create();
	static const unsigned alus[2] = { 0, 29 };
	for (int a = 0; a < 2; a++)
		for (unsigned simd = 8; simd <= 16; simd *= 2)
			printf("bench_ps: %2u-instruction PS, SIMD%-2u: %8.2f Mpixels/CPU-s (1024x1024)\n",
			       alus[a] + 1, simd, run(simd, alus[a], &vm, cs) / 1e6);
	cs_state_destroy(cs);
	free(ggtt.ptes);
	phys_remove(phys, pa);
	phys_destroy(phys);
	free(mem);
	return 0;
}
