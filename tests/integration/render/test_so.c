/* Stream output through libgtdrv and execbuf (PRM vol. 2a 3DSTATE_STREAMOUT,
 * 3DSTATE_SO_DECL_LIST, 3DSTATE_SO_BUFFER): points, line strips,
 * triangle strips and fans in both reorder modes, several buffers with pitches and
 * holes, overflow with SO_NUM_PRIMS_WRITTEN / SO_PRIM_STORAGE_NEEDED read
 * back by MI_STORE_REGISTER_MEM, pause and resume through SO_WRITE_OFFSET
 * and through the offset address (Stream Offset 0xFFFFFFFF), pause by
 * disabling the buffer (anv), and rendering
 * disable / render stream select seen by CL_INVOCATION_COUNT. Every
 * expected buffer is written out by hand from the vertices' numbers. */
#include "so_drv_fixture.h"

enum { POINTLIST = 1, LINESTRIP = 3, TRILIST = 4, TRISTRIP = 5, LINELOOP = 16, LEADING = 0,
       TRAILING = 1 };

struct decl {
	unsigned buffer, reg, mask;
	bool hole;
};

/* 3DSTATE_SO_BUFFER idx on s->so[idx]: size bytes; with write, Stream
 * Offset `offset`; offset_at >= 0 enables the offset address at that
 * offset of the result buffer. */
static void so_buffer(struct sx *s, unsigned idx, uint32_t size, bool write, uint32_t offset,
		      int offset_at)
{
	int gen = s->drv.gen;
	uint32_t len = GTDRV_CMD_LEN(&s->b, 3DSTATE_SO_BUFFER);
	uint32_t *dw = gtdrv_cmd_start(&s->b, len);
	struct cmd_3DSTATE_SO_BUFFER v = {
		.so_buffer_enable = true, .so_buffer_index = idx,
		.surface_base_address = s->so[idx].offset, .surface_size = size / 4 - 1,
		.stream_offset_write_enable = write, .stream_offset = offset,
	};
	gtdrv_cmd_reloc(&s->b, cmd_3DSTATE_SO_BUFFER_surface_base_address_bit(gen), &s->so[idx],
			I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	if (offset_at >= 0) {
		v.stream_output_buffer_offset_address_enable = true;
		v.stream_output_buffer_offset_address = s->res.offset + (uint32_t)offset_at;
		gtdrv_cmd_reloc(&s->b,
				cmd_3DSTATE_SO_BUFFER_stream_output_buffer_offset_address_bit(gen),
				&s->res, I915_GEM_DOMAIN_INSTRUCTION, I915_GEM_DOMAIN_INSTRUCTION);
	}
	CHECK_EQ(gtdrv_cmd_end(&s->b, "3DSTATE_SO_BUFFER",
			       cmd_3DSTATE_SO_BUFFER_pack(gen, dw, len, &v)), 0);
}

/* 3DSTATE_SO_DECL_LIST with stream 0's decls (and stream 1's, if any). */
static void so_decls(struct sx *s, uint32_t select0, const struct decl *d0, unsigned n0,
		     uint32_t select1, const struct decl *d1, unsigned n1)
{
	int gen = s->drv.gen;
	unsigned n = n0 > n1 ? n0 : n1;
	uint32_t len = 3 + 2 * n;
	uint32_t *dw = gtdrv_cmd_start(&s->b, len);
	int r = cmd_3DSTATE_SO_DECL_LIST_pack(gen, dw, len, &(const struct cmd_3DSTATE_SO_DECL_LIST){
		.stream_to_buffer_selects_0 = select0, .num_entries_0 = n0,
		.stream_to_buffer_selects_1 = select1, .num_entries_1 = n1 });
	for (unsigned i = 0; i < n && !r; i++) {
		struct cmd_SO_DECL_ENTRY e = { 0 };
		if (i < n0)
			e.stream_0_decl = (struct cmd_SO_DECL){ .output_buffer_slot = d0[i].buffer,
				.register_index = d0[i].reg, .component_mask = d0[i].mask,
				.hole_flag = d0[i].hole };
		if (i < n1)
			e.stream_1_decl = (struct cmd_SO_DECL){ .output_buffer_slot = d1[i].buffer,
				.register_index = d1[i].reg, .component_mask = d1[i].mask,
				.hole_flag = d1[i].hole };
		r = cmd_3DSTATE_SO_DECL_LIST_entry_set(gen, dw, len, i, &e);
	}
	CHECK_EQ(gtdrv_cmd_end(&s->b, "3DSTATE_SO_DECL_LIST", r), 0);
}

/* 3DSTATE_STREAMOUT: SO on with statistics, streams 0 and 1 reading VUE
 * rows 0-3 (Vertex Read Length 1: two 256-bit units). */
static void streamout(struct sx *s, bool render, unsigned render_stream, unsigned reorder,
		      const uint32_t pitch[4])
{
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_STREAMOUT, .so_function_enable = true,
			    .so_statistics_enable = true, .rendering_disable = !render,
			    .render_stream_select = render_stream, .reorder_mode = reorder,
			    .stream_0_vertex_read_length = 1, .stream_1_vertex_read_length = 1,
			    .buffer_0_surface_pitch = pitch[0], .buffer_1_surface_pitch = pitch[1],
			    .buffer_2_surface_pitch = pitch[2],
			    .buffer_3_surface_pitch = pitch[3]), 0);
}

