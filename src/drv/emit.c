/* The emitters of emit.h. */
#include "drv/emit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void bad(struct gtdrv_cmd *c, const char *what, const char *name)
{
	if (!c->error)
		fprintf(stderr, "libgtdrv: %s: %s '%s'\n", c->d ? c->d->name : "?", what, name);
	c->error = -EINVAL;
}

void gtdrv_cmd_begin(struct gtdrv_cmd *c, int gen, const char *name, uint32_t len)
{
	memset(c, 0, sizeof(*c));
	c->gen = gen;
	c->d = cmd_find_name(gen, name);
	if (!c->d) {
		bad(c, "no such command", name);
		return;
	}
	c->len = len ? len : c->d->length;
	if (!c->len || c->len > GTDRV_CMD_MAX) {
		bad(c, "bad length for", name);
		return;
	}
	cmd_init(c->d, c->dw, c->len);
}

/* The descriptor and dwords a field lives in: the command, or a structure
 * at dword `at`. */
static const struct cmd_desc *where(struct gtdrv_cmd *c, const char *sname, uint32_t at,
				    uint32_t **dw, uint32_t *len)
{
	if (!c->d)
		return NULL;
	if (!sname) {
		*dw = c->dw;
		*len = c->len;
		return c->d;
	}
	const struct cmd_desc *s = cmd_struct_find(c->gen, sname);
	if (!s || at + s->length > c->len) {
		bad(c, "no room for structure", sname);
		return NULL;
	}
	*dw = c->dw + at;
	*len = s->length;
	return s;
}

static void set_in(struct gtdrv_cmd *c, const char *sname, uint32_t at, const char *field,
		   uint64_t value)
{
	uint32_t *dw, len;
	const struct cmd_desc *d = where(c, sname, at, &dw, &len);
	if (d && cmd_field_set(d, dw, len, field, value))
		bad(c, "cannot set field", field);
}

void gtdrv_cmd_set(struct gtdrv_cmd *c, const char *field, uint64_t value)
{
	set_in(c, NULL, 0, field, value);
}

void gtdrv_cmd_set_sub(struct gtdrv_cmd *c, const char *sname, uint32_t at,
		       const char *field, uint64_t value)
{
	set_in(c, sname, at, field, value);
}

void gtdrv_cmd_address(struct gtdrv_cmd *c, const char *sname, uint32_t at,
		       const char *field, struct gtdrv_bo *bo, uint64_t delta,
		       uint32_t read_domains, uint32_t write_domain)
{
	uint32_t *dw, len;
	const struct cmd_desc *d = where(c, sname, at, &dw, &len);
	const struct cmd_field *f = d ? cmd_field_find(d, field) : NULL;
	if (!f || f->type != CMD_T_ADDRESS || f->end - f->start > 63 ||
	    c->nrelocs == GTDRV_CMD_MAX_RELOCS) {
		bad(c, "not an address field", field);
		return;
	}
	set_in(c, sname, at, field, bo->offset + delta);
	/* the relocation rewrites the whole qword holding the address; the
	 * flags below it (modify enables, MOCS) travel in its delta */
	c->relocs[c->nrelocs++].at = (uint32_t)(dw - c->dw) + f->start / 32;
	c->relocs[c->nrelocs - 1].bo = bo;
	c->relocs[c->nrelocs - 1].rd = read_domains;
	c->relocs[c->nrelocs - 1].wd = write_domain;
}

int gtdrv_cmd_emit(struct gtdrv_batch *b, struct gtdrv_cmd *c)
{
	if (c->error)
		return c->error;
	uint32_t base = b->used;
	BEGIN_BATCH(b, c->len);
	for (uint32_t i = 0; i < c->len; i++)
		OUT_BATCH(b, c->dw[i]);
	ADVANCE_BATCH(b);
	for (unsigned i = 0; i < c->nrelocs; i++) {
		uint32_t at = c->relocs[i].at;
		uint64_t q = c->dw[at] | (at + 1 < c->len ? (uint64_t)c->dw[at + 1] << 32 : 0);
		gtdrv_batch_add_reloc(b, base + at, c->relocs[i].bo, c->relocs[i].rd,
				      c->relocs[i].wd, q - c->relocs[i].bo->offset);
	}
	return b->error;
}

int gtdrv_emit(struct gtdrv_batch *b, const char *cmd, const struct gtdrv_field *f,
	       unsigned n)
{
	struct gtdrv_cmd c;
	gtdrv_cmd_begin(&c, b->drv->gen, cmd, 0);
	for (unsigned i = 0; i < n; i++)
		gtdrv_cmd_set(&c, f[i].name, f[i].value);
	return gtdrv_cmd_emit(b, &c);
}

