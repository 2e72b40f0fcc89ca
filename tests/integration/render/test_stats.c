/* Pipeline statistics registers for hand-counted draws through libgtdrv
 * and execbuf (PRM vol. 2 "Statistics"), each read before and after the
 * draw by MI_STORE_REGISTER_MEM:
 *   IA_VERTICES_COUNT   every vertex the VF hands on (a cut index is none),
 *   IA_PRIMITIVES_COUNT every complete primitive of the topology,
 *   VS_INVOCATION_COUNT every vertex shaded (a vertex cache hit is none),
 *   CL_INVOCATION_COUNT every primitive reaching the clipper,
 * and nothing counted when 3DSTATE_VF_STATISTICS / 3DSTATE_CLIP's
 * Statistics Enable are off; CL_PRIMITIVES_COUNT with CLIPMODE_REJECT_ALL. */
#include "so_drv_fixture.h"

enum { TRILIST = 4, TRISTRIP = 5, LINELOOP = 16 };
enum { S_IA_V, S_IA_P, S_VS, S_CL, NSTATS };

static const uint32_t stat_reg[NSTATS] = { REG_IA_VERTICES_COUNT, REG_IA_PRIMITIVES_COUNT,
					   REG_VS_INVOCATION_COUNT, REG_CL_INVOCATION_COUNT };

static void store_stats(struct sx *s, uint32_t at)
{
	for (int i = 0; i < NSTATS; i++)
		CHECK_EQ(gtdrv_emit_srm(&s->b, stat_reg[i], &s->res, at + 4 * i), 0);
}

/* 16-bit indices into s->ibo, the index buffer state and 3DSTATE_VF with
 * cut index 0xffff. */
static void index_buffer(struct sx *s, const uint16_t *idx, unsigned n)
{
	int gen = s->drv.gen;
	CHECK_EQ(gtdrv_bo_write(&s->drv, &s->ibo, 0, idx, n * 2), 0);
	uint32_t len = GTDRV_CMD_LEN(&s->b, 3DSTATE_INDEX_BUFFER);
	uint32_t *dw = gtdrv_cmd_start(&s->b, len);
	const struct cmd_3DSTATE_INDEX_BUFFER v = { .index_format = 1,
		.buffer_starting_address = s->ibo.offset, .buffer_size = n * 2 };
	gtdrv_cmd_reloc(&s->b, cmd_3DSTATE_INDEX_BUFFER_buffer_starting_address_bit(gen), &s->ibo,
			I915_GEM_DOMAIN_VERTEX, 0);
	CHECK_EQ(gtdrv_cmd_end(&s->b, "3DSTATE_INDEX_BUFFER",
			       cmd_3DSTATE_INDEX_BUFFER_pack(gen, dw, len, &v)), 0);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_VF, .indexed_draw_cut_index_enable = true,
			    .cut_index = 0xffff), 0);
}

/* The counts of one draw: the difference of the stores around it. */
static void check_delta(struct sx *s, const char *what, const uint32_t want[NSTATS])
{
	for (int i = 0; i < NSTATS; i++) {
		uint32_t d = sx_res(s, 16 + 4 * i) - sx_res(s, 4 * i);
		if (d != want[i])
			fprintf(stderr, "%s: statistic %d counted %u, want %u\n", what, i, d,
				want[i]);
		CHECK_EQ(d, want[i]);
	}
}

typedef void (*draw_fn)(struct sx *s);

static void measure(struct sx *s, const char *what, draw_fn setup, draw_fn draw,
		    const uint32_t want[NSTATS])
{
	sx_begin(s);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_CLIP, .statistics_enable = true), 0);
	if (setup)
		setup(s);
	store_stats(s, 0);
	draw(s);
	store_stats(s, 16);
	sx_end(s);
	check_delta(s, what, want);
}

/* 6-vertex strip: 6 vertices, 4 triangles, 6 shaded, 4 clipped */
static void strip6(struct sx *s) { sx_draw(s, TRISTRIP, false, 6, 0, 1); }

/* indices 0 1 2 3 cut 4 5 6 as a strip: 7 vertices, 2 + 1 triangles */
static void cut_setup(struct sx *s)
{
	index_buffer(s, (const uint16_t[]){ 0, 1, 2, 3, 0xffff, 4, 5, 6 }, 8);
}
static void cut_strip(struct sx *s) { sx_draw(s, TRISTRIP, true, 8, 0, 1); }

