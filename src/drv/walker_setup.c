/* The compute dispatch of walker_setup.h. */
#include "drv/walker_setup.h"

#include <errno.h>
#include <string.h>

int gtdrv_walker_setup_init(struct gtdrv_walker_setup *s, struct gtdrv *drv,
			    const struct gtdrv_walker_kernel *k, unsigned n,
			    const void *curbe, uint32_t curbe_bytes)
{
	memset(s, 0, sizeof(*s));
	s->drv = drv;
	if (!n || n > GTDRV_WALKER_MAX_KERNELS || curbe_bytes % 32 ||
	    curbe_bytes > GTDRV_WALKER_MAX_CURBE)
		return -EINVAL;
	s->curbe_bytes = curbe_bytes;
	s->nkernels = n;
	int r = gtdrv_bo_alloc(drv, &s->kernel, GTDRV_WALKER_MAX_KERNELS *
						GTDRV_WALKER_KERNEL_STRIDE);
	r = r ? r : gtdrv_bo_alloc(drv, &s->dyn, 4096);
	r = r ? r : gtdrv_bo_alloc(drv, &s->out, 4096);
	uint32_t idd[GTDRV_WALKER_MAX_KERNELS * 8] = { 0 };
	for (unsigned i = 0; i < n && !r; i++) {
		r = gtdrv_upload_kernel(drv, &s->kernel, i * GTDRV_WALKER_KERNEL_STRIDE,
					k[i].text, NULL);
		/* INTERFACE_DESCRIPTOR_DATA: 8 dwords (PRM vol. 2d) */
		if (!r && cmd_INTERFACE_DESCRIPTOR_DATA_pack(drv->gen, idd + 8 * i, 8,
			&(const struct cmd_INTERFACE_DESCRIPTOR_DATA){
			.kernel_start_pointer = i * GTDRV_WALKER_KERNEL_STRIDE,
			.barrier_enable = k[i].barrier,
			.constant_urb_entry_read_length = k[i].curbe_read_length,
			.number_of_threads_in_gpgpu_thread_group = k[i].threads_per_group }))
			r = -EINVAL;
	}
	r = r ? r : gtdrv_bo_write(drv, &s->dyn, GTDRV_WALKER_DYN_IDD, idd, 32 * n);
	if (!r && curbe_bytes)
		r = gtdrv_bo_write(drv, &s->dyn, GTDRV_WALKER_DYN_CURBE, curbe, curbe_bytes);
	static const uint8_t zero[4096];
	r = r ? r : gtdrv_bo_write(drv, &s->out, 0, zero, sizeof(zero));
	if (r)
		gtdrv_walker_setup_fini(s);
	return r;
}

void gtdrv_walker_setup_fini(struct gtdrv_walker_setup *s)
{
	struct gtdrv_bo *bos[] = { &s->kernel, &s->dyn, &s->out };
	for (size_t i = 0; i < sizeof(bos) / sizeof(bos[0]); i++)
		if (bos[i]->handle)
			gtdrv_bo_free(s->drv, bos[i]);
}

int gtdrv_walker_emit_state(struct gtdrv_batch *b, struct gtdrv_walker_setup *s)
{
	/* the base addresses (instruction and dynamic state at the setup's
	 * buffers), then the GPGPU pipeline */
	int r = gtdrv_emit_3d_begin(b, &s->kernel, &s->dyn);
	r = r ? r : GTDRV_EMIT(b, PIPELINE_SELECT, .mask_bits = 3,
			       .pipeline_selection = s->media ? 1 : 2);
	r = r ? r : GTDRV_EMIT(b, MEDIA_VFE_STATE, .maximum_number_of_threads = 55,
			       .number_of_urb_entries = 2, .urb_entry_allocation_size = 2,
			       .curbe_allocation_size = 2);
	if (!r && s->curbe_bytes)
		r = GTDRV_EMIT(b, MEDIA_CURBE_LOAD, .curbe_total_data_length = s->curbe_bytes,
			       .curbe_data_start_address = GTDRV_WALKER_DYN_CURBE);
	return r ? r : GTDRV_EMIT(b, MEDIA_INTERFACE_DESCRIPTOR_LOAD,
				  .interface_descriptor_total_length =
					  32 * s->nkernels,
				  .interface_descriptor_data_start_address = GTDRV_WALKER_DYN_IDD);
}

int gtdrv_walker_emit_dispatch(struct gtdrv_batch *b, struct gtdrv_walker_setup *s,
			       const struct gtdrv_walker *w)
{
	if (!w->threads || w->kernel >= s->nkernels)
		return -EINVAL;
	int r = 0;
	if (w->indirect) {
		r = gtdrv_emit_lri(b, REG_GPGPU_DISPATCHDIMX, w->groups[0]);
		r = r ? r : gtdrv_emit_lri(b, REG_GPGPU_DISPATCHDIMY, w->groups[1]);
		r = r ? r : gtdrv_emit_lri(b, REG_GPGPU_DISPATCHDIMZ, w->groups[2]);
	}
	r = r ? r : GTDRV_EMIT(b, GPGPU_WALKER, .interface_descriptor_offset = w->kernel,
			       .indirect_parameter_enable = w->indirect,
			       .simd_size = w->simd_size,
			       .thread_width_counter_maximum = w->threads - 1,
			       .thread_group_id_x_dimension = w->indirect ? 1 : w->groups[0],
			       .thread_group_id_y_dimension = w->indirect ? 1 : w->groups[1],
			       .thread_group_id_z_dimension = w->indirect ? 1 : w->groups[2],
			       .right_execution_mask = w->right_mask ? w->right_mask : 0xffffffff,
			       .bottom_execution_mask = 0xffffffff);
	return r ? r : GTDRV_EMIT(b, MEDIA_STATE_FLUSH, 0);
}

int gtdrv_walker_emit_media_object(struct gtdrv_batch *b, struct gtdrv_walker_setup *s,
				   unsigned kernel, const uint32_t *inline_dw, unsigned n)
{
	if (kernel >= s->nkernels || n > 8)
		return -EINVAL;
	const int gen = b->drv->gen;
	uint32_t len = 6 + n;       /* DWords 0..5 (PRM), the inline data from 6 */
	uint32_t *dw = gtdrv_cmd_start(b, len);
	int packed = cmd_MEDIA_OBJECT_pack(gen, dw, len, &(const struct cmd_MEDIA_OBJECT){
		.interface_descriptor_offset = kernel });
	for (unsigned i = 0; i < n && !packed; i++)
		packed = cmd_MEDIA_OBJECT_inline_data_set(gen, dw, len, i, inline_dw[i]);
	int r = gtdrv_cmd_end(b, "MEDIA_OBJECT", packed);
	return r ? r : GTDRV_EMIT(b, MEDIA_STATE_FLUSH, 0);
}
