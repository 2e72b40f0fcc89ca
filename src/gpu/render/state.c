/* 3D state commands decoded into struct render_state through the command
 * tables (PRM vol. 2a/2d). Each command only changes what it names:
 * 3DSTATE_VERTEX_BUFFERS sets the buffers it lists, the others replace
 * their whole state. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu/render/render_state.h"

int render_set_fault(struct render_state *rs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rs->fault, sizeof(rs->fault), fmt, ap);
	va_end(ap);
	return -1;
}

#define GET(name) cmd_field_get(d, dw, name)

/* Element i of group field f as its own dwords; NULL when it is not all
 * inside the command's len dwords. */
static const uint32_t *group_elem(const struct cmd_field *f, const uint32_t *dw,
				  uint32_t len, uint32_t i)
{
	uint64_t first = f->group_start + (uint64_t)i * f->group_size;
	if (!f->sub || !f->in_group || first % 32 ||
	    first + f->group_size > (uint64_t)len * 32)
		return NULL;
	return dw + first / 32;
}

static void vertex_buffers(struct render_state *rs, const struct cmd_desc *d,
			   const uint32_t *dw, uint32_t len)
{
	const struct cmd_field *f = cmd_field_find(d, "Vertex Buffer State");
	const uint32_t *e;
	for (uint32_t i = 0; f && (e = group_elem(f, dw, len, i)); i++) {
		const struct cmd_desc *s = f->sub;
		uint32_t idx = (uint32_t)cmd_field_get(s, e, "Vertex Buffer Index");
		if (idx >= RENDER_MAX_VB)
			continue;
		struct vb_state *vb = &rs->vb[idx];
		vb->valid = true;
		vb->null = cmd_field_get(s, e, "Null Vertex Buffer");
		vb->pitch = (uint32_t)cmd_field_get(s, e, "Buffer Pitch");
		/* Address Modify Enable off: the address keeps its old value */
		if (cmd_field_get(s, e, "Address Modify Enable"))
			vb->addr = cmd_field_get(s, e, "Buffer Starting Address");
		vb->size = (uint32_t)cmd_field_get(s, e, "Buffer Size");
	}
}

static void vertex_elements(struct render_state *rs, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len)
{
	static const char *const comp_names[4] = {
		"Component 0 Control", "Component 1 Control",
		"Component 2 Control", "Component 3 Control" };
	const struct cmd_field *f = cmd_field_find(d, "Element");
	const uint32_t *e;
	uint32_t n = 0;
	for (; f && n < RENDER_MAX_VE && (e = group_elem(f, dw, len, n)); n++) {
		const struct cmd_desc *s = f->sub;
		struct ve_state *ve = &rs->ve[n];
		bool instancing = ve->instancing; /* VF_INSTANCING is separate state */
		uint32_t step = ve->step_rate;
		*ve = (struct ve_state){
			.valid = cmd_field_get(s, e, "Valid"),
			.edge_flag = cmd_field_get(s, e, "Edge Flag Enable"),
			.vb = (uint8_t)cmd_field_get(s, e, "Vertex Buffer Index"),
			.offset = (uint16_t)cmd_field_get(s, e, "Source Element Offset"),
			.format = (uint16_t)cmd_field_get(s, e, "Source Element Format"),
			.instancing = instancing, .step_rate = step,
		};
		for (int c = 0; c < 4; c++)
			ve->comp[c] = (uint8_t)cmd_field_get(s, e, comp_names[c]);
	}
	rs->num_ve = n;
}

static void urb_alloc(struct render_state *rs, int stage, const char *st,
		      const struct cmd_desc *d, const uint32_t *dw)
{
	char name[64];
	snprintf(name, sizeof(name), "%s Number of URB Entries", st);
	rs->urb[stage].entries = (uint32_t)GET(name);
	snprintf(name, sizeof(name), "%s URB Entry Allocation Size", st);
	rs->urb[stage].size = (uint32_t)GET(name) + 1;
	snprintf(name, sizeof(name), "%s URB Starting Address", st);
	rs->urb[stage].start = (uint32_t)GET(name);
}

