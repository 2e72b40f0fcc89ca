/* Bad draws are GPU faults, never host crashes (DESIGN.md; issues 4, 5
 * and 6), end to end: libgtdrv's draw setup (drv/draw_setup.h) builds
 * seed 000's full-window square,
 * EXECBUFFER2 submits it in a context of its own, the simulated GPU runs
 * it. For each bad draw:
 *   (a) a VS with an undefined opcode (0x7f, hand-encoded: no opcode of
 *       the Gen8/Gen9 PRM opcode tables; iga64 -p=8/-p=9 cannot decode it),
 *   (b) a PS reading past g127 through an indirect region (a0.0 = 4096,
 *       the byte after the 128 x 32-byte GRF file) and through a direct
 *       region starting at g127.4,
 *   (c) a PS render target write to an unbound binding table entry (1,
 *       whose entry is 0),
 *   (e) a VS render target write (the render cache is the PS's only),
 * the host survives, GEM_WAIT returns, the batch's out-fence signals
 * -EIO, GET_RESET_STATS counts one guilty batch for that context
 * (batch_active) and one more reset, the error
 * state (gtsim_error_state() and the $GTSIM_ERROR_STATE file) names the
 * fault, not a byte of the faulting context's buffers changed (the render
 * target, a guard object placed right after it, the state and the
 * kernels), and another context's following draw renders every pixel.
 *   (d) A vertex buffer whose address points at unmapped memory with a
 *       Buffer Size of 0: every element lies outside the buffer, so the VF
 *       reads zeros without touching memory (PRM vol. 2d
 *       VERTEX_BUFFER_STATE, issue 5's buffer-size rule): no fault, the
 *       draw completes, the colour element fetched from it is (0, 0, 0)
 *       plus the 1.0 of STORE_1_FP.
 *   (d') The same address with a Buffer Size that covers the reads:
 *       gtsim's PPGTT has no scratch page (i915 points unused PTEs at
 *       one, so the hardware would read its zeros), so the read is a page
 *       fault: a GPU fault like the others, and nothing else changes.
 *   (f) BLEND_STATE whose last entries lie past the end of their object:
 *       entries of render targets no message writes are not read. */
#include <errno.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv/draw_setup.h"
#include "drv/seed_shaders.h"
#include "gpu/eu/asm.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"
#include "sync_file_check.h"
#include "test.h"

#define W 32u
#define H 32u
#define PITCH (W * 4)
#define RT_BYTES (PITCH * H)          /* exactly one page: the guard follows the surface */
#define RT_ADDR 0x10000000ull         /* presumed offsets: execbuf places an unbound */
#define GUARD_ADDR (RT_ADDR + RT_BYTES) /* object where userspace presumed it */
#define UNMAPPED_ADDR 0xe0000000ull   /* nothing is ever bound there */
#define DYN_ADDR 0x20000000ull        /* the dynamic state's page; the next is unmapped */
#define DYN_GUARD GTDRV_DRAW_DYN_FREE /* a qword nobody reads: puts the guard in the exec list */
#define RT_FILL 0x11223344u
#define GUARD_FILL 0xdeadbeefu

enum { R32G32B32A32_FLOAT = 0, R32G32B32_FLOAT = 0x40 };

/* One context's draw: its buffers, the render target and its guard. */
struct scene {
	struct gtdrv drv;
	struct gtdrv_draw_setup ds;
	struct gtdrv_bo guard;
};

/* The program of one draw. */
struct program {
	uint8_t vs[512], fs[512];
	size_t vs_len, fs_len;
	bool colour_vb;        /* element 1: a colour from vertex buffer 1 */
	uint32_t vb1_size;     /* vertex buffer 1 at UNMAPPED_ADDR */
	uint32_t blend_offset; /* BLEND_STATE in dyn; 0: draw_setup's */
};

static struct gtsim_device *dev;
static struct gtsim_file *file;
static char error_path[] = "/tmp/gtsim-draw-faults-XXXXXX";