/* SO_NUM_PRIMS_WRITTEN0, SO_PRIM_STORAGE_NEEDED0, SO_WRITE_OFFSET0,
 * SO_WRITE_OFFSET1 into the result buffer at `at`. */
static void store_so_regs(struct sx *s, uint32_t at)
{
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_NUM_PRIMS_WRITTEN(0), &s->res, at), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_PRIM_STORAGE_NEEDED(0), &s->res, at + 4), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_WRITE_OFFSET(0), &s->res, at + 8), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_WRITE_OFFSET(1), &s->res, at + 12), 0);
}

/* Buffer idx's first n dwords against want (floats; SX_MARK where
 * nothing was written). */
static void check_buffer(struct sx *s, unsigned idx, const uint32_t *want, unsigned n,
			 const char *what)
{
	uint32_t got[256];
	CHECK(n <= 256);
	CHECK_EQ(gtdrv_bo_read(&s->drv, &s->so[idx], 0, got, n * 4), 0);
	for (unsigned i = 0; i < n; i++)
		if (got[i] != want[i]) {
			fprintf(stderr, "%s: buffer %u dword %u: 0x%08x, want 0x%08x\n", what, idx,
				i, got[i], want[i]);
			CHECK(0);
			return;
		}
}

static uint32_t fb(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* component c of vertex v as the VUE's row 1 holds it */
static uint32_t cv(unsigned v, unsigned c)
{
	return fb(sx_comp(v, c));
}

static const uint32_t pitch16[4] = { 16, 16, 16, 16 };

/* Four points, whole row 1 into buffer 0 at pitch 16. */
static void points(struct sx *s)
{
	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0xf, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, pitch16);
	sx_draw(s, POINTLIST, false, 4, 0, 1);
	store_so_regs(s, 0);
	sx_end(s);
	uint32_t want[17];
	for (unsigned v = 0; v < 4; v++)
		for (unsigned c = 0; c < 4; c++)
			want[v * 4 + c] = cv(v, c);
	want[16] = SX_MARK;
	check_buffer(s, 0, want, 17, "points");
	CHECK_EQ(sx_res(s, 0), 4);     /* written */
	CHECK_EQ(sx_res(s, 4), 4);     /* storage needed */
	CHECK_EQ(sx_res(s, 8), 64);    /* 4 vertices x 16 bytes */
}

