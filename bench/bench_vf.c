/* Vertices per second through the front end (VF + VS): a 1-million-vertex
 * draw with a 20-instruction SIMD8 VS. libgtdrv packs the batch; its
 * commands go straight to the front end (render_command) over GPU memory
 * mapped through a GGTT, so clipping and rasterization (which follow the
 * VS in a full pipeline) are not measured. A second, profiled run shows
 * the share of time spent fetching vertices, building thread payloads
 * (dispatch) and running the EU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drv/pipeline.h"
#include "gpu/cs/regs.h"
#include "gpu/eu/asm.h"
#include "gpu/render/render.h"

#define VERTICES (1u << 20)

/* 19 ALU instructions and the URB write: position scaled and moved, a
 * colour computed from it. */
static const char vs20[] =
	"mov(8)   g119<1>UD  g1<8,8,1>UD              { align1 WE_all 1Q };\n"
	"mul(8)   g120<1>F   g2<8,8,1>F   0.5F        { align1 1Q };\n"
	"mul(8)   g121<1>F   g3<8,8,1>F   0.5F        { align1 1Q };\n"
	"mul(8)   g122<1>F   g4<8,8,1>F   0.5F        { align1 1Q };\n"
	"mov(8)   g123<1>F   g5<8,8,1>F               { align1 1Q };\n"
	"add(8)   g120<1>F   g120<8,8,1>F 0.25F       { align1 1Q };\n"
	"add(8)   g121<1>F   g121<8,8,1>F 0.25F       { align1 1Q };\n"
	"add(8)   g122<1>F   g122<8,8,1>F 0.25F       { align1 1Q };\n"
	"mul(8)   g124<1>F   g120<8,8,1>F g120<8,8,1>F { align1 1Q };\n"
	"mul(8)   g125<1>F   g121<8,8,1>F g121<8,8,1>F { align1 1Q };\n"
	"mul(8)   g126<1>F   g122<8,8,1>F g122<8,8,1>F { align1 1Q };\n"
	"add(8)   g124<1>F   g124<8,8,1>F g125<8,8,1>F { align1 1Q };\n"
	"add(8)   g124<1>F   g124<8,8,1>F g126<8,8,1>F { align1 1Q };\n"
	"mul(8)   g125<1>F   g124<8,8,1>F 0.5F        { align1 1Q };\n"
	"mul(8)   g126<1>F   g124<8,8,1>F 0.25F       { align1 1Q };\n"
	"add(8)   g125<1>F   g125<8,8,1>F 0.125F      { align1 1Q };\n"
	"add(8)   g126<1>F   g126<8,8,1>F 0.125F      { align1 1Q };\n"
	"mov(8)   g127<1>F   1F                       { align1 1Q };\n"
	"mov(8)   g124<1>F   g125<8,8,1>F             { align1 1Q };\n"
	"send(8)  null<1>F   g119<8,8,1>F\n"
	"         urb 1 SIMD8 write mlen 9 rlen 0     { align1 1Q EOT };\n";

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define KERNEL_ADDR 0x1000ull
#define VB_ADDR 0x100000ull
#define MEM_BYTES (VB_ADDR + VERTICES * 16ull)

/* The batch of the draw, packed by libgtdrv (buffers at fixed addresses,
 * so the presumed offsets are the real ones). */
static int build(struct gtdrv_batch *b, const struct gt_devinfo *info)
{
	static struct gtdrv_bo kernel = { .handle = 1, .offset = KERNEL_ADDR };
	static struct gtdrv_bo vbo = { .handle = 2, .offset = VB_ADDR };
	struct urb_config urb;
	const struct gtdrv_vb vb = { .index = 0, .bo = &vbo, .pitch = 16, .size = VERTICES * 16 };
	const struct gtdrv_vertex_attrib attrib = { .format = 0 /* R32G32B32A32_FLOAT */, .size = 4 };
	int r = urb_config_compute(info, 0, (const unsigned[4]){ 1, 0, 0, 0 }, &urb);
	kernel.offset = 0;         /* instruction base 0: the kernel's offset is its address */
	r = r ? r : gtdrv_emit_3d_begin(b, &kernel, NULL);
	r = r ? r : gtdrv_emit_urb(b, &urb);
	r = r ? r : gtdrv_emit_geometry_off(b);
	r = r ? r : gtdrv_emit_vs(b, &(struct gtdrv_vs){ .kernel_offset = KERNEL_ADDR,
							.grf_start = 2, .read_length = 1,
							.output_length = 1 });
	r = r ? r : gtdrv_emit_vertex_buffers(b, &vb, 1);
	r = r ? r : gtdrv_emit_vertex_elements(b, &attrib, 1);
	r = r ? r : gtdrv_emit_draw(b, &(struct gtdrv_draw){ .topology = 1 /* POINTLIST */,
		.vertex_count = VERTICES, .instance_count = 1 });
	return r ? r : b->error;
}