static size_t assemble(const char *text, uint8_t *out, size_t cap)
{
	struct eu_asm_result res;
	if (eu_assemble(8, text, strlen(text), "test.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		CHECK(0);
		return 0;
	}
	size_t n = res.len <= cap ? res.len : 0;
	CHECK(n != 0);
	memcpy(out, res.bytes, n);
	eu_asm_result_free(&res);
	return n;
}

static void fill(struct scene *sc, struct gtdrv_bo *bo, uint32_t value)
{
	uint32_t words[RT_BYTES / 4];
	for (unsigned i = 0; i < RT_BYTES / 4; i++)
		words[i] = value;
	CHECK_EQ(gtdrv_bo_write(&sc->drv, bo, 0, words, sizeof(words)), 0);
}

static uint32_t context_create(void)
{
	struct drm_i915_gem_context_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	return c.ctx_id;
}

/* Buffers and state of seed 000's square into a W x H RGBA8 target
 * (gtdrv_draw_setup_init: viewport onto the target, no blending, binding
 * table entry 0 the target, entry 1 unbound), and the guard. */
static void scene_init(struct scene *sc, uint32_t ctx)
{
	gtdrv_init(&sc->drv, file, devinfo_lookup("bdw"));
	sc->drv.ctx_id = ctx;
	CHECK_EQ(gtdrv_draw_setup_init(&sc->ds, &sc->drv, W, H), 0);
	CHECK_EQ(sc->ds.pitch, PITCH);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->guard, 4096), 0);
	sc->ds.rt.offset = RT_ADDR;
	sc->guard.offset = GUARD_ADDR;
	sc->ds.dyn.offset = DYN_ADDR;
	fill(sc, &sc->ds.rt, RT_FILL);
	fill(sc, &sc->guard, GUARD_FILL);
}

static void scene_fini(struct scene *sc)
{
	gtdrv_draw_setup_fini(&sc->ds);
	gtdrv_bo_free(&sc->drv, &sc->guard);
}

static void upload(struct scene *sc, const struct program *p)
{
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->ds.kernel, 0, p->vs, p->vs_len), 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->ds.kernel, GTDRV_DRAW_FS_OFFSET, p->fs, p->fs_len), 0);
}

/* The square with the uploaded program p, submitted and waited for
 * (gtdrv_batch_submit waits with GEM_WAIT); with fence, its out-fence's
 * sync_file fd there. Returns the submission's result. */
static int submit(struct scene *sc, const struct program *p, int *fence)
{
	struct gtdrv_batch b;
	int r = gtdrv_batch_init(&b, &sc->drv);
	if (r)
		return r;
	gtdrv_batch_state_reloc(&b, &sc->ds.dyn, DYN_GUARD, &sc->guard,
				I915_GEM_DOMAIN_RENDER, 0, 0);
	/* vertex buffer 1, with a colour element: a raw address nothing is
	 * bound at */
	const struct gtdrv_vb vb1 = { .index = 1, .bo = NULL, .offset = UNMAPPED_ADDR,
				      .pitch = 16, .size = p->vb1_size };
	const struct gtdrv_vertex_attrib attribs[2] = {
		{ .buffer = 0, .format = R32G32B32A32_FLOAT, .size = 4 },
		{ .buffer = 1, .format = R32G32B32_FLOAT, .size = 3 },
	};
	r = gtdrv_draw_emit(&b, &sc->ds, &(const struct gtdrv_draw_options){
		.attribs = attribs, .nattribs = p->colour_vb ? 2 : 1,
		.extra_vbs = &vb1, .nextra_vbs = p->colour_vb ? 1 : 0,
		.binding_table_entries = 2, .blend_state_offset = p->blend_offset });
	b.fence_out = fence;
	r = r ? r : gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	/* execbuf placed the guard right after the render target */
	CHECK_EQ(sc->ds.rt.offset, RT_ADDR);
	CHECK_EQ(sc->guard.offset, GUARD_ADDR);
	CHECK_EQ(sc->ds.dyn.offset, DYN_ADDR);
	const struct gtdrv_bo *others[] = { &sc->ds.kernel, &sc->ds.surf, &sc->ds.vbo, &sc->ds.rt,
					    &sc->guard };
	for (unsigned i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		CHECK(others[i]->offset != DYN_ADDR + 4096);
	return r;
}

static int draw(struct scene *sc, const struct program *p)
{
	upload(sc, p);
	return submit(sc, p, NULL);
}

/* SYNC_IOC_FILE_INFO's status of a sync_file (1 signaled, < 0 its
 * error), which is then closed. */
/* Every pixel of the target is rgba (R, G, B, A bytes). */
static void check_pixels(struct scene *sc, const uint8_t rgba[4])
{
	static uint8_t px[RT_BYTES];
	CHECK_EQ(gtdrv_bo_read(&sc->drv, &sc->ds.rt, 0, px, sizeof(px)), 0);
	unsigned bad = 0;
	for (unsigned i = 0; i < RT_BYTES; i += 4)
		bad += memcmp(px + i, rgba, 4) != 0;
	if (bad)
		fprintf(stderr, "%u pixels differ; pixel 0 = %02x %02x %02x %02x\n", bad, px[0],
			px[1], px[2], px[3]);
	CHECK_EQ(bad, 0);
}

/* The guard right after the target still holds its fill. */
static void check_guard(struct scene *sc)
{
	static uint32_t g[RT_BYTES / 4];
	CHECK_EQ(gtdrv_bo_read(&sc->drv, &sc->guard, 0, g, sizeof(g)), 0);
	unsigned bad = 0;
	for (unsigned i = 0; i < RT_BYTES / 4; i++)
		bad += g[i] != GUARD_FILL;
	CHECK_EQ(bad, 0);
}

/* Every buffer of a scene, as it is now. */
struct snapshot {
	uint8_t bytes[6][4096];
};

static void snapshot_take(struct scene *sc, struct snapshot *s)
{
	struct gtdrv_bo *bos[] = { &sc->ds.kernel, &sc->ds.dyn, &sc->ds.surf, &sc->ds.vbo,
				   &sc->ds.rt, &sc->guard };
	for (size_t i = 0; i < 6; i++)
		CHECK_EQ(gtdrv_bo_read(&sc->drv, bos[i], 0, s->bytes[i], 4096), 0);
}

static void check_unchanged(struct scene *sc, const struct snapshot *before)
{
	static const char *const names[6] = { "kernels", "dynamic state", "surface state",
					      "vertex buffer", "render target", "guard" };
	static struct snapshot now;
	snapshot_take(sc, &now);
	for (size_t i = 0; i < 6; i++) {
		bool same = !memcmp(before->bytes[i], now.bytes[i], 4096);
		if (!same)
			fprintf(stderr, "the %s changed\n", names[i]);
		CHECK(same);
	}
}

static void reset_stats(uint32_t ctx, uint32_t *resets, uint32_t *active, uint32_t *pending)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	*resets = rs.reset_count;
	*active = rs.batch_active;
	*pending = rs.batch_pending;
}