int gtdrv_emit_vertex_buffers(struct gtdrv_batch *b, const struct gtdrv_vb *vb, unsigned n)
{
	struct gtdrv_cmd c;
	gtdrv_cmd_begin(&c, b->drv->gen, "3DSTATE_VERTEX_BUFFERS", 1 + 4 * n);
	for (unsigned i = 0; i < n; i++) {
		uint32_t at = 1 + 4 * i;
		gtdrv_cmd_set_sub(&c, "VERTEX_BUFFER_STATE", at, "Vertex Buffer Index", vb[i].index);
		gtdrv_cmd_set_sub(&c, "VERTEX_BUFFER_STATE", at, "Buffer Pitch", vb[i].pitch);
		gtdrv_cmd_set_sub(&c, "VERTEX_BUFFER_STATE", at, "Address Modify Enable", 1);
		gtdrv_cmd_set_sub(&c, "VERTEX_BUFFER_STATE", at, "Buffer Size", vb[i].size);
		gtdrv_cmd_address(&c, "VERTEX_BUFFER_STATE", at, "Buffer Starting Address",
				  vb[i].bo, vb[i].offset, I915_GEM_DOMAIN_VERTEX, 0);
	}
	return gtdrv_cmd_emit(b, &c);
}

/* VERTEX_ELEMENT_STATE component controls (PRM vol. 2d). */
enum { VFCOMP_STORE_SRC = 1, VFCOMP_STORE_0 = 2, VFCOMP_STORE_1_FP = 3,
       VFCOMP_STORE_1_INT = 4 };

int gtdrv_emit_vertex_elements(struct gtdrv_batch *b, const struct gtdrv_vertex_attrib *a,
			       unsigned n)
{
	static const char *const comp_field[4] = {
		"Component 0 Control", "Component 1 Control",
		"Component 2 Control", "Component 3 Control" };
	struct gtdrv_cmd c;
	gtdrv_cmd_begin(&c, b->drv->gen, "3DSTATE_VERTEX_ELEMENTS", 1 + 2 * n);
	for (unsigned i = 0; i < n; i++) {
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
		uint32_t at = 1 + 2 * i;
		gtdrv_cmd_set_sub(&c, "VERTEX_ELEMENT_STATE", at, "Vertex Buffer Index", a[i].buffer);
		gtdrv_cmd_set_sub(&c, "VERTEX_ELEMENT_STATE", at, "Valid", 1);
		gtdrv_cmd_set_sub(&c, "VERTEX_ELEMENT_STATE", at, "Source Element Format", a[i].format);
		gtdrv_cmd_set_sub(&c, "VERTEX_ELEMENT_STATE", at, "Source Element Offset", a[i].offset);
		for (int k = 0; k < 4; k++)
			gtdrv_cmd_set_sub(&c, "VERTEX_ELEMENT_STATE", at, comp_field[k], comp[k]);
	}
	return gtdrv_cmd_emit(b, &c);
}

int gtdrv_emit_urb(struct gtdrv_batch *b, const struct urb_config *cfg)
{
	static const char *const cmds[URB_NUM_STAGES] = {
		"3DSTATE_URB_VS", "3DSTATE_URB_HS", "3DSTATE_URB_DS", "3DSTATE_URB_GS" };
	unsigned half = cfg->push_constant_kb / 2;
	int r = gtdrv_emit(b, "3DSTATE_PUSH_CONSTANT_ALLOC_VS", GTDRV_FIELDS(
		{ "Constant Buffer Offset", 0 }, { "Constant Buffer Size", half }));
	if (!r)
		r = gtdrv_emit(b, "3DSTATE_PUSH_CONSTANT_ALLOC_PS", GTDRV_FIELDS(
			{ "Constant Buffer Offset", half },
			{ "Constant Buffer Size", cfg->push_constant_kb - half }));
	for (int s = 0; s < URB_NUM_STAGES && !r; s++) {
		char f[3][64];
		snprintf(f[0], sizeof(f[0]), "%s Number of URB Entries", urb_stage_name(s));
		snprintf(f[1], sizeof(f[1]), "%s URB Entry Allocation Size", urb_stage_name(s));
		snprintf(f[2], sizeof(f[2]), "%s URB Starting Address", urb_stage_name(s));
		r = gtdrv_emit(b, cmds[s], GTDRV_FIELDS({ f[0], cfg->entries[s] },
			{ f[1], cfg->size[s] - 1 }, { f[2], cfg->start[s] }));
	}
	return r;
}
