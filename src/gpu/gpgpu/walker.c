/* GPGPU_WALKER (PRM vol. 2a; vol. 7 "GPGPU"): thread groups with IDs from
 * Starting X/Y/Z up to (not including) the X/Y/Z Dimensions, X fastest;
 * each group is (Thread Width x Height x Depth Counter Maximum + 1)
 * threads of SIMD8/16/32 running the kernel of the interface descriptor
 * at Interface Descriptor Offset. With Indirect Parameter Enable the
 * dimensions come from the GPGPU_DISPATCHDIMX/Y/Z registers (the
 * glDispatchComputeIndirect path of iris). */
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cs/regs.h"
#include "gpu/eu/kernel_load.h"
#include "gpu/gpgpu/gpgpu_internal.h"

/* Shared Local Memory Size in bytes (PRM INTERFACE_DESCRIPTOR_DATA):
 * Gen8 n x 4 KB for n = 0, 1, 2, 4, 8, 16; Gen9 0, or 1 KB << (n - 1)
 * for n = 1..7 (64 KB). -1: a reserved encoding. */
static int64_t slm_bytes(int gen, uint32_t n)
{
	if (gen >= 9)
		return n == 0 ? 0 : n <= 7 ? 1024ll << (n - 1) : -1;
	return (n & (n - 1)) == 0 && n <= 16 ? n * 4096ll : -1;
}

static int setup(struct gpgpu_state *gs, const struct gpgpu_env *env,
		 const struct cmd_GPGPU_WALKER *v, struct gpgpu_walk *w)
{
	if (gs->pipeline != PIPE_GPGPU)
		return gpgpu_set_fault(gs, "GPGPU_WALKER with the %s pipeline selected",
				       gs->pipeline == PIPE_3D ? "3D" : "media");
	if (!gs->vfe_valid)
		return gpgpu_set_fault(gs, "GPGPU_WALKER before any MEDIA_VFE_STATE");
	if (v->interface_descriptor_offset >= gs->idd_count)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: interface descriptor %u of the %u loaded",
				       v->interface_descriptor_offset, gs->idd_count);
	if (v->simd_size > 2)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: reserved SIMD Size %u", v->simd_size);
	cmd_INTERFACE_DESCRIPTOR_DATA_unpack(gs->gen, gs->idd[v->interface_descriptor_offset],
					     8, &w->id);
	w->simd = 8u << v->simd_size;
	w->width = v->thread_width_counter_maximum + 1;
	w->height = v->thread_height_counter_maximum + 1;
	w->threads = w->width * w->height * (v->thread_depth_counter_maximum + 1);
	w->right_mask = v->right_execution_mask;
	w->bottom_mask = v->bottom_execution_mask;
	w->cross_regs = w->id.cross_thread_constant_data_read_length;
	w->per_regs = w->id.constant_urb_entry_read_length;
	if (w->threads > gs->max_threads)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: %u threads per group, MEDIA_VFE_STATE "
				       "allows %u", w->threads, gs->max_threads);
	/* the gateway counts the descriptor's threads at a barrier; the PRM
	 * requires it to be the walker's thread count */
	if (w->id.barrier_enable && w->id.number_of_threads_in_gpgpu_thread_group != w->threads)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: %u threads per group, the interface "
				       "descriptor's Number of Threads in GPGPU Thread Group is %u",
				       w->threads, w->id.number_of_threads_in_gpgpu_thread_group);
	if (w->id.constant_urb_entry_read_offset)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: Constant URB Entry Read Offset %u is "
				       "not implemented", w->id.constant_urb_entry_read_offset);
	if (w->id.global_barrier_enable)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: Global Barrier Enable is not implemented");
	int64_t slm = slm_bytes(gs->gen, w->id.shared_local_memory_size);
	if (slm < 0)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: reserved Shared Local Memory Size %u",
				       w->id.shared_local_memory_size);
	w->slm_size = (uint32_t)slm;
	if (1 + w->cross_regs + w->per_regs > EU_GRF_COUNT)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: R0 and %u CURBE registers pass g127",
				       w->cross_regs + w->per_regs);
	/* the constant data holds the cross-thread data, then each thread's */
	uint64_t need = (w->cross_regs + (uint64_t)w->threads * w->per_regs) * 32;
	if (!v->indirect_data_length) {
		if (need > gs->curbe_len || need > gs->curbe_alloc * 32ull)
			return gpgpu_set_fault(gs, "GPGPU_WALKER: the threads read %llu bytes of "
					       "CURBE data, %u were loaded in an allocation of %u",
					       (unsigned long long)need, gs->curbe_len,
					       gs->curbe_alloc * 32);
		w->data = gs->curbe;
		return 0;
	}
	/* Indirect Data Length bytes at Indirect Object Base Address +
	 * Indirect Data Start Address (PRM vol. 2a GPGPU_WALKER; 64-byte
	 * aligned by its encoding): the constant data of this walker's
	 * threads in place of the CURBE, laid out the same way (Intel's
	 * compute runtime sets no CURBE and passes its cross-thread data and
	 * local IDs so) */
	uint32_t n = v->indirect_data_length;
	if (need > n)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: the threads read %llu bytes of constant "
				       "data, the Indirect Data Length is %u", (unsigned long long)need,
				       n);
	uint64_t addr = gs->sba.indirect + v->indirect_data_start_address;
	if (!(w->indirect = malloc(n)))
		return gpgpu_set_fault(gs, "GPGPU_WALKER: out of memory");
	if (vm_read(&env->vm, addr, w->indirect, n))
		return gpgpu_set_fault(gs, "GPGPU_WALKER: page fault reading %u bytes of indirect "
				       "data at 0x%llx", n, (unsigned long long)addr);
	w->data = w->indirect;
	TRACE(TRACE_GPGPU, "GPGPU_WALKER: %u bytes of indirect data from 0x%llx", n,
	      (unsigned long long)addr);
	return 0;
}

