/* The 3D front-end helpers of pipeline.h. */
#include "drv/pipeline.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpu/eu/asm.h"

int gtdrv_emit_3d_begin(struct gtdrv_batch *b, struct gtdrv_bo *instruction_bo,
			struct gtdrv_bo *dynamic_bo)
{
	struct gtdrv_cmd c;
	gtdrv_cmd_begin(&c, b->drv->gen, "PIPELINE_SELECT", 0);
	if (cmd_field_find(c.d, "Mask Bits"))   /* gen9: bits 8-15 enable the change */
		gtdrv_cmd_set(&c, "Mask Bits", 3);
	gtdrv_cmd_set(&c, "Pipeline Selection", 0);
	int r = gtdrv_cmd_emit(b, &c);
	if (r)
		return r;
	gtdrv_cmd_begin(&c, b->drv->gen, "STATE_BASE_ADDRESS", 0);
	static const char *const bounds[] = {
		"General State Buffer Size", "Dynamic State Buffer Size",
		"Indirect Object Buffer Size", "Instruction Buffer Size" };
	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		char en[80];
		snprintf(en, sizeof(en), "%s Modify Enable", bounds[i]);
		if (!cmd_field_find(c.d, en))   /* "Instruction Buffer size Modify Enable" */
			snprintf(en, sizeof(en), "Instruction Buffer size Modify Enable");
		gtdrv_cmd_set(&c, en, 1);
		gtdrv_cmd_set(&c, bounds[i], 0xfffff);
	}
	gtdrv_cmd_set(&c, "Instruction Base Address Modify Enable", 1);
	gtdrv_cmd_address(&c, NULL, 0, "Instruction Base Address", instruction_bo, 0,
			  I915_GEM_DOMAIN_INSTRUCTION, 0);
	if (dynamic_bo) {
		gtdrv_cmd_set(&c, "Dynamic State Base Address Modify Enable", 1);
		gtdrv_cmd_address(&c, NULL, 0, "Dynamic State Base Address", dynamic_bo, 0,
				  I915_GEM_DOMAIN_INSTRUCTION, 0);
	}
	return gtdrv_cmd_emit(b, &c);
}

int gtdrv_emit_vs(struct gtdrv_batch *b, const struct gtdrv_vs *vs)
{
	return gtdrv_emit(b, "3DSTATE_VS", GTDRV_FIELDS(
		{ "Kernel Start Pointer", vs->kernel_offset },
		{ "Dispatch GRF Start Register For URB Data", vs->grf_start },
		{ "Vertex URB Entry Read Length", vs->read_length },
		{ "Vertex URB Entry Read Offset", 0 },
		{ "Vertex URB Entry Output Length", vs->output_length },
		{ "Maximum Number of Threads", (uint64_t)b->drv->info->num_eus *
			b->drv->info->threads_per_eu - 1 },
		{ "SIMD8 Dispatch Enable", 1 },
		{ "Statistics Enable", 1 },
		{ "Enable", 1 }));
}

int gtdrv_emit_geometry_off(struct gtdrv_batch *b)
{
	static const char *const off[] = {
		"3DSTATE_HS", "3DSTATE_TE", "3DSTATE_DS", "3DSTATE_GS", "3DSTATE_STREAMOUT" };
	int r = 0;
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]) && !r; i++)
		r = gtdrv_emit(b, off[i], NULL, 0);
	return r;
}

int gtdrv_emit_draw(struct gtdrv_batch *b, const struct gtdrv_draw *d)
{
	int r = gtdrv_emit(b, "3DSTATE_VF_TOPOLOGY",
			   GTDRV_FIELDS({ "Primitive Topology Type", d->topology }));
	if (!r)
		r = gtdrv_emit(b, "3DSTATE_VF_STATISTICS", GTDRV_FIELDS({ "Statistics Enable", 1 }));
	if (!r)
		r = gtdrv_emit(b, "3DPRIMITIVE", GTDRV_FIELDS(
			{ "Vertex Access Type", d->indexed },
			{ "Primitive Topology Type", d->topology },
			{ "Vertex Count Per Instance", d->vertex_count },
			{ "Start Vertex Location", d->start_vertex },
			{ "Instance Count", d->instance_count },
			{ "Start Instance Location", d->start_instance },
			{ "Base Vertex Location", (uint64_t)(int64_t)d->base_vertex }));
	return r;
}

int gtdrv_emit_lri(struct gtdrv_batch *b, uint32_t reg, uint32_t value)
{
	return gtdrv_emit(b, "MI_LOAD_REGISTER_IMM", GTDRV_FIELDS(
		{ "Register Offset", reg }, { "Data DWord", value }));
}

int gtdrv_emit_srm(struct gtdrv_batch *b, uint32_t reg, struct gtdrv_bo *bo, uint32_t offset)
{
	struct gtdrv_cmd c;
	gtdrv_cmd_begin(&c, b->drv->gen, "MI_STORE_REGISTER_MEM", 0);
	gtdrv_cmd_set(&c, "Register Address", reg);
	gtdrv_cmd_address(&c, NULL, 0, "Memory Address", bo, offset,
			  I915_GEM_DOMAIN_INSTRUCTION, I915_GEM_DOMAIN_INSTRUCTION);
	return gtdrv_cmd_emit(b, &c);
}

int gtdrv_upload_kernel(struct gtdrv *drv, struct gtdrv_bo *bo, uint32_t offset,
			const char *text, size_t *len)
{
	struct eu_asm_result res;
	if (eu_assemble(drv->gen, text, strlen(text), "kernel", &res)) {
		fprintf(stderr, "libgtdrv: %s\n", res.error);
		return -EINVAL;
	}
	int r = gtdrv_bo_write(drv, bo, offset, res.bytes, res.len);
	if (len)
		*len = res.len;
	eu_asm_result_free(&res);
	return r;
}