static const uint8_t green[4] = { 0, 255, 0, 255 };

static void program_green(struct program *p)
{
	memset(p, 0, sizeof(*p));
	p->vs_len = assemble(gtdrv_green_vs, p->vs, sizeof(p->vs));
	p->fs_len = assemble(gtdrv_color_fs, p->fs, sizeof(p->fs));
}

/* The good context: a fresh target, the green square, every pixel green,
 * its guard untouched. */
static void check_good_context(struct scene *good)
{
	fill(good, &good->ds.rt, RT_FILL);
	struct program p;
	program_green(&p);
	upload(good, &p);
	int fence;
	CHECK_EQ(submit(good, &p, &fence), 0);
	CHECK_EQ(sync_file_status(fence), 1);
	check_pixels(good, green);
	check_guard(good);
	uint32_t resets, active, pending;
	reset_stats(good->drv.ctx_id, &resets, &active, &pending);
	CHECK_EQ(active, 0);
	CHECK_EQ(pending, 0);
}

static char *read_error_file(void)
{
	FILE *f = fopen(error_path, "r");
	if (!f)
		return NULL;
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = 0;
	fclose(f);
	return text;
}

/* In a fresh context: the green square first (the setup is sound), then
 * the bad program. fault: the words the error state must hold, or NULL
 * when the draw must complete without a fault (then want_rgba is every
 * pixel). The good context's next draw must be right either way. */
