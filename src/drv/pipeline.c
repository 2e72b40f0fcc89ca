/* The 3D front-end helpers of pipeline.h. */
#include "drv/pipeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/asm.h"

int gtdrv_emit_3d_begin(struct gtdrv_batch *b, struct gtdrv_bo *instruction_bo,
			struct gtdrv_bo *dynamic_bo)
{
	int gen = b->drv->gen;
	/* gen9: Mask Bits 8-15 enable the change (gen8 has no such field) */
	GTDRV_EMIT(b, PIPELINE_SELECT, .mask_bits = 3, .pipeline_selection = 0);
	uint32_t len = GTDRV_CMD_LEN(b, STATE_BASE_ADDRESS);
	uint32_t *dw = gtdrv_cmd_start(b, len);
	struct cmd_STATE_BASE_ADDRESS sba = {
		.general_state_buffer_size_modify_enable = true,
		.general_state_buffer_size = 0xfffff,
		.dynamic_state_buffer_size_modify_enable = true,
		.dynamic_state_buffer_size = 0xfffff,
		.indirect_object_buffer_size_modify_enable = true,
		.indirect_object_buffer_size = 0xfffff,
		.instruction_buffer_size_modify_enable = true,
		.instruction_buffer_size = 0xfffff,
		.instruction_base_address_modify_enable = true,
		.instruction_base_address = instruction_bo->offset,
	};
	gtdrv_cmd_reloc(b, cmd_STATE_BASE_ADDRESS_instruction_base_address_bit(gen),
			instruction_bo, I915_GEM_DOMAIN_INSTRUCTION, 0);
	if (dynamic_bo) {
		sba.dynamic_state_base_address_modify_enable = true;
		sba.dynamic_state_base_address = dynamic_bo->offset;
		gtdrv_cmd_reloc(b, cmd_STATE_BASE_ADDRESS_dynamic_state_base_address_bit(gen),
				dynamic_bo, I915_GEM_DOMAIN_INSTRUCTION, 0);
	}
	return gtdrv_cmd_end(b, "STATE_BASE_ADDRESS", cmd_STATE_BASE_ADDRESS_pack(gen, dw, len, &sba));
}

int gtdrv_emit_vs(struct gtdrv_batch *b, const struct gtdrv_vs *vs)
{
	return GTDRV_EMIT(b, 3DSTATE_VS,
		.kernel_start_pointer = vs->kernel_offset,
		.dispatch_grf_start_register_for_urb_data = vs->grf_start,
		.vertex_urb_entry_read_length = vs->read_length,
		.vertex_urb_entry_read_offset = 0,
		.vertex_urb_entry_output_length = vs->output_length,
		.maximum_number_of_threads = b->drv->info->num_eus * b->drv->info->threads_per_eu - 1,
		.simd8_dispatch_enable = true,
		.statistics_enable = true,
		.enable = true);
}

int gtdrv_emit_geometry_off(struct gtdrv_batch *b)
{
	GTDRV_EMIT(b, 3DSTATE_HS, 0);
	GTDRV_EMIT(b, 3DSTATE_TE, 0);
	GTDRV_EMIT(b, 3DSTATE_DS, 0);
	GTDRV_EMIT(b, 3DSTATE_GS, 0);
	return GTDRV_EMIT(b, 3DSTATE_STREAMOUT, 0);
}

int gtdrv_emit_draw(struct gtdrv_batch *b, const struct gtdrv_draw *d)
{
	GTDRV_EMIT(b, 3DSTATE_VF_TOPOLOGY, .primitive_topology_type = d->topology);
	GTDRV_EMIT(b, 3DSTATE_VF_STATISTICS, .statistics_enable = true);
	return GTDRV_EMIT(b, 3DPRIMITIVE,
		.vertex_access_type = d->indexed,
		.primitive_topology_type = d->topology,
		.vertex_count_per_instance = d->vertex_count,
		.start_vertex_location = d->start_vertex,
		.instance_count = d->instance_count,
		.start_instance_location = d->start_instance,
		.base_vertex_location = d->base_vertex);
}