static void count_invocations(const struct gpgpu_env *env, uint64_t n)
{
	if (env->regs && n)
		regs_set64(env->regs, REG_CS_INVOCATION_COUNT,
			   regs_get64(env->regs, REG_CS_INVOCATION_COUNT) + n);
}

int gpgpu_walk_run(struct gpgpu_state *gs, const struct gpgpu_env *env, struct gpgpu_walk *w,
		   const uint32_t start[3], const uint32_t end[3])
{
	struct eu_thread **threads = calloc(w->threads, sizeof(*threads));
	struct gpgpu_units u = { 0 };
	uint8_t *slm = w->slm_size ? malloc(w->slm_size) : NULL;
	int r = 0;
	if (!threads || (w->slm_size && !slm))
		r = gpgpu_set_fault(gs, "%s: out of memory", w->cmd);
	for (unsigned i = 0; !r && i < w->threads; i++)
		if (!(threads[i] = aligned_alloc(64, sizeof(struct eu_thread))))
			r = gpgpu_set_fault(gs, "%s: out of memory", w->cmd);
	if (!r) {
		sampler_unit_init(&u.sampler, gs->gen, &env->vm, gs->sba.surface, gs->sba.dynamic,
				  w->id.binding_table_pointer, w->id.sampler_state_pointer, false);
		dp_unit_init(&u.dp, gs->gen, &env->vm, gs->sba.general, gs->sba.surface,
			     gs->sba.dynamic, w->id.binding_table_pointer);
		u.dp.scratch_base = gs->scratch_base;
		u.dp.scratch_per_thread = gs->scratch_per_thread;
		u.dp.slm = slm;
		u.dp.slm_size = w->slm_size;
	}
	for (uint32_t z = start[2]; !r && z < end[2]; z++)
		for (uint32_t y = start[1]; !r && y < end[1]; y++)
			for (uint32_t x = start[0]; !r && x < end[0]; x++) {
				const uint32_t group[3] = { x, y, z };
				/* SLM starts each group zeroed (its contents are
				 * undefined on the hardware: gtsim is deterministic) */
				if (slm)
					memset(slm, 0, w->slm_size);
				r = gpgpu_run_group(gs, env, w, group, &u, threads);
			}
	for (unsigned i = 0; threads && i < w->threads; i++)
		free(threads[i]);
	free(threads);
	free(slm);
	return r;
}

