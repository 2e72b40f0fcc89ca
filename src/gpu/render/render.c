/* The front end's entry points: state, commands, 3DPRIMITIVE. */
#include "gpu/render/render_state.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/regs.h"

static size_t render_state_bytes(const struct gt_devinfo *info)
{
	return sizeof(struct render_state) + (size_t)info->urb_size_kb * 1024;
}

/* The state and its URB are one block of render_state_bytes(). */
static void render_state_init(void *block, const struct gt_devinfo *info)
{
	struct render_state *rs = block;
	memset(rs, 0, sizeof(*rs));
	rs->info = info;
	rs->urb_space.mem = (uint8_t *)(rs + 1);
	rs->urb_space.bytes = (uint32_t)info->urb_size_kb * 1024;
	rs->vs_units = (struct render_units){ .urb = &rs->urb_space,
					      .sampler = &rs->vs_sampler };
}

struct render_state *render_state_create(const struct gt_devinfo *info)
{
	void *block = calloc(1, render_state_bytes(info));
	if (block)
		render_state_init(block, info);
	return block;
}

void render_state_destroy(struct render_state *rs)
{
	free(rs);
}

const char *render_fault(const struct render_state *rs)
{
	return rs->fault;
}

uint8_t *render_urb(struct render_state *rs, size_t *size)
{
	*size = rs->urb_space.bytes;
	return rs->urb_space.mem;
}

void render_set_profiling(struct render_state *rs, bool on)
{
	rs->profiling = on;
	memset(&rs->prof, 0, sizeof(rs->prof));
}

void render_get_profile(const struct render_state *rs, struct render_profile *out)
{
	*out = rs->prof;
	out->threads = rs->threads;
}

uint64_t render_clock(const struct render_state *rs)
{
	struct timespec ts;
	if (!rs->profiling)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

size_t render_last_vues(const struct render_state *rs, uint32_t *handles, size_t max)
{
	size_t n = rs->num_last_vues < max ? rs->num_last_vues : max;
	memcpy(handles, rs->last_vues, n * sizeof(uint32_t));
	return n;
}

/* 3DPRIMITIVE (PRM vol. 2a): with Indirect Parameter Enable the draw's
 * numbers come from the 3DPRIM_* registers. On Gen8+ the topology is the
 * one of 3DSTATE_VF_TOPOLOGY. */
static int primitive(struct render_state *rs, const struct render_env *env,
		     const uint32_t *dw, uint32_t len)
{
	struct cmd_3DPRIMITIVE v;
	cmd_3DPRIMITIVE_unpack(rs->info->gen, dw, len, &v);
	/* Predicate Enable: the draw happens only when MI_PREDICATE_RESULT is
	 * set (PRM vol. 2a, 3DPRIMITIVE; GL's conditional rendering). */
	if (v.predicate_enable && !env->predicate) {
		TRACE(TRACE_CS, "3DPRIMITIVE: predicated off");
		return 0;
	}
	struct draw_params p = {
		.indexed = v.vertex_access_type == 1,   /* RANDOM */
		.topology = rs->topology,
	};
	if (v.indirect_parameter_enable) {
		if (!env->regs)
			return render_set_fault(rs, "3DPRIMITIVE: indirect draw without registers");
		p.vertex_count = regs_get(env->regs, REG_GPR_3DPRIM_VERTEX_COUNT);
		p.start_vertex = regs_get(env->regs, REG_GPR_3DPRIM_START_VERTEX);
		p.instance_count = regs_get(env->regs, REG_GPR_3DPRIM_INSTANCE_COUNT);
		p.start_instance = regs_get(env->regs, REG_GPR_3DPRIM_START_INSTANCE);
		p.base_vertex = (int32_t)regs_get(env->regs, REG_GPR_3DPRIM_BASE_VERTEX);
	} else {
		p.vertex_count = v.vertex_count_per_instance;
		p.start_vertex = v.start_vertex_location;
		p.instance_count = v.instance_count;
		p.start_instance = v.start_instance_location;
		p.base_vertex = v.base_vertex_location;
	}
	/* An instance count of 0 draws nothing (indirect draws rely on it). */
	return render_draw(rs, env, &p);
}

int render_command(struct render_state *rs, const struct render_env *env,
		   const struct cmd_desc *d, const uint32_t *dw, uint32_t len)
{
	rs->fault[0] = 0;
	if (d->id == CMD_ID_3DPRIMITIVE)
		return primitive(rs, env, dw, len);
	if (d->id == CMD_ID_3DSTATE_SO_BUFFER)
		return so_buffer_command(rs, env, dw, len);
	return render_state_command(rs, d, dw, len);
}