/* Every command of the batch to the front end, as the render engine would. */
static int run(struct render_state *rs, const struct render_env *env, int gen,
	       const uint32_t *dw, uint32_t n)
{
	for (uint32_t i = 0; i < n; ) {
		const struct cmd_desc *d = cmd_find(gen, ENGINE_RCS, dw[i]);
		uint32_t len = d ? cmd_length(d, dw[i]) : 0;
		if (!d || !len || i + len > n)
			return -1;
		if (render_command(rs, env, d, dw + i, len) < 0) {
			fprintf(stderr, "bench_vf: %s\n", render_fault(rs));
			return -1;
		}
		i += len;
	}
	return 0;
}

int main(void)
{
	const struct gt_devinfo *info = devinfo_from_env();
	if (!info)
		return 1;
	/* GPU memory: host pages mapped 1:1 through a GGTT */
	uint8_t *host = aligned_alloc(4096, MEM_BYTES);
	struct gt_phys *phys = phys_create();
	struct gt_ggtt ggtt = { .size = MEM_BYTES, .ptes = calloc(MEM_BYTES / 4096, 8) };
	uint64_t pa = host && phys && ggtt.ptes ? phys_add(phys, host, MEM_BYTES) : 0;
	if (!pa)
		return 1;
	for (uint64_t i = 0; i < MEM_BYTES / 4096; i++)
		ggtt.ptes[i] = (pa + i * 4096) | GT_PTE_PRESENT | GT_PTE_RW;

	struct eu_asm_result res;
	if (eu_assemble(info->gen, vs20, strlen(vs20), "vs20", &res)) {
		fprintf(stderr, "bench_vf: %s\n", res.error);
		return 1;
	}
	memcpy(host + KERNEL_ADDR, res.bytes, res.len);
	eu_asm_result_free(&res);
	float *v = (float *)(host + VB_ADDR);
	for (uint32_t i = 0; i < VERTICES; i++) {
		v[4 * i + 0] = (float)(i % 1024) / 512.0f - 1.0f;
		v[4 * i + 1] = (float)(i / 1024) / 512.0f - 1.0f;
		v[4 * i + 2] = 0;
		v[4 * i + 3] = 1;
	}

	struct gtdrv drv;
	struct gtdrv_batch b;
	gtdrv_init(&drv, NULL, info);
	if (gtdrv_batch_init(&b, &drv) || build(&b, info)) {
		fprintf(stderr, "bench_vf: cannot build the batch\n");
		return 1;
	}
	struct cs_regs *regs = calloc(1, sizeof(*regs));
	struct render_state *rs = render_state_create(info);
	struct render_env env = { .vm = { .phys = phys, .ggtt = &ggtt }, .regs = regs };

	double t0 = now_s();
	if (run(rs, &env, info->gen, b.dw, b.used))
		return 1;
	double dt = now_s() - t0;

	struct render_profile p;
	render_set_profiling(rs, true);
	double t1 = now_s();
	run(rs, &env, info->gen, b.dw, b.used);
	double dtp = now_s() - t1;
	render_get_profile(rs, &p);
	double total = (double)(p.fetch_ns + p.dispatch_ns + p.eu_ns);

	printf("bench_vf: %u vertices, 20-instruction SIMD8 VS (%s)\n", VERTICES, info->short_name);
	printf("  VF + VS: %.2f M vertices/s (%.3f s), %llu VS invocations\n",
	       VERTICES / dt / 1e6, dt,
	       (unsigned long long)regs_get64(regs, REG_VS_INVOCATION_COUNT) / 2);
	if (total > 0)
		printf("  profiled run (%.3f s): fetch %.0f%%, dispatch %.0f%%, EU %.0f%% "
		       "(%.1f, %.1f, %.1f ns per vertex)\n", dtp,
		       100.0 * p.fetch_ns / total, 100.0 * p.dispatch_ns / total,
		       100.0 * p.eu_ns / total, (double)p.fetch_ns / VERTICES,
		       (double)p.dispatch_ns / VERTICES, (double)p.eu_ns / VERTICES);
	render_state_destroy(rs);
	gtdrv_batch_fini(&b);
	free(regs);
	phys_destroy(phys);
	free(ggtt.ptes);
	free(host);
	return 0;
}
