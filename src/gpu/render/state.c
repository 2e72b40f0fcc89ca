/* 3D state commands decoded into struct render_state through their typed
 * structs (gpu/cmd/cmd_structs.h; PRM vol. 2a/2d). Each command only
 * changes what it names: 3DSTATE_VERTEX_BUFFERS sets the buffers it
 * lists, the others replace their whole state. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/render/render_state.h"

int render_set_fault(struct render_state *rs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rs->fault, sizeof(rs->fault), fmt, ap);
	va_end(ap);
	return -1;
}

static void vertex_buffers(struct render_state *rs, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_VERTEX_BUFFER_STATE v;
	for (uint32_t i = 0; cmd_3DSTATE_VERTEX_BUFFERS_vertex_buffer_state_at(gen, dw, len, i, &v);
	     i++) {
		if (v.vertex_buffer_index >= RENDER_MAX_VB)
			continue;
		struct vb_state *vb = &rs->vb[v.vertex_buffer_index];
		vb->valid = true;
		vb->null = v.null_vertex_buffer;
		vb->pitch = v.buffer_pitch;
		/* Address Modify Enable off: the address keeps its old value */
		if (v.address_modify_enable)
			vb->addr = v.buffer_starting_address;
		vb->size = v.buffer_size;
	}
}

static void vertex_elements(struct render_state *rs, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_VERTEX_ELEMENT_STATE v;
	uint32_t n = 0;
	for (; n < RENDER_MAX_VE && cmd_3DSTATE_VERTEX_ELEMENTS_element_at(gen, dw, len, n, &v);
	     n++) {
		struct ve_state *ve = &rs->ve[n];
		bool instancing = ve->instancing; /* VF_INSTANCING is separate state */
		uint32_t step = ve->step_rate;
		*ve = (struct ve_state){
			.valid = v.valid,
			.edge_flag = v.edge_flag_enable,
			.vb = (uint8_t)v.vertex_buffer_index,
			.offset = (uint16_t)v.source_element_offset,
			.format = (uint16_t)v.source_element_format,
			.comp = { (uint8_t)v.component_0_control, (uint8_t)v.component_1_control,
				  (uint8_t)v.component_2_control, (uint8_t)v.component_3_control },
			.instancing = instancing, .step_rate = step,
		};
	}
	rs->num_ve = n;
}

static void constant_vs(struct render_state *rs, int gen, const uint32_t *dw, uint32_t len)
{
	memset(rs->vs_const_len, 0, sizeof(rs->vs_const_len));
	if (len < cmd_3DSTATE_CONSTANT_VS_length(gen))   /* no whole Constant Body */
		return;
	struct cmd_3DSTATE_CONSTANT_VS v;
	cmd_3DSTATE_CONSTANT_VS_unpack(gen, dw, len, &v);
	for (int i = 0; i < 4; i++) {
		rs->vs_const_len[i] = v.constant_body.read_length[i];
		rs->vs_const_addr[i] = v.constant_body.buffer[i];
	}
}

static void vs(struct render_state *rs, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_3DSTATE_VS v;
	cmd_3DSTATE_VS_unpack(gen, dw, len, &v);
	rs->vs = (struct vs_state){
		.enable = v.enable,
		.simd8 = v.simd8_dispatch_enable,
		.stats = v.statistics_enable,
		.cache_disable = v.vertex_cache_disable,
		.ksp = v.kernel_start_pointer,
		.read_offset = v.vertex_urb_entry_read_offset,
		.read_length = v.vertex_urb_entry_read_length,
		.grf_start = v.dispatch_grf_start_register_for_urb_data,
		.binding_table_entries = v.binding_table_entry_count,
		.sampler_count = v.sampler_count,
		.scratch_space = v.per_thread_scratch_space,
		.scratch_base = v.scratch_space_base_pointer,
		.max_threads = v.maximum_number_of_threads + 1,
	};
}