static void run_case(const char *name, struct scene *good, const struct program *bad,
		     const char *fault, const uint8_t *want_rgba)
{
	printf("%s\n", name);
	struct scene sc;
	uint32_t ctx = context_create();
	scene_init(&sc, ctx);
	struct program p;
	program_green(&p);
	CHECK_EQ(draw(&sc, &p), 0);
	check_pixels(&sc, green);
	fill(&sc, &sc.ds.rt, RT_FILL);

	uint32_t resets0, resets, active, pending;
	reset_stats(ctx, &resets0, &active, &pending);
	CHECK_EQ(active, 0);
	char *before = gtsim_error_state(dev);
	upload(&sc, bad);
	static struct snapshot snap;
	snapshot_take(&sc, &snap);

	/* The bad draw: GEM_WAIT in gtdrv_batch_submit returns (a reset
	 * request counts as finished, as in i915); its out-fence carries
	 * the request's error. */
	int fence;
	CHECK_EQ(submit(&sc, bad, &fence), 0);
	CHECK_EQ(sync_file_status(fence), fault ? -EIO : 1);
	gtsim_device_idle(dev);
	reset_stats(ctx, &resets, &active, &pending);
	CHECK_EQ(pending, 0);
	char *after = gtsim_error_state(dev);
	if (fault) {
		/* an engine reset (i915.reset=2): reset_count counts full-GPU
		 * resets only (Linux 6.1 i915_reset_count) */
		CHECK_EQ(resets, resets0);
		CHECK_EQ(active, 1);
		check_unchanged(&sc, &snap);
		CHECK(after != NULL);
		if (after && !strstr(after, fault))
			fprintf(stderr, "error state lacks \"%s\":\n%.300s\n", fault, after);
		CHECK(after && strstr(after, fault));
		CHECK(after && strstr(after, "PCI ID: 0x1616"));
		const char *text = read_error_file();
		CHECK(text && after && !strcmp(text, after));
	} else {
		CHECK_EQ(resets, resets0);
		CHECK_EQ(active, 0);
		CHECK((!before && !after) || (before && after && !strcmp(before, after)));
		check_pixels(&sc, want_rgba);
		check_guard(&sc);
	}
	free(before);
	free(after);

	/* the faulting context is not banned after one hang: it draws again */
	fill(&sc, &sc.ds.rt, RT_FILL);
	CHECK_EQ(draw(&sc, &p), 0);
	check_pixels(&sc, green);
	check_good_context(good);
	scene_fini(&sc);
	struct drm_i915_gem_context_destroy d = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), 0);
}

/* (a) The green VS with an instruction of opcode 0x7f after its first
 * (compacted, 8-byte) instruction: DWord 0 bits 6:0 the opcode, bits
 * 23:21 exec size 3 (SIMD8), everything else 0 (PRM vol. 7, "EU
 * Instruction Format"). */
static void undefined_opcode_vs(struct scene *good)
{
	struct program p;
	program_green(&p);
	static const uint8_t illegal[16] = { 0x7f, 0x00, 0x60, 0x00 };
	CHECK(p.vs_len + 16 <= sizeof(p.vs));
	memmove(p.vs + 24, p.vs + 8, p.vs_len - 8);
	memcpy(p.vs + 8, illegal, 16);
	p.vs_len += 16;
	run_case("(a) VS with undefined opcode 0x7f", good, &p,
		 "illegal instruction exception at offset 0x8: undefined opcode 0x7f", NULL);
}

/* (b) PS register reads past g127: a0.0 = 4096 is the byte after g127
 * (128 registers of 32 bytes), and g127.4<8,8,1>F reads g127.4..g128.3. */
static void grf_overrun_ps(struct scene *good)
{
	struct program p;
	program_green(&p);
	char text[2048];
	snprintf(text, sizeof(text), "%s%s",
		 "mov(1)          a0<1>UW         0x1000UW                        { align1 WE_all 1N };\n"
		 "mov(8)          g124<1>F        g[a0 0]<8,8,1>F                 { align1 1Q };\n",
		 gtdrv_color_fs);
	p.fs_len = assemble(text, p.fs, sizeof(p.fs));
	run_case("(b) PS indirect read past g127", good, &p, "past the GRF file", NULL);

	snprintf(text, sizeof(text), "%s%s",
		 "mov(8)          g10<1>F         g127.4<8,8,1>F                  { align1 1Q };\n",
		 gtdrv_color_fs);
	p.fs_len = assemble(text, p.fs, sizeof(p.fs));
	run_case("(b) PS region g127.4<8,8,1> past g127", good, &p,
		 "region past the end of the register file", NULL);
}

/* text with the first `from` replaced by `to` (same length) */
static void replace(char *text, const char *from, const char *to)
{
	char *at = strstr(text, from);
	CHECK(at != NULL && strlen(from) == strlen(to));
	if (at && strlen(from) == strlen(to))
		memcpy(at, to, strlen(to));
}

/* (c) The colour FS writing binding table entry 1 (descriptor bits 7:0),
 * which is 0: unbound. */
