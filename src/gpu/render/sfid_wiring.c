/* Which shared function (SFID) a thread of each 3D stage reaches with send,
 * and which unit implements it (PRM vol. 7 "Shared Functions"). An SFID a
 * stage's column leaves NULL is one no unit implements for it: a send there
 * is a GPU fault naming the shared function (eu/send.c), e.g. the message
 * gateway and thread spawner, or a VS writing a render target. The draw fills the unit contexts each handler
 * receives (struct render_units). */
#include "gpu/render/wm_draw.h"

static int to_urb(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return urb_sfid_handler(((struct render_units *)units)->urb, t, msg);
}

static int to_sampler(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return sampler_sfid_handler(((struct render_units *)units)->sampler, t, msg);
}

static int to_data_port(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return dp_sfid_handler(((struct render_units *)units)->dp, t, msg);
}

static int to_pixel_interpolator(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return pi_sfid_handler(((struct render_units *)units)->pi, t, msg);
}

static int to_render_target(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return rt_write_handler(((struct render_units *)units)->rt, t, msg);
}

static int to_gateway(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return gateway_sfid_handler(((struct render_units *)units)->gateway, t, msg);
}

void render_dp_unit(struct render_state *rs, const struct render_env *env, struct dp_unit *u,
		    enum render_stage st, uint64_t scratch_base, uint32_t scratch_space)
{
	dp_unit_init(u, rs->info->gen, &env->vm, rs->sba.general, rs->sba.surface,
		     rs->sba.dynamic, rs->binding_table[st]);
	/* 3DSTATE_VS/HS/DS/GS/PS Per-Thread Scratch Space: 1 KB << n */
	u->scratch_base = scratch_base;
	u->scratch_per_thread = scratch_base ? 1024u << (scratch_space & 15) : 0;
}

const struct sfid_table render_sfids[RS_NUM_STAGES] = {
	[RS_VS] = { .fn = {
		[EU_SFID_URB] = to_urb,                   /* sfid/urb.c */
		[EU_SFID_SAMPLER] = to_sampler,           /* sfid/sampler.c */
		[EU_SFID_DP_CC] = to_data_port,           /* dataport/ */
		[EU_SFID_DP_DC0] = to_data_port,
		[EU_SFID_DP_DC1] = to_data_port,
	} },
	[RS_PS] = { .fn = {
		[EU_SFID_URB] = to_urb,
		[EU_SFID_SAMPLER] = to_sampler,
		[EU_SFID_DP_RC] = to_render_target,       /* render/rt_write.c */
		[EU_SFID_PI] = to_pixel_interpolator,     /* sfid/pi.c */
		[EU_SFID_DP_CC] = to_data_port,
		[EU_SFID_DP_DC0] = to_data_port,
		[EU_SFID_DP_DC1] = to_data_port,
	} },
	[RS_GS] = { .fn = {
		[EU_SFID_URB] = to_urb,                   /* render/gs_dispatch.c's payload */
		[EU_SFID_SAMPLER] = to_sampler,
		[EU_SFID_DP_CC] = to_data_port,
		[EU_SFID_DP_DC0] = to_data_port,
		[EU_SFID_DP_DC1] = to_data_port,
	} },
	[RS_HS] = { .fn = {
		[EU_SFID_URB] = to_urb,                   /* patch entry, control points */
		[EU_SFID_GATEWAY] = to_gateway,           /* barriers between instances */
		[EU_SFID_SAMPLER] = to_sampler,
		[EU_SFID_DP_CC] = to_data_port,
		[EU_SFID_DP_DC0] = to_data_port,
		[EU_SFID_DP_DC1] = to_data_port,
	} },
	[RS_DS] = { .fn = {
		[EU_SFID_URB] = to_urb,                   /* patch entry, output VUEs */
		[EU_SFID_SAMPLER] = to_sampler,
		[EU_SFID_DP_CC] = to_data_port,
		[EU_SFID_DP_DC0] = to_data_port,
		[EU_SFID_DP_DC1] = to_data_port,
	} },
};