static void pipeline_select(struct render_state *rs, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_PIPELINE_SELECT v;
	cmd_PIPELINE_SELECT_unpack(gen, dw, len, &v);
	/* gen9: the selection only changes when Mask Bits 9:8 say so */
	if (gen < 9 || (v.mask_bits & 3))
		rs->pipeline = v.pipeline_selection;
}

static void urb_alloc(struct render_state *rs, int stage, uint32_t entries, uint32_t size,
		      uint32_t start)
{
	rs->urb[stage] = (struct urb_partition){ .entries = entries, .size = size + 1,
						 .start = start };
}

/* The per-stage commands 3DSTATE_<CMD>_<ST>, stage RS_<ST>; st is <ST> in
 * lower case where it prefixes a field's name. */
#define URB(ST, st)                                                                    \
	case CMD_ID_3DSTATE_URB_##ST: {                                                \
		struct cmd_3DSTATE_URB_##ST v;                                         \
		cmd_3DSTATE_URB_##ST##_unpack(gen, dw, len, &v);                       \
		urb_alloc(rs, RS_##ST, v.st##_number_of_urb_entries,                   \
			  v.st##_urb_entry_allocation_size, v.st##_urb_starting_address); \
		break;                                                                 \
	}
#define PUSH_CONSTANT_ALLOC(ST)                                                        \
	case CMD_ID_3DSTATE_PUSH_CONSTANT_ALLOC_##ST: {                                \
		struct cmd_3DSTATE_PUSH_CONSTANT_ALLOC_##ST v;                         \
		cmd_3DSTATE_PUSH_CONSTANT_ALLOC_##ST##_unpack(gen, dw, len, &v);       \
		rs->push_offset[RS_##ST] = v.constant_buffer_offset;                   \
		rs->push_size[RS_##ST] = v.constant_buffer_size;                       \
		break;                                                                 \
	}
#define BINDING_TABLE_POINTERS(ST, st)                                                 \
	case CMD_ID_3DSTATE_BINDING_TABLE_POINTERS_##ST: {                             \
		struct cmd_3DSTATE_BINDING_TABLE_POINTERS_##ST v;                      \
		cmd_3DSTATE_BINDING_TABLE_POINTERS_##ST##_unpack(gen, dw, len, &v);    \
		rs->binding_table[RS_##ST] = v.pointer_to_##st##_binding_table;        \
		break;                                                                 \
	}
#define SAMPLER_STATE_POINTERS(ST, st)                                                 \
	case CMD_ID_3DSTATE_SAMPLER_STATE_POINTERS_##ST: {                             \
		struct cmd_3DSTATE_SAMPLER_STATE_POINTERS_##ST v;                      \
		cmd_3DSTATE_SAMPLER_STATE_POINTERS_##ST##_unpack(gen, dw, len, &v);    \
		rs->sampler_state[RS_##ST] = v.pointer_to_##st##_sampler_state;        \
		break;                                                                 \
	}
/* A command of which the front end keeps one field: rs->member = v.field. */
#define KEEP(NAME, member, field)                                                      \
	case CMD_ID_##NAME: {                                                          \
		struct cmd_##NAME v;                                                   \
		cmd_##NAME##_unpack(gen, dw, len, &v);                                 \
		rs->member = v.field;                                                  \
		break;                                                                 \
	}