/* a 3-vertex triangle list, 3 instances: 9 vertices, 3 triangles */
static void instanced(struct sx *s) { sx_draw(s, TRILIST, false, 3, 0, 3); }

/* a 5-vertex line loop: 5 lines, the closing one included */
static void loop5(struct sx *s) { sx_draw(s, LINELOOP, false, 5, 0, 1); }

/* statistics off: the 6-vertex strip with VF and clip statistics
 * disabled (gtdrv_emit_draw would enable the VF's) */
static void strip6_stats_off(struct sx *s)
{
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_VF_STATISTICS, .statistics_enable = false), 0);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_CLIP, .statistics_enable = false), 0);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_VF_TOPOLOGY, .primitive_topology_type = TRISTRIP), 0);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DPRIMITIVE, .vertex_count_per_instance = 6,
			    .instance_count = 1), 0);
}

/* 3DPRIMITIVE with Predicate Enable (GL's conditional rendering): the
 * 6-vertex strip is drawn only when MI_PREDICATE_RESULT is 1 (PRM vol. 2a,
 * 3DPRIMITIVE); predicated off it counts nothing anywhere. */
static void predicated(struct sx *s, uint32_t result)
{
	CHECK_EQ(gtdrv_emit_lri(&s->b, REG_MI_PREDICATE_RESULT, result), 0);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_VF_STATISTICS, .statistics_enable = true), 0);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_VF_TOPOLOGY, .primitive_topology_type = TRISTRIP), 0);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DPRIMITIVE, .predicate_enable = true,
			    .vertex_count_per_instance = 6, .instance_count = 1), 0);
}
static void predicated_off(struct sx *s) { predicated(s, 0); }
static void predicated_on(struct sx *s) { predicated(s, 1); }

/* CLIPMODE_REJECT_ALL (how iris discards rasterization): 4 points inside
 * the view volume (x, y, z / w = 0.001, 0.01, 0.1) all reach the clipper
 * (CL_INVOCATION_COUNT), none leaves it (CL_PRIMITIVES_COUNT); with
 * CLIPMODE_NORMAL all 4 leave it. */
static void reject_all(struct sx *s, unsigned clip_mode, uint32_t want_out)
{
	sx_begin(s);
	CHECK_EQ(GTDRV_EMIT(&s->b, 3DSTATE_CLIP, .statistics_enable = true, .clip_enable = true,
			    .clip_mode = clip_mode), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_INVOCATION_COUNT, &s->res, 0), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_PRIMITIVES_COUNT, &s->res, 4), 0);
	sx_draw(s, 1 /* POINTLIST */, false, 4, 0, 1);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_INVOCATION_COUNT, &s->res, 8), 0);
	CHECK_EQ(gtdrv_emit_srm(&s->b, REG_CL_PRIMITIVES_COUNT, &s->res, 12), 0);
	sx_end(s);
	CHECK_EQ(sx_res(s, 8) - sx_res(s, 0), 4);
	CHECK_EQ(sx_res(s, 12) - sx_res(s, 4), want_out);
}

static void run(const char *device)
{
	struct sx s;
	sx_init(&s, device);
	measure(&s, "strip", NULL, strip6, (const uint32_t[NSTATS]){ 6, 4, 6, 4 });
	measure(&s, "cut strip", cut_setup, cut_strip, (const uint32_t[NSTATS]){ 7, 3, 7, 3 });
	measure(&s, "instanced", NULL, instanced, (const uint32_t[NSTATS]){ 9, 3, 9, 3 });
	measure(&s, "line loop", NULL, loop5, (const uint32_t[NSTATS]){ 5, 5, 5, 5 });
	/* the VS still counts: 3DSTATE_VS keeps its Statistics Enable */
	measure(&s, "statistics off", NULL, strip6_stats_off, (const uint32_t[NSTATS]){ 0, 0, 6, 0 });
	measure(&s, "predicated off", NULL, predicated_off, (const uint32_t[NSTATS]){ 0, 0, 0, 0 });
	measure(&s, "predicated on", NULL, predicated_on, (const uint32_t[NSTATS]){ 6, 4, 6, 4 });
	reject_all(&s, 0, 4);
	reject_all(&s, 3, 0);
	sx_fini(&s);
}

int main(void)
{
	trace_init_from_env();
	run("bdw");
	run("skl");
	return test_exit();
}
