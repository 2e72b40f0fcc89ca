/* The GS's state (PRM vol. 2a "3DSTATE_GS", "3DSTATE_CONSTANT_GS") decoded
 * through the generated structs, and the checks a draw makes on it: state
 * the hardware would hang on or that the model does not implement is a GPU
 * fault naming it. */
#include "gpu/cmd/cmd_structs.h"
#include "gpu/render/recorded.h"
#include "gpu/render/render_state.h"
#include "gpu/render/topology.h"

RENDER_RECORDED(3DSTATE_CONSTANT_GS)

void gs_state_decode(struct render_state *rs, const uint32_t *dw, uint32_t len)
{
	int gen = rs->info->gen;
	struct cmd_3DSTATE_GS v;
	cmd_3DSTATE_GS_unpack(gen, dw, len, &v);
	rs->gs = (struct gs_state){
		.enable = v.enable,
		.stats = v.statistics_enable,
		.discard_adjacency = v.discard_adjacency,
		.include_vertex_handles = v.include_vertex_handles,
		.include_primitive_id = v.include_primitive_id,
		.reorder_trailing = v.reorder_mode == 1,
		.static_output = v.static_output,
		.control_data_sid = v.control_data_format == 1,
		.ksp = v.kernel_start_pointer,
		.dispatch_mode = v.dispatch_mode,
		.expected_vertex_count = v.expected_vertex_count,
		.instances = v.instance_control + 1,
		.control_header = v.control_data_header_size,
		.vertex_size = v.output_vertex_size + 1,
		.output_topology = v.output_topology,
		.default_stream = v.default_stream_id,
		.static_vertex_count = v.static_output_vertex_count,
		.read_offset = v.vertex_urb_entry_read_offset,
		.read_length = v.vertex_urb_entry_read_length,
		/* gen9 widens the start register with bits 5:4 */
		.grf_start = v.dispatch_grf_start_register_for_urb_data |
			     v.dispatch_grf_start_register_for_urb_data_5_4 << 4,
		.binding_table_entries = v.binding_table_entry_count,
		.sampler_count = v.sampler_count,
		.scratch_space = v.per_thread_scratch_space,
		.scratch_base = v.scratch_space_base_pointer,
		.max_threads = v.maximum_number_of_threads + 1,
		.invocations_increment = v.invocations_increment_value,
		.output_read_offset = v.vertex_urb_entry_output_read_offset,
		.output_length = v.vertex_urb_entry_output_length,
		.clip_cull_mask = v.user_clip_distance_clip_test_enable_bitmask |
				  v.user_clip_distance_cull_test_enable_bitmask,
	};
}

/* 3DSTATE_CONSTANT_GS as the engine recorded it (the command streamer
 * records it for the draw to read, like the back end's state). */
void gs_constants_load(struct render_state *rs, const struct render_env *env)
{
	struct cmd_3DSTATE_CONSTANT_GS v;
	rs->gs_const = (struct push_constants){ 0 };
	if (!env->state || !recorded_3DSTATE_CONSTANT_GS(rs->info->gen, env->state, &v))
		return;
	for (int i = 0; i < 4; i++) {
		rs->gs_const.len[i] = v.constant_body.read_length[i];
		rs->gs_const.addr[i] = v.constant_body.buffer[i];
	}
}

/* Bytes of a GS output entry before its first vertex: the vertex count
 * (256 bits, Broadwell+ when the output is not static) and the control
 * data header. */
uint32_t gs_output_header_bytes(const struct gs_state *gs)
{
	return (gs->static_output ? 0 : 32) + gs->control_header * 32;
}

int gs_state_check(struct render_state *rs, uint32_t topology)
{
	const struct gs_state *gs = &rs->gs;
	const struct urb_partition *u = &rs->urb[URB_NUM_PARTS - 1];
	if (gs->dispatch_mode == 0)
		return render_set_fault(rs, "3DSTATE_GS: Dispatch Mode 0 is reserved on Gen8/9 "
					"(Gen7's SINGLE)");
	/* the vec4 GS reads its inputs pushed; the handles are a SIMD8 payload's */
	if (gs->dispatch_mode != GS_DISPATCH_SIMD8 && gs->include_vertex_handles)
		return render_set_fault(rs, "3DSTATE_GS: Include Vertex Handles with Dispatch "
					"Mode %s is not implemented", gs->dispatch_mode ==
					GS_DISPATCH_DUAL_OBJECT ? "DUAL_OBJECT" : "DUAL_INSTANCE");
	unsigned n = prim_vertices(topology);
	/* a line loop reaches the GS as its lines, the closing one last (iris
	 * draws GL_LINE_LOOP with a GS as 3DPRIM_LINELOOP) */
	if (topology == PRIM_QUADLIST || topology == PRIM_QUADSTRIP || topology == PRIM_RECTLIST ||
	    topology >= PRIM_PATCHLIST_1 || !n)
		return render_set_fault(rs, "draw with the GS enabled: topology %u cannot feed a "
					"GS", topology);
	if (gs->expected_vertex_count != n)
		return render_set_fault(rs, "3DSTATE_GS: Expected Vertex Count %u, topology %u "
					"gives %u vertices", gs->expected_vertex_count,
					topology, n);
	if (gs->output_topology != PRIM_POINTLIST && gs->output_topology != PRIM_LINESTRIP &&
	    gs->output_topology != PRIM_TRISTRIP && gs->output_topology != PRIM_LINELIST &&
	    gs->output_topology != PRIM_TRILIST)
		return render_set_fault(rs, "3DSTATE_GS: Output Topology %u is not implemented",
					gs->output_topology);
	if (!u->entries)
		return render_set_fault(rs, "draw with the GS enabled and no GS URB entries "
					"(3DSTATE_URB_GS)");
	uint32_t need = gs_output_header_bytes(gs) + gs->vertex_size * 16;
	if (u->size * 64 < need)
		return render_set_fault(rs, "GS URB entries of %u bytes cannot hold one %u-byte "
					"vertex after a %u-byte header (3DSTATE_URB_GS)",
					u->size * 64, gs->vertex_size * 16, gs_output_header_bytes(gs));
	if (gs->static_output &&
	    gs->static_vertex_count * gs->vertex_size * 16 + gs_output_header_bytes(gs) >
	    u->size * 64)
		return render_set_fault(rs, "3DSTATE_GS: Static Output Vertex Count %u does not "
					"fit a GS URB entry of %u bytes", gs->static_vertex_count,
					u->size * 64);
	if (gs->include_vertex_handles && gs->instances > 1 && n > 8)
		return render_set_fault(rs, "3DSTATE_GS: %u vertex handles in one register", n);
	return 0;
}
