/* The emitters of emit.h. */
#include "drv/emit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint32_t *gtdrv_cmd_start(struct gtdrv_batch *b, uint32_t len)
{
	struct gtdrv_cmd_stage *s = &b->stage;
	s->error = len > GTDRV_CMD_MAX ? -EINVAL : 0;
	s->len = len > GTDRV_CMD_MAX ? GTDRV_CMD_MAX : len;
	s->nrelocs = 0;
	memset(s->dw, 0, sizeof(s->dw));
	return s->dw;
}

void gtdrv_cmd_reloc(struct gtdrv_batch *b, int bit, struct gtdrv_bo *bo,
		     uint32_t read_domains, uint32_t write_domain)
{
	struct gtdrv_cmd_stage *s = &b->stage;
	if (bit < 0 || (uint32_t)bit / 32 >= s->len || s->nrelocs == GTDRV_CMD_MAX_RELOCS) {
		s->error = -EINVAL;
		return;
	}
	/* the relocation rewrites the whole qword holding the address; the
	 * flags below it (modify enables, MOCS) travel in its delta */
	s->relocs[s->nrelocs].at = (uint32_t)bit / 32;
	s->relocs[s->nrelocs].bo = bo;
	s->relocs[s->nrelocs].rd = read_domains;
	s->relocs[s->nrelocs].wd = write_domain;
	s->nrelocs++;
}

int gtdrv_cmd_end(struct gtdrv_batch *b, const char *name, int packed)
{
	struct gtdrv_cmd_stage *s = &b->stage;
	if (packed || s->error || !s->len) {
		fprintf(stderr, "libgtdrv: %s: %s on gen%d\n", name,
			s->error || !s->len ? "no such command or bad length or relocation"
					    : "a value does not fit its field", b->drv->gen);
		if (!b->error)
			b->error = -EINVAL;
		return b->error;
	}
	uint32_t base = b->used;
	BEGIN_BATCH(b, s->len);
	for (uint32_t i = 0; i < s->len; i++)
		OUT_BATCH(b, s->dw[i]);
	ADVANCE_BATCH(b);
	for (unsigned i = 0; i < s->nrelocs; i++) {
		uint32_t at = s->relocs[i].at;
		uint64_t q = s->dw[at] | (at + 1 < s->len ? (uint64_t)s->dw[at + 1] << 32 : 0);
		gtdrv_batch_add_reloc(b, base + at, s->relocs[i].bo, s->relocs[i].rd,
				      s->relocs[i].wd, q - s->relocs[i].bo->offset);
	}
	return b->error;
}

int gtdrv_emit_vertex_buffers(struct gtdrv_batch *b, const struct gtdrv_vb *vb, unsigned n)
{
	int gen = b->drv->gen;
	uint32_t len = 1 + 4 * n;     /* PRM: a 4-dword VERTEX_BUFFER_STATE each */
	uint32_t *dw = gtdrv_cmd_start(b, len);
	int r = cmd_3DSTATE_VERTEX_BUFFERS_pack(gen, dw, len,
						&(const struct cmd_3DSTATE_VERTEX_BUFFERS){ 0 });
	for (unsigned i = 0; i < n && !r; i++) {
		const struct cmd_VERTEX_BUFFER_STATE s = {
			.vertex_buffer_index = vb[i].index, .buffer_pitch = vb[i].pitch,
			.address_modify_enable = true, .buffer_size = vb[i].size,
			.buffer_starting_address = (vb[i].bo ? vb[i].bo->offset : 0) + vb[i].offset };
		r = cmd_3DSTATE_VERTEX_BUFFERS_vertex_buffer_state_set(gen, dw, len, i, &s);
		if (vb[i].bo)
			gtdrv_cmd_reloc(b, (int)(32 + 128 * i) +
					cmd_VERTEX_BUFFER_STATE_buffer_starting_address_bit(gen),
					vb[i].bo, I915_GEM_DOMAIN_VERTEX, 0);
	}
	return gtdrv_cmd_end(b, "3DSTATE_VERTEX_BUFFERS", r);
}