/* A 4-vertex line strip: lines (0,1) (1,2) (2,3), x and y at pitch 8. */
static void line_strip(struct sx *s)
{
	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0x3, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, (const uint32_t[4]){ 8 });
	sx_draw(s, LINESTRIP, false, 4, 0, 1);
	store_so_regs(s, 0);
	sx_end(s);
	static const unsigned order[6] = { 0, 1, 1, 2, 2, 3 };
	uint32_t want[13];
	for (unsigned i = 0; i < 6; i++) {
		want[2 * i] = cv(order[i], 0);
		want[2 * i + 1] = cv(order[i], 1);
	}
	want[12] = SX_MARK;
	check_buffer(s, 0, want, 13, "line strip");
	CHECK_EQ(sx_res(s, 0), 3);
	CHECK_EQ(sx_res(s, 4), 3);
	CHECK_EQ(sx_res(s, 8), 48);
}

/* A 5-vertex triangle strip, x only: triangles 0 and 2 keep (i, i+1, i+2);
 * the odd one is (2, 1, 3) in TRAILING mode, (1, 3, 2) in LEADING mode
 * (the first or the last vertex of the strip order kept in place). */
static void tri_strip(struct sx *s, unsigned mode)
{
	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0x1, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, mode, (const uint32_t[4]){ 4 });
	sx_draw(s, TRISTRIP, false, 5, 0, 1);
	store_so_regs(s, 0);
	sx_end(s);
	static const unsigned trailing[9] = { 0, 1, 2, 2, 1, 3, 2, 3, 4 };
	static const unsigned leading[9] = { 0, 1, 2, 1, 3, 2, 2, 3, 4 };
	uint32_t want[10];
	for (unsigned i = 0; i < 9; i++)
		want[i] = cv(mode == TRAILING ? trailing[i] : leading[i], 0);
	want[9] = SX_MARK;
	check_buffer(s, 0, want, 10, mode == TRAILING ? "strip, trailing" : "strip, leading");
	CHECK_EQ(sx_res(s, 0), 3);
	CHECK_EQ(sx_res(s, 8), 36);
}

/* A 4-vertex fan, x only: (0, 1, 2), (0, 2, 3) in TRAILING mode (the last
 * vertex stays last), (1, 2, 0), (2, 3, 0) in LEADING mode (the fan's
 * leading vertex first), the winding kept. */
static void tri_fan(struct sx *s, unsigned mode)
{
	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0x1, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, mode, (const uint32_t[4]){ 4 });
	sx_draw(s, 6 /* TRIFAN */, false, 4, 0, 1);
	sx_end(s);
	static const unsigned trailing[6] = { 0, 1, 2, 0, 2, 3 };
	static const unsigned leading[6] = { 1, 2, 0, 2, 3, 0 };
	uint32_t want[7];
	for (unsigned i = 0; i < 6; i++)
		want[i] = cv(mode == TRAILING ? trailing[i] : leading[i], 0);
	want[6] = SX_MARK;
	check_buffer(s, 0, want, 7, mode == TRAILING ? "fan, trailing" : "fan, leading");
}

/* One triangle into two buffers: buffer 0 (pitch 24) gets x, y, a
 * one-dword hole, then row 2's y (1.0) and keeps two dwords of pitch
 * untouched; buffer 1 (pitch 8) gets z, w. The second buffer starts at
 * Stream Offset 8. */
