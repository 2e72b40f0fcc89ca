/* 3DSTATE_HS, 3DSTATE_TE, 3DSTATE_DS and 3DSTATE_CONSTANT_HS/_DS decoded
 * through their generated structs into struct tess_state (PRM vol. 2a). */
#include <string.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/render/render_state.h"
#include "gpu/render/te_state.h"

static void hs(struct hs_state *s, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_3DSTATE_HS v;
	cmd_3DSTATE_HS_unpack(gen, dw, len, &v);
	struct tess_consts c = s->consts;   /* separate state */
	*s = (struct hs_state){
		.enable = v.enable,
		.stats = v.statistics_enable,
		.vertex_handles = v.include_vertex_handles,
		.primitive_id = v.include_primitive_id,          /* gen9 */
		.instances = v.instance_count + 1,
		.dispatch_mode = v.dispatch_mode,                /* gen9; gen8: SINGLE_PATCH */
		.ksp = v.kernel_start_pointer,
		.read_offset = v.vertex_urb_entry_read_offset,
		.read_length = v.vertex_urb_entry_read_length,
		.grf_start = v.dispatch_grf_start_register_for_urb_data |
			     v.dispatch_grf_start_register_for_urb_data_5 << 5,
		.scratch_space = v.per_thread_scratch_space,
		.scratch_base = v.scratch_space_base_pointer,
		.consts = c,
	};
}

static void te(struct te_state *s, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_3DSTATE_TE v;
	cmd_3DSTATE_TE_unpack(gen, dw, len, &v);
	*s = (struct te_state){
		.enable = v.te_enable,
		.mode = v.te_mode,
		.domain = v.te_domain,
		.topology = v.output_topology,
		.partitioning = v.partitioning,
		.max_odd = v.maximum_tessellation_factor_odd,
		.max_not_odd = v.maximum_tessellation_factor_not_odd,
	};
}

static void ds(struct ds_state *s, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_3DSTATE_DS v;
	cmd_3DSTATE_DS_unpack(gen, dw, len, &v);
	struct tess_consts c = s->consts;
	*s = (struct ds_state){
		.enable = v.enable,
		.stats = v.statistics_enable,
		.compute_w = v.compute_w_coordinate_enable,
		.dispatch_mode = v.dispatch_mode,
		.ksp = v.kernel_start_pointer,
		.read_offset = v.patch_urb_entry_read_offset,
		.read_length = v.patch_urb_entry_read_length,
		.grf_start = v.dispatch_grf_start_register_for_urb_data,
		.scratch_space = v.per_thread_scratch_space,
		.scratch_base = v.scratch_space_base_pointer,
		.cull_mask = v.user_clip_distance_cull_test_enable_bitmask,
		.clip_mask = v.user_clip_distance_clip_test_enable_bitmask,
		.consts = c,
	};
}

/* One 3DSTATE_CONSTANT_HS/_DS; a command too short for a whole Constant
 * Body reads nothing. */
#define CONSTANTS(ST, dst)                                                             \
	do {                                                                           \
		memset(&(dst), 0, sizeof(dst));                                        \
		if (len < cmd_3DSTATE_CONSTANT_##ST##_length(gen))                     \
			break;                                                         \
		struct cmd_3DSTATE_CONSTANT_##ST v;                                    \
		cmd_3DSTATE_CONSTANT_##ST##_unpack(gen, dw, len, &v);                  \
		for (int i = 0; i < 4; i++) {                                          \
			(dst).len[i] = v.constant_body.read_length[i];                 \
			(dst).addr[i] = v.constant_body.buffer[i];                     \
		}                                                                      \
	} while (0)

int tess_state_command(struct render_state *rs, const struct cmd_desc *d, const uint32_t *dw,
		       uint32_t len)
{
	int gen = rs->info->gen;
	struct tess_state *t = &rs->tess;
	switch ((enum cmd_id)d->id) {
	case CMD_ID_3DSTATE_HS:
		hs(&t->hs, gen, dw, len);
		rs->hs_enable = t->hs.enable;
		break;
	case CMD_ID_3DSTATE_TE:
		te(&t->te, gen, dw, len);
		rs->te_enable = t->te.enable;
		break;
	case CMD_ID_3DSTATE_DS:
		ds(&t->ds, gen, dw, len);
		rs->ds_enable = t->ds.enable;
		break;
	case CMD_ID_3DSTATE_CONSTANT_HS:
		CONSTANTS(HS, t->hs.consts);
		break;
	case CMD_ID_3DSTATE_CONSTANT_DS:
		CONSTANTS(DS, t->ds.consts);
		break;
	default:
		return 1;
	}
	return 0;
}