int gtdrv_emit_lri(struct gtdrv_batch *b, uint32_t reg, uint32_t value)
{
	int gen = b->drv->gen;
	uint32_t *dw = gtdrv_cmd_start(b, 3);     /* one register/value pair */
	int r = cmd_MI_LOAD_REGISTER_IMM_pack(gen, dw, 3, &(const struct cmd_MI_LOAD_REGISTER_IMM){ 0 });
	r = r ? r : cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, dw, 3, 0, reg);
	r = r ? r : cmd_MI_LOAD_REGISTER_IMM_data_dword_set(gen, dw, 3, 0, value);
	return gtdrv_cmd_end(b, "MI_LOAD_REGISTER_IMM", r);
}

int gtdrv_emit_srm(struct gtdrv_batch *b, uint32_t reg, struct gtdrv_bo *bo, uint32_t offset)
{
	int gen = b->drv->gen;
	uint32_t len = GTDRV_CMD_LEN(b, MI_STORE_REGISTER_MEM);
	uint32_t *dw = gtdrv_cmd_start(b, len);
	const struct cmd_MI_STORE_REGISTER_MEM srm = {
		.register_address = reg, .memory_address = bo->offset + offset };
	gtdrv_cmd_reloc(b, cmd_MI_STORE_REGISTER_MEM_memory_address_bit(gen), bo,
			I915_GEM_DOMAIN_INSTRUCTION, I915_GEM_DOMAIN_INSTRUCTION);
	return gtdrv_cmd_end(b, "MI_STORE_REGISTER_MEM", cmd_MI_STORE_REGISTER_MEM_pack(gen, dw, len, &srm));
}

/* Assembled kernels, kept per process: a test or fuzz target uploads the
 * same few texts over and over (the draw and walker fuzz targets once per
 * input), and assembling them was a tenth of those targets' time.
 * Entries are never freed; a full cache replaces its oldest entry. */
#define KERNEL_CACHE 16
static struct {
	int gen;
	char *text;
	uint8_t *bytes;
	size_t len;
} kernel_cache[KERNEL_CACHE];
static unsigned kernel_cache_next;
static pthread_mutex_t kernel_cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* The program assembled from text (a malloc'd copy in *bytes), from the
 * cache or assembled now; -EINVAL with the assembler's error printed. */
static int assemble_cached(int gen, const char *text, uint8_t **bytes, size_t *len)
{
	int r = 0;
	pthread_mutex_lock(&kernel_cache_lock);
	for (unsigned i = 0; i < KERNEL_CACHE; i++)
		if (kernel_cache[i].text && kernel_cache[i].gen == gen &&
		    !strcmp(kernel_cache[i].text, text)) {
			*len = kernel_cache[i].len;
			*bytes = malloc(*len ? *len : 1);
			if (*bytes)
				memcpy(*bytes, kernel_cache[i].bytes, *len);
			pthread_mutex_unlock(&kernel_cache_lock);
			return *bytes ? 0 : -ENOMEM;
		}
	struct eu_asm_result res;
	if (eu_assemble(gen, text, strlen(text), "kernel", &res)) {
		fprintf(stderr, "libgtdrv: %s\n", res.error);
		r = -EINVAL;
	} else {
		*len = res.len;
		*bytes = res.bytes;
		res.bytes = NULL;
		char *copy = strdup(text);
		uint8_t *kept = malloc(*len ? *len : 1);
		if (copy && kept) {
			memcpy(kept, *bytes, *len);
			unsigned i = kernel_cache_next++ % KERNEL_CACHE;
			free(kernel_cache[i].text);
			free(kernel_cache[i].bytes);
			kernel_cache[i].gen = gen;
			kernel_cache[i].text = copy;
			kernel_cache[i].bytes = kept;
			kernel_cache[i].len = *len;
		} else {
			free(copy);
			free(kept);
		}
		eu_asm_result_free(&res);
	}
	pthread_mutex_unlock(&kernel_cache_lock);
	return r;
}

int gtdrv_upload_kernel(struct gtdrv *drv, struct gtdrv_bo *bo, uint32_t offset,
			const char *text, size_t *len)
{
	uint8_t *bytes;
	size_t n;
	int r = assemble_cached(drv->gen, text, &bytes, &n);
	if (r)
		return r;
	r = gtdrv_bo_write(drv, bo, offset, bytes, n);
	if (len)
		*len = n;
	free(bytes);
	return r;
}