static void buffers_and_holes(struct sx *s)
{
	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_buffer(s, 1, SX_SO_BYTES, true, 8, -1);
	so_decls(s, 3, (struct decl[]){ { 0, 1, 0x3, false }, { 1, 1, 0xc, false },
					{ 0, 0, 0x1, true }, { 0, 2, 0x2, false } }, 4, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, (const uint32_t[4]){ 24, 8 });
	sx_draw(s, TRILIST, false, 3, 0, 1);
	store_so_regs(s, 0);
	sx_end(s);
	uint32_t want0[19], want1[9];
	for (unsigned i = 0; i < 19; i++)
		want0[i] = SX_MARK;
	for (unsigned i = 0; i < 9; i++)
		want1[i] = SX_MARK;
	for (unsigned v = 0; v < 3; v++) {
		want0[6 * v] = cv(v, 0);
		want0[6 * v + 1] = cv(v, 1);
		want0[6 * v + 3] = fb(1.0f);
		want1[2 + 2 * v] = cv(v, 2);
		want1[2 + 2 * v + 1] = cv(v, 3);
	}
	check_buffer(s, 0, want0, 19, "buffer 0 with a hole");
	check_buffer(s, 1, want1, 9, "buffer 1 from offset 8");
	CHECK_EQ(sx_res(s, 0), 1);
	CHECK_EQ(sx_res(s, 8), 72);          /* 3 x 24 */
	CHECK_EQ(sx_res(s, 12), 8 + 24);     /* 8 + 3 x 8 */
}

/* Overflow: buffer 0 holds 40 bytes (2.5 points of 16): points 0 and 1
 * are written, 2..4 are not; SO_PRIM_STORAGE_NEEDED counts all 5. Then
 * triangles into buffer 0 (room for 9 of 4-byte x's) and buffer 1 (room
 * for 4): the first fits both, the second fits buffer 0 only and is
 * dropped from both. */
static void overflow(struct sx *s)
{
	sx_begin(s);
	so_buffer(s, 0, 40, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0xf, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, pitch16);
	sx_draw(s, POINTLIST, false, 5, 0, 1);
	store_so_regs(s, 0);
	sx_end(s);
	uint32_t want[11];
	for (unsigned v = 0; v < 2; v++)
		for (unsigned c = 0; c < 4; c++)
			want[v * 4 + c] = cv(v, c);
	want[8] = want[9] = want[10] = SX_MARK;
	check_buffer(s, 0, want, 11, "overflowing points");
	CHECK_EQ(sx_res(s, 0), 2);
	CHECK_EQ(sx_res(s, 4), 5);
	CHECK_EQ(sx_res(s, 8), 32);

	sx_begin(s);
	so_buffer(s, 0, 36, true, 0, -1);
	so_buffer(s, 1, 16, true, 0, -1);
	so_decls(s, 3, (struct decl[]){ { 0, 1, 0x1, false }, { 1, 1, 0x2, false } }, 2,
		 0, NULL, 0);
	streamout(s, false, 0, TRAILING, (const uint32_t[4]){ 4, 4 });
	sx_draw(s, TRILIST, false, 6, 0, 1);
	store_so_regs(s, 0);
	sx_end(s);
	uint32_t w0[4] = { cv(0, 0), cv(1, 0), cv(2, 0), SX_MARK };
	uint32_t w1[4] = { cv(0, 1), cv(1, 1), cv(2, 1), SX_MARK };
	check_buffer(s, 0, w0, 4, "overflow of the smaller buffer, buffer 0");
	check_buffer(s, 1, w1, 4, "overflow of the smaller buffer, buffer 1");
	CHECK_EQ(sx_res(s, 0), 1);
	CHECK_EQ(sx_res(s, 4), 2);
	CHECK_EQ(sx_res(s, 8), 12);
	CHECK_EQ(sx_res(s, 12), 12);
}

/* Pause and resume: 2 points, SO_WRITE_OFFSET0 stored (pause), the
 * register overwritten (another transform feedback object), loaded back
 * (resume), 2 more points: the buffer holds points 0-3 in a row. Then the
 * Gen8 way: the offset address with Stream Offset 0 (written back after
 * the draw) and 0xFFFFFFFF (loaded from there) appends likewise. */