static void constant_vs(struct render_state *rs, const struct cmd_desc *d,
			const uint32_t *dw, uint32_t len)
{
	const struct cmd_field *f = cmd_field_find(d, "Constant Body");
	const uint32_t *body = NULL;
	if (f && f->sub && !f->in_group && f->start % 32 == 0 && (uint32_t)(f->end + 1) / 32 <= len)
		body = dw + f->start / 32;
	memset(rs->vs_const_len, 0, sizeof(rs->vs_const_len));
	if (!body)
		return;
	const struct cmd_desc *s = f->sub;
	const struct cmd_field *rl = cmd_field_find(s, "Read Length");
	const struct cmd_field *buf = cmd_field_find(s, "Buffer");
	uint32_t blen = s->length ? s->length : 10;
	for (uint32_t i = 0; i < 4 && rl && buf; i++) {
		rs->vs_const_len[i] = (uint32_t)cmd_field_value(rl, body, blen, i);
		rs->vs_const_addr[i] = cmd_field_value(buf, body, blen, i);
	}
}

static void vs(struct render_state *rs, const struct cmd_desc *d, const uint32_t *dw)
{
	rs->vs = (struct vs_state){
		.enable = GET("Enable"),
		.simd8 = GET("SIMD8 Dispatch Enable"),
		.stats = GET("Statistics Enable"),
		.cache_disable = GET("Vertex Cache Disable"),
		.ksp = GET("Kernel Start Pointer"),
		.read_offset = (uint32_t)GET("Vertex URB Entry Read Offset"),
		.read_length = (uint32_t)GET("Vertex URB Entry Read Length"),
		.grf_start = (uint32_t)GET("Dispatch GRF Start Register For URB Data"),
		.binding_table_entries = (uint32_t)GET("Binding Table Entry Count"),
		.sampler_count = (uint32_t)GET("Sampler Count"),
		.scratch_space = (uint32_t)GET("Per-Thread Scratch Space"),
		.scratch_base = GET("Scratch Space Base Pointer"),
		.max_threads = (uint32_t)GET("Maximum Number of Threads") + 1,
	};
}

static void base_address(struct render_state *rs, const struct cmd_desc *d, const uint32_t *dw)
{
	static const struct { const char *what; size_t off; } bases[] = {
		{ "General State", offsetof(struct render_state, general_base) },
		{ "Surface State", offsetof(struct render_state, surface_base) },
		{ "Dynamic State", offsetof(struct render_state, dynamic_base) },
		{ "Indirect Object", offsetof(struct render_state, indirect_base) },
		{ "Instruction", offsetof(struct render_state, instruction_base) },
	};
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		char name[64];
		snprintf(name, sizeof(name), "%s Base Address Modify Enable", bases[i].what);
		if (!GET(name))
			continue;
		snprintf(name, sizeof(name), "%s Base Address", bases[i].what);
		*(uint64_t *)((char *)rs + bases[i].off) = GET(name);
	}
}

/* Per-stage commands named 3DSTATE_<CMD>_<STAGE>. */
static int stage_of(const char *name, const char *prefix)
{
	static const char *const st[RS_NUM_STAGES] = { "VS", "HS", "DS", "GS", "PS" };
	size_t n = strlen(prefix);
	if (strncmp(name, prefix, n))
		return -1;
	for (int i = 0; i < RS_NUM_STAGES; i++)
		if (!strcmp(name + n, st[i]))
			return i;
	return -1;
}