/* The groups of a walker whose setup passed. */
static int walk_groups(struct gpgpu_state *gs, const struct gpgpu_env *env,
		       const struct cmd_GPGPU_WALKER *v, struct gpgpu_walk *w)
{
	uint32_t start[3] = { v->thread_group_id_starting_x, v->thread_group_id_starting_y,
			      v->thread_group_id_starting_resume_z };
	uint32_t end[3] = { v->thread_group_id_x_dimension, v->thread_group_id_y_dimension,
			    v->thread_group_id_z_dimension };
	if (v->indirect_parameter_enable) {
		if (!env->regs)
			return gpgpu_set_fault(gs, "GPGPU_WALKER: indirect parameters without registers");
		end[0] = regs_get(env->regs, REG_GPGPU_DISPATCHDIMX);
		end[1] = regs_get(env->regs, REG_GPGPU_DISPATCHDIMY);
		end[2] = regs_get(env->regs, REG_GPGPU_DISPATCHDIMZ);
	}
	uint64_t groups = 1;
	for (int i = 0; i < 3; i++)
		groups *= end[i] > start[i] ? end[i] - start[i] : 0;
	uint64_t kaddr = gs->sba.instruction + w->id.kernel_start_pointer;
	TRACE(TRACE_GPGPU, "walker %llu: ID %u kernel 0x%llx SIMD%u, groups (%u,%u,%u)..(%u,%u,%u)"
	      "%s = %llu, %u threads each (%ux%ux%u), right mask 0x%x, bottom mask 0x%x, "
	      "CURBE %u cross-thread + %u per-thread registers, SLM %u bytes, barrier %s",
	      (unsigned long long)gs->walkers, v->interface_descriptor_offset,
	      (unsigned long long)kaddr, w->simd, start[0], start[1], start[2], end[0], end[1],
	      end[2], v->indirect_parameter_enable ? " (from GPGPU_DISPATCHDIM)" : "",
	      (unsigned long long)groups, w->threads, w->width, w->height,
	      w->threads / (w->width * w->height), w->right_mask, w->bottom_mask, w->cross_regs,
	      w->per_regs, w->slm_size, w->id.barrier_enable ? "on" : "off");
	gs->walkers++;
	if (!groups)
		return 0;
	char why[160];
	w->prog = eu_kernel_load(gs->gen, &env->vm, kaddr, "CS", why, sizeof(why));
	if (!w->prog)
		return gpgpu_set_fault(gs, "GPGPU_WALKER: %s", why);
	int r = gpgpu_walk_run(gs, env, w, start, end);
	exec_prog_free(w->prog);
	/* CS_INVOCATION_COUNT (PRM vol. 2c): the compute shader invocations,
	 * here the enabled channels of every dispatched thread */
	count_invocations(env, w->invocations);
	return r;
}

int gpgpu_walker(struct gpgpu_state *gs, const struct gpgpu_env *env,
		 const uint32_t *dw, uint32_t len)
{
	struct cmd_GPGPU_WALKER v;
	cmd_GPGPU_WALKER_unpack(gs->gen, dw, len, &v);
	if (v.predicate_enable && !env->predicate) {
		TRACE(TRACE_GPGPU, "walker %llu: predicated off", (unsigned long long)gs->walkers++);
		return 0;
	}
	struct gpgpu_walk w = { .cmd = "GPGPU_WALKER" };
	int r = setup(gs, env, &v, &w);
	if (!r)
		r = walk_groups(gs, env, &v, &w);
	free(w.indirect);
	return r;
}