static void unbound_entry_ps(struct scene *good)
{
	struct program p;
	program_green(&p);
	char fs[1024];
	snprintf(fs, sizeof(fs), "%s", gtdrv_color_fs);
	replace(fs, "0x88031400", "0x88031401");
	replace(fs, "Surface = 0", "Surface = 1");
	p.fs_len = assemble(fs, p.fs, sizeof(p.fs));
	CHECK_EQ(p.fs[p.fs_len - 4], 0x01);   /* descriptor bits 7:0 in the last dword */
	run_case("(c) PS RT write to unbound binding table entry 1", good, &p,
		 "binding table entry 1 is unbound", NULL);
}

/* (d) A VS passing the colour element (g6-g9) on; the colour comes from
 * vertex buffer 1 at an unmapped address. */
static void unmapped_vertex_buffer(struct scene *good)
{
	struct program p;
	program_green(&p);
	const char *vs =
		"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
		"mov(8)          g120<1>F        g2<8,8,1>F                      { align1 1Q };\n"
		"mov(8)          g121<1>F        g3<8,8,1>F                      { align1 1Q };\n"
		"mov(8)          g122<1>F        g4<8,8,1>F                      { align1 1Q };\n"
		"mov(8)          g123<1>F        g5<8,8,1>F                      { align1 1Q };\n"
		"mov(8)          g124<1>F        g6<8,8,1>F                      { align1 1Q };\n"
		"mov(8)          g125<1>F        g7<8,8,1>F                      { align1 1Q };\n"
		"mov(8)          g126<1>F        g8<8,8,1>F                      { align1 1Q };\n"
		"mov(8)          g127<1>F        g9<8,8,1>F                      { align1 1Q };\n"
		"send(8)         null<1>F        g119<8,8,1>F\n"
		"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";
	p.vs_len = assemble(vs, p.vs, sizeof(p.vs));
	p.colour_vb = true;
	p.vb1_size = 0;
	static const uint8_t black[4] = { 0, 0, 0, 255 };
	run_case("(d) vertex buffer at unmapped memory, Buffer Size 0", good, &p, NULL, black);

	p.vb1_size = 64;
	run_case("(d') vertex buffer at unmapped memory, Buffer Size 64", good, &p,
		 "page fault reading vertex buffer 1", NULL);
}

/* (e) A VS sending a render-target write: the render cache is wired for
 * the PS only (render_sfids), so for the VS it is a shared function no unit
 * implements, a fault naming it ("render", as Mesa's disassembler names
 * SFID 5). */
static void render_cache_from_vs(struct scene *good)
{
	struct program p;
	program_green(&p);
	const char *vs =
		"sendc(8)        null<1>UW       g1<8,8,1>F    0x88031400\n"
		"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";
	p.vs_len = assemble(vs, p.vs, sizeof(p.vs));
	run_case("(e) VS RT write to the render cache", good, &p,
		 "send to shared function render (sfid 5) which no unit implements", NULL);
}

/* (f) BLEND_STATE in the last 64 bytes of the dynamic state's page, as
 * iris places it (its state buffers are allocated from the top of the
 * dynamic zone): the header and entries 0-6 are mapped, entry 7 (dwords
 * 15-16, from byte 0xffc) runs past the page into unmapped memory. The
 * hardware reads the entry of the render target a message writes (PRM
 * vol. 2d BLEND_STATE: one BLEND_STATE_ENTRY per render target), so a
 * draw writing render target 0 completes: every pixel green, no fault. */
static void blend_state_at_page_end(struct scene *good)
{
	struct program p;
	program_green(&p);
	p.blend_offset = 4096 - 64;
	run_case("(f) BLEND_STATE in the last 64 bytes of its page", good, &p, NULL, green);
}

static void run(int sync)
{
	printf("GTSIM_SYNC=%d\n", sync);
	struct gtsim_config cfg = { .device = "bdw", .sync = sync, .hangcheck_ms = 100 };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	file = gtsim_open(dev);
	CHECK(file != NULL);
	struct scene good;
	scene_init(&good, context_create());
	check_good_context(&good);
	undefined_opcode_vs(&good);
	grf_overrun_ps(&good);
	unbound_entry_ps(&good);
	unmapped_vertex_buffer(&good);
	render_cache_from_vs(&good);
	blend_state_at_page_end(&good);
	scene_fini(&good);
	gtsim_close(file);
	gtsim_device_destroy(dev);
}

int main(void)
{
	int fd = mkstemp(error_path);
	if (fd < 0)
		test_skip("cannot create a temporary file for the error state");
	close(fd);
	setenv("GTSIM_ERROR_STATE", error_path, 1);
	run(0);
	run(1);
	unlink(error_path);
	return test_exit();
}