int render_state_command(struct render_state *rs, const struct cmd_desc *d,
			 const uint32_t *dw, uint32_t len)
{
	const char *n = d->name;
	int s;

	if (!strcmp(n, "PIPELINE_SELECT")) {
		/* gen9: the selection only changes when Mask Bits 9:8 say so */
		if (!cmd_field_find(d, "Mask Bits") || (GET("Mask Bits") & 3))
			rs->pipeline = (uint32_t)GET("Pipeline Selection");
	} else if (!strcmp(n, "STATE_BASE_ADDRESS")) {
		base_address(rs, d, dw);
	} else if (!strcmp(n, "3DSTATE_VERTEX_BUFFERS")) {
		vertex_buffers(rs, d, dw, len);
	} else if (!strcmp(n, "3DSTATE_VERTEX_ELEMENTS")) {
		vertex_elements(rs, d, dw, len);
	} else if (!strcmp(n, "3DSTATE_VF")) {
		rs->cut_enable = GET("Indexed Draw Cut Index Enable");
		rs->seq_cut_enable = GET("Sequential Draw Cut Index Enable");
		rs->component_packing = GET("Component Packing Enable");
		rs->cut_index = (uint32_t)GET("Cut Index");
	} else if (!strcmp(n, "3DSTATE_VF_INSTANCING")) {
		uint32_t e = (uint32_t)GET("Vertex Element Index");
		if (e < RENDER_MAX_VE) {
			rs->ve[e].instancing = GET("Instancing Enable");
			rs->ve[e].step_rate = (uint32_t)GET("Instance Data Step Rate");
		}
	} else if (!strcmp(n, "3DSTATE_VF_SGVS")) {
		rs->vid_enable = GET("VertexID Enable");
		rs->vid_elem = (uint8_t)GET("VertexID Element Offset");
		rs->vid_comp = (uint8_t)GET("VertexID Component Number");
		rs->iid_enable = GET("InstanceID Enable");
		rs->iid_elem = (uint8_t)GET("InstanceID Element Offset");
		rs->iid_comp = (uint8_t)GET("InstanceID Component Number");
	} else if (!strcmp(n, "3DSTATE_VF_TOPOLOGY")) {
		rs->topology = (uint32_t)GET("Primitive Topology Type");
	} else if (!strcmp(n, "3DSTATE_VF_STATISTICS")) {
		rs->vf_stats = GET("Statistics Enable");
	} else if (!strcmp(n, "3DSTATE_INDEX_BUFFER")) {
		rs->ib_format = (uint32_t)GET("Index Format");
		rs->ib_addr = GET("Buffer Starting Address");
		rs->ib_size = (uint32_t)GET("Buffer Size");
	} else if ((s = stage_of(n, "3DSTATE_URB_")) >= 0 && s < 4) {
		static const char *const st[4] = { "VS", "HS", "DS", "GS" };
		urb_alloc(rs, s, st[s], d, dw);
	} else if ((s = stage_of(n, "3DSTATE_PUSH_CONSTANT_ALLOC_")) >= 0) {
		rs->push_offset[s] = (uint32_t)GET("Constant Buffer Offset");
		rs->push_size[s] = (uint32_t)GET("Constant Buffer Size");
	} else if (!strcmp(n, "3DSTATE_CONSTANT_VS")) {
		constant_vs(rs, d, dw, len);
	} else if ((s = stage_of(n, "3DSTATE_BINDING_TABLE_POINTERS_")) >= 0) {
		const struct cmd_field *f = d->num_fields ? &d->fields[d->num_fields - 1] : NULL;
		rs->binding_table[s] = f ? (uint32_t)cmd_field_value(f, dw, len, 0) : 0;
	} else if ((s = stage_of(n, "3DSTATE_SAMPLER_STATE_POINTERS_")) >= 0) {
		const struct cmd_field *f = d->num_fields ? &d->fields[d->num_fields - 1] : NULL;
		rs->sampler_state[s] = f ? (uint32_t)cmd_field_value(f, dw, len, 0) : 0;
	} else if (!strcmp(n, "3DSTATE_VS")) {
		vs(rs, d, dw);
	} else if (!strcmp(n, "3DSTATE_HS")) {
		rs->hs_enable = GET("Enable");
	} else if (!strcmp(n, "3DSTATE_DS")) {
		rs->ds_enable = GET("Enable");
	} else if (!strcmp(n, "3DSTATE_GS")) {
		rs->gs_enable = GET("Enable");
	} else if (!strcmp(n, "3DSTATE_TE")) {
		rs->te_enable = GET("TE Enable");
	} else if (!strcmp(n, "3DSTATE_STREAMOUT")) {
		rs->so_enable = GET("SO Function Enable");
	} else {
		return 1;
	}
	return 0;
}