static void pause_resume(struct sx *s)
{
	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0xf, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, pitch16);
	sx_draw(s, POINTLIST, false, 2, 0, 1);
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_WRITE_OFFSET(0), &s->res, 64), 0);
	CHECK_EQ(gtdrv_emit_lri(&s->b, SO_WRITE_OFFSET(0), 0x800), 0);
	sx_lrm(s, SO_WRITE_OFFSET(0), 64);
	sx_draw(s, POINTLIST, false, 2, 2, 1);
	store_so_regs(s, 0);
	sx_end(s);
	uint32_t want[17];
	for (unsigned v = 0; v < 4; v++)
		for (unsigned c = 0; c < 4; c++)
			want[v * 4 + c] = cv(v, c);
	want[16] = SX_MARK;
	check_buffer(s, 0, want, 17, "paused and resumed");
	CHECK_EQ(sx_res(s, 64), 32);
	CHECK_EQ(sx_res(s, 8), 64);

	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, 128);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0xf, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, pitch16);
	sx_draw(s, POINTLIST, false, 2, 0, 1);
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_WRITE_OFFSET(0), &s->res, 132), 0);
	CHECK_EQ(gtdrv_emit_lri(&s->b, SO_WRITE_OFFSET(0), 0x800), 0);
	so_buffer(s, 0, SX_SO_BYTES, true, 0xffffffffu, 128);
	sx_draw(s, POINTLIST, false, 2, 2, 1);
	sx_end(s);
	check_buffer(s, 0, want, 17, "appended through the offset address");
	CHECK_EQ(sx_res(s, 132), 32);
	CHECK_EQ(sx_res(s, 128), 64);        /* stored after the second draw */
}

/* Paused as anv pauses (SO function on, every SO_BUFFER disabled): the
 * stream's points have no room in its disabled buffer, so they are
 * needed but not written (Gen7, without an enable bit, disables a buffer
 * with a zero-size range, which every primitive overflows): 2 points
 * written, 3 paused (needed only), the buffer and SO_WRITE_OFFSET0 stay
 * at 2 points. */
static void disabled_buffer(struct sx *s)
{
	int gen = s->drv.gen;
	sx_begin(s);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0xf, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, pitch16);
	sx_draw(s, POINTLIST, false, 2, 0, 1);
	uint32_t len = GTDRV_CMD_LEN(&s->b, 3DSTATE_SO_BUFFER);
	uint32_t *dw = gtdrv_cmd_start(&s->b, len);
	CHECK_EQ(gtdrv_cmd_end(&s->b, "3DSTATE_SO_BUFFER",
			       cmd_3DSTATE_SO_BUFFER_pack(gen, dw, len,
				       &(struct cmd_3DSTATE_SO_BUFFER){ .so_buffer_index = 0 })),
		 0);
	sx_draw(s, POINTLIST, false, 3, 2, 1);
	store_so_regs(s, 0);
	sx_end(s);
	uint32_t want[9];
	for (unsigned v = 0; v < 2; v++)
		for (unsigned c = 0; c < 4; c++)
			want[v * 4 + c] = cv(v, c);
	want[8] = SX_MARK;
	check_buffer(s, 0, want, 9, "paused by disabling the buffer");
	CHECK_EQ(sx_res(s, 0), 2);
	CHECK_EQ(sx_res(s, 4), 5);
	CHECK_EQ(sx_res(s, 8), 32);
}

/* Rendering disable and render stream select, by CL_INVOCATION_COUNT
 * (3DSTATE_CLIP Statistics Enable): a 4-vertex strip (2 triangles)
 * reaches the clipper with rendering on and stream 0 selected, not with
 * Rendering Disable, not with stream 1 selected; stream 1's decls do not
 * write stream 0's primitives. */