int render_state_command(struct render_state *rs, const struct cmd_desc *d,
			 const uint32_t *dw, uint32_t len)
{
	int gen = rs->info->gen;

	switch ((enum cmd_id)d->id) {
	case CMD_ID_PIPELINE_SELECT:
		pipeline_select(rs, gen, dw, len);
		break;
	case CMD_ID_STATE_BASE_ADDRESS:
		cs_base_address_apply(&rs->sba, gen, dw, len);
		break;
	case CMD_ID_3DSTATE_VERTEX_BUFFERS:
		vertex_buffers(rs, gen, dw, len);
		break;
	case CMD_ID_3DSTATE_VERTEX_ELEMENTS:
		vertex_elements(rs, gen, dw, len);
		break;
	case CMD_ID_3DSTATE_VF: {
		struct cmd_3DSTATE_VF v;
		cmd_3DSTATE_VF_unpack(gen, dw, len, &v);
		rs->cut_enable = v.indexed_draw_cut_index_enable;
		rs->seq_cut_enable = v.sequential_draw_cut_index_enable;   /* gen9 */
		rs->component_packing = v.component_packing_enable;        /* gen9 */
		rs->cut_index = v.cut_index;
		break;
	}
	case CMD_ID_3DSTATE_VF_INSTANCING: {
		struct cmd_3DSTATE_VF_INSTANCING v;
		cmd_3DSTATE_VF_INSTANCING_unpack(gen, dw, len, &v);
		if (v.vertex_element_index < RENDER_MAX_VE) {
			rs->ve[v.vertex_element_index].instancing = v.instancing_enable;
			rs->ve[v.vertex_element_index].step_rate = v.instance_data_step_rate;
		}
		break;
	}
	case CMD_ID_3DSTATE_VF_SGVS: {
		struct cmd_3DSTATE_VF_SGVS v;
		cmd_3DSTATE_VF_SGVS_unpack(gen, dw, len, &v);
		rs->vid_enable = v.vertexid_enable;
		rs->vid_elem = (uint8_t)v.vertexid_element_offset;
		rs->vid_comp = (uint8_t)v.vertexid_component_number;
		rs->iid_enable = v.instanceid_enable;
		rs->iid_elem = (uint8_t)v.instanceid_element_offset;
		rs->iid_comp = (uint8_t)v.instanceid_component_number;
		break;
	}
	KEEP(3DSTATE_VF_TOPOLOGY, topology, primitive_topology_type)
	KEEP(3DSTATE_VF_STATISTICS, vf_stats, statistics_enable)
	case CMD_ID_3DSTATE_INDEX_BUFFER: {
		struct cmd_3DSTATE_INDEX_BUFFER v;
		cmd_3DSTATE_INDEX_BUFFER_unpack(gen, dw, len, &v);
		rs->ib_format = v.index_format;
		rs->ib_addr = v.buffer_starting_address;
		rs->ib_size = v.buffer_size;
		break;
	}
	URB(VS, vs)
	URB(HS, hs)
	URB(DS, ds)
	URB(GS, gs)
	PUSH_CONSTANT_ALLOC(VS)
	PUSH_CONSTANT_ALLOC(HS)
	PUSH_CONSTANT_ALLOC(DS)
	PUSH_CONSTANT_ALLOC(GS)
	PUSH_CONSTANT_ALLOC(PS)
	case CMD_ID_3DSTATE_CONSTANT_VS:
		constant_vs(rs, gen, dw, len);
		break;
	BINDING_TABLE_POINTERS(VS, vs)
	BINDING_TABLE_POINTERS(HS, hs)
	BINDING_TABLE_POINTERS(DS, ds)
	BINDING_TABLE_POINTERS(GS, gs)
	BINDING_TABLE_POINTERS(PS, ps)
	SAMPLER_STATE_POINTERS(VS, vs)
	SAMPLER_STATE_POINTERS(HS, hs)
	SAMPLER_STATE_POINTERS(DS, ds)
	SAMPLER_STATE_POINTERS(GS, gs)
	SAMPLER_STATE_POINTERS(PS, ps)
	case CMD_ID_3DSTATE_VS:
		vs(rs, gen, dw, len);
		break;
	case CMD_ID_3DSTATE_HS: case CMD_ID_3DSTATE_TE: case CMD_ID_3DSTATE_DS:
	case CMD_ID_3DSTATE_CONSTANT_HS: case CMD_ID_3DSTATE_CONSTANT_DS:
		return tess_state_command(rs, d, dw, len);       /* te_state.c */
	case CMD_ID_3DSTATE_GS:
		gs_state_decode(rs, dw, len);
		break;
	KEEP(3DSTATE_STREAMOUT, so_enable, so_function_enable)
	default:
		return 1;
	}
	return 0;
}