/* VERTEX_ELEMENT_STATE component controls (PRM vol. 2d). */
enum { VFCOMP_STORE_SRC = 1, VFCOMP_STORE_0 = 2, VFCOMP_STORE_1_FP = 3,
       VFCOMP_STORE_1_INT = 4 };

int gtdrv_emit_vertex_elements(struct gtdrv_batch *b, const struct gtdrv_vertex_attrib *a,
			       unsigned n)
{
	int gen = b->drv->gen;
	uint32_t len = 1 + 2 * n;     /* PRM: a 2-dword VERTEX_ELEMENT_STATE each */
	uint32_t *dw = gtdrv_cmd_start(b, len);
	int r = cmd_3DSTATE_VERTEX_ELEMENTS_pack(gen, dw, len,
						 &(const struct cmd_3DSTATE_VERTEX_ELEMENTS){ 0 });
	for (unsigned i = 0; i < n && !r; i++) {
		uint32_t comp[4] = { VFCOMP_STORE_SRC, VFCOMP_STORE_SRC,
				     VFCOMP_STORE_SRC, VFCOMP_STORE_SRC };
		/* seed 000: fewer components than 4 fall through to zeros
		 * and a one (of the attribute's type) in the last */
		switch (a[i].size) {
		case 0: comp[0] = VFCOMP_STORE_0; /* fall through */
		case 1: comp[1] = VFCOMP_STORE_0; /* fall through */
		case 2: comp[2] = VFCOMP_STORE_0; /* fall through */
		case 3: comp[3] = a[i].integer ? VFCOMP_STORE_1_INT : VFCOMP_STORE_1_FP;
			break;
		}
		const struct cmd_VERTEX_ELEMENT_STATE e = {
			.vertex_buffer_index = a[i].buffer, .valid = true,
			.source_element_format = a[i].format, .source_element_offset = a[i].offset,
			.component_0_control = comp[0], .component_1_control = comp[1],
			.component_2_control = comp[2], .component_3_control = comp[3] };
		r = cmd_3DSTATE_VERTEX_ELEMENTS_element_set(gen, dw, len, i, &e);
	}
	return gtdrv_cmd_end(b, "3DSTATE_VERTEX_ELEMENTS", r);
}

int gtdrv_emit_urb(struct gtdrv_batch *b, const struct urb_config *cfg)
{
	unsigned half = cfg->push_constant_kb / 2;
	GTDRV_EMIT(b, 3DSTATE_PUSH_CONSTANT_ALLOC_VS,
		   .constant_buffer_offset = 0, .constant_buffer_size = half);
	GTDRV_EMIT(b, 3DSTATE_PUSH_CONSTANT_ALLOC_PS, .constant_buffer_offset = half,
		   .constant_buffer_size = cfg->push_constant_kb - half);
	GTDRV_EMIT(b, 3DSTATE_URB_VS, .vs_number_of_urb_entries = cfg->entries[URB_VS],
		   .vs_urb_entry_allocation_size = cfg->size[URB_VS] - 1,
		   .vs_urb_starting_address = cfg->start[URB_VS]);
	GTDRV_EMIT(b, 3DSTATE_URB_HS, .hs_number_of_urb_entries = cfg->entries[URB_HS],
		   .hs_urb_entry_allocation_size = cfg->size[URB_HS] - 1,
		   .hs_urb_starting_address = cfg->start[URB_HS]);
	GTDRV_EMIT(b, 3DSTATE_URB_DS, .ds_number_of_urb_entries = cfg->entries[URB_DS],
		   .ds_urb_entry_allocation_size = cfg->size[URB_DS] - 1,
		   .ds_urb_starting_address = cfg->start[URB_DS]);
	return GTDRV_EMIT(b, 3DSTATE_URB_GS, .gs_number_of_urb_entries = cfg->entries[URB_GS],
			  .gs_urb_entry_allocation_size = cfg->size[URB_GS] - 1,
			  .gs_urb_starting_address = cfg->start[URB_GS]);
}