static void rendering(struct sx *s)
{
	sx_begin(s);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_CLIP, .statistics_enable = true), 0);
	so_buffer(s, 0, SX_SO_BYTES, true, 0, -1);
	so_buffer(s, 1, SX_SO_BYTES, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0x1, false } }, 1,
		 2, (struct decl[]){ { 1, 1, 0x1, false } }, 1);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_INVOCATION_COUNT, &s->res, 0), 0);
	streamout(s, true, 0, TRAILING, (const uint32_t[4]){ 4, 4 });
	sx_draw(s, TRISTRIP, false, 4, 0, 1);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_INVOCATION_COUNT, &s->res, 4), 0);
	streamout(s, false, 0, TRAILING, (const uint32_t[4]){ 4, 4 });
	sx_draw(s, TRISTRIP, false, 4, 0, 1);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_INVOCATION_COUNT, &s->res, 8), 0);
	streamout(s, true, 1, TRAILING, (const uint32_t[4]){ 4, 4 });
	sx_draw(s, TRISTRIP, false, 4, 0, 1);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_INVOCATION_COUNT, &s->res, 12), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_WRITE_OFFSET(0), &s->res, 16), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, SO_WRITE_OFFSET(1), &s->res, 20), 0);
	sx_end(s);
	CHECK_EQ(sx_res(s, 4) - sx_res(s, 0), 2);
	CHECK_EQ(sx_res(s, 8) - sx_res(s, 4), 0);
	CHECK_EQ(sx_res(s, 12) - sx_res(s, 8), 0);
	CHECK_EQ(sx_res(s, 16), 3 * 2 * 3 * 4);  /* 3 draws x 2 triangles x 3 x */
	CHECK_EQ(sx_res(s, 20), 0);
}

/* A line loop of more vertices than the VS has URB entries (16384; the
 * vertex buffer holds 16, the rest read 0): its closing line ends at
 * vertex 0 (GL 4.6 10.1.3: lines (v0, v1) ... (vn-1, v0)), x only into a
 * 256 KB buffer. The entry of vertex 0 was reused for a later vertex
 * (piglit gl-1.0-long-line-loop drew the closing line elsewhere). */
static void long_line_loop(struct sx *s)
{
	enum { N = 16384 };
	gtdrv_bo_free(&s->drv, &s->so[0]);
	CHECK_EQ(gtdrv_bo_alloc(&s->drv, &s->so[0], 256 << 10), 0);
	sx_begin(s);
	so_buffer(s, 0, 256 << 10, true, 0, -1);
	so_decls(s, 1, (struct decl[]){ { 0, 1, 0x1, false } }, 1, 0, NULL, 0);
	streamout(s, false, 0, TRAILING, (const uint32_t[4]){ 4 });
	sx_draw(s, LINELOOP, false, N, 0, 1);
	store_so_regs(s, 0);
	sx_end(s);
	CHECK_EQ(sx_res(s, 0), N);      /* N lines written */
	uint32_t first[2], last[2];
	CHECK_EQ(gtdrv_bo_read(&s->drv, &s->so[0], 0, first, 8), 0);
	CHECK_EQ(gtdrv_bo_read(&s->drv, &s->so[0], (N - 1) * 8, last, 8), 0);
	CHECK_EQ(first[0], cv(0, 0));
	CHECK_EQ(first[1], cv(1, 0));
	CHECK_EQ(last[0], fb(0));       /* vertex N - 1, past the buffer */
	CHECK_EQ(last[1], cv(0, 0));    /* back to vertex 0 */
	gtdrv_bo_free(&s->drv, &s->so[0]);
	CHECK_EQ(gtdrv_bo_alloc(&s->drv, &s->so[0], SX_SO_BYTES), 0);
}

static void run(const char *device)
{
	struct sx s;
	sx_init(&s, device);
	points(&s);
	line_strip(&s);
	tri_strip(&s, TRAILING);
	tri_strip(&s, LEADING);
	tri_fan(&s, TRAILING);
	tri_fan(&s, LEADING);
	buffers_and_holes(&s);
	overflow(&s);
	pause_resume(&s);
	disabled_buffer(&s);
	rendering(&s);
	long_line_loop(&s);
	sx_fini(&s);
}

int main(void)
{
	trace_init_from_env();
	run("bdw");
	run("skl");
	return test_exit();
}
