/* 3DSTATE_WM_HZ_OP (PRM vol. 2a) modelled by its effect, as gtsim models
 * auxiliary surfaces: a depth clear writes the clear value of
 * 3DSTATE_CLEAR_PARAMS into every pixel of the clear rectangle of the
 * depth buffer, a stencil clear writes the stencil clear value; the HiZ
 * and depth resolves have nothing left to do. The rectangle's maxima are
 * exclusive. */
#include "gpu/cs/cs.h"
#include "gpu/cs/state.h"
#include "gpu/render/render_cs.h"
#include "gpu/render/wm.h"

static void fill(const struct gt_vm *vm, const struct om_surface *s, uint32_t x0, uint32_t y0,
		 uint32_t x1, uint32_t y1, const void *value)
{
	for (uint32_t y = y0; y < y1; y++)
		for (uint32_t x = x0; x < x1; x++) {
			uint64_t off;
			if (om_surface_offset(s, x, y, &off))
				vm_write(vm, s->base + off, value, s->cpp);
		}
}

enum cs_result render_cs_hz_op(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len)
{
	if (cs_state_record(e->state, d, dw, len))
		return cs_fault(e, "out of memory recording %s", d->name);
	bool depth = cmd_field_get(d, dw, "Depth Buffer Clear Enable");
	bool stencil = cmd_field_get(d, dw, "Stencil Buffer Clear Enable");
	if (!depth && !stencil)
		return CS_NEXT;
	struct depth_state ds;
	wm_depth_state_load(&ds, e->gpu->info->gen, e->state);
	struct gt_vm vm = cs_vm_for(e, false);
	uint32_t x0 = (uint32_t)cmd_field_get(d, dw, "Clear Rectangle X Min");
	uint32_t y0 = (uint32_t)cmd_field_get(d, dw, "Clear Rectangle Y Min");
	uint32_t x1 = (uint32_t)cmd_field_get(d, dw, "Clear Rectangle X Max");
	uint32_t y1 = (uint32_t)cmd_field_get(d, dw, "Clear Rectangle Y Max");
	if (depth && ds.has_depth) {
		uint32_t v = depth_encode(ds.depth_format, ds.clear_valid ? ds.clear_value : 0.0f);
		fill(&vm, &ds.depth, x0, y0, x1, y1, &v);
	}
	if (stencil && ds.has_stencil) {
		uint8_t v = (uint8_t)cmd_field_get(d, dw, "Stencil Clear Value");
		fill(&vm, &ds.stencil, x0, y0, x1, y1, &v);
	}
	return CS_NEXT;
}
