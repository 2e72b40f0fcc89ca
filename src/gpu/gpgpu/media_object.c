/* MEDIA_OBJECT (PRM vol. 2a; vol. 7 "Media VFE"): one thread of the
 * kernel of the interface descriptor at Interface Descriptor Offset (as
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD loaded it), its payload built from
 *   R0      the thread header: R0.3 sampler state pointer | per-thread
 *           scratch space, R0.4 binding table pointer, R0.5 the scratch
 *           space pointer | FFTID (as a compute thread's; the scoreboard
 *           fields are 0: the scoreboard is off, MEDIA_VFE_STATE's
 *           Scoreboard Enable faults)
 *   R1...   Constant URB Entry Read Length registers of the CURBE from
 *           Constant URB Entry Read Offset (registers)
 *   then    the indirect data: Indirect Data Length bytes at Indirect
 *           Object Base + Indirect Data Start Address, whole registers
 *   then    the command's inline dwords, from a register boundary
 * IGT's media_fill kernel reads its colour from R1 (the CURBE) and its
 * block's X and Y from R2 (the inline data). The thread runs to its end
 * inside the command, as a one-thread group of a walker does (group.c):
 * threads of successive objects never overlap, so the ordering the
 * scoreboard would enforce always holds. Media threads have no SIMD width
 * of their own: the dispatch mask enables 16 channels.
 * Not implemented, each a fault by name: the media pipeline's child
 * threads (Children Present) and Thread Synchronization, MEDIA_OBJECT with
 * the GPGPU or 3D pipeline selected, and interface descriptors asking
 * for barriers, shared local memory or cross-thread constant data. */
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/kernel_load.h"
#include "gpu/gpgpu/gpgpu_internal.h"

#define MEDIA_SIMD 16

static unsigned regs_of(uint32_t bytes)
{
	return (bytes + 31) / 32;
}

static void media_payload(const struct gpgpu_state *gs, const struct gpgpu_walk *w,
			  struct eu_thread *t, const uint32_t group[3], unsigned index,
			  uint32_t barrier_id)
{
	(void)group;
	(void)barrier_id;
	gpgpu_payload_r0_state(gs, w, t, index);
	unsigned reg = 1;
	if (w->per_regs)
		memcpy(eu_grf(t, reg), w->data, w->per_regs * 32u);
	reg += w->per_regs;
	if (w->indirect_len)
		memcpy(eu_grf(t, reg), w->indirect, w->indirect_len);
	reg += regs_of(w->indirect_len);
	if (w->inline_dw)
		memcpy(eu_grf(t, reg), w->inline_data, w->inline_dw * 4u);
	TRACE(TRACE_GPGPU, "  media thread: R0.5 0x%08x, CURBE g1..g%u, indirect %u bytes from "
	      "g%u, inline %u dwords from g%u", eu_grf_ud(t, 0, 5), w->per_regs,
	      w->indirect_len, 1 + w->per_regs, w->inline_dw, reg);
}

static int setup(struct gpgpu_state *gs, const struct gpgpu_env *env,
		 const struct cmd_MEDIA_OBJECT *v, struct gpgpu_walk *w)
{
	if (gs->pipeline != PIPE_MEDIA)
		return gpgpu_set_fault(gs, "MEDIA_OBJECT with the %s pipeline selected is not "
				       "implemented", gs->pipeline == PIPE_3D ? "3D" : "GPGPU");
	if (!gs->vfe_valid)
		return gpgpu_set_fault(gs, "MEDIA_OBJECT before any MEDIA_VFE_STATE");
	if (v->interface_descriptor_offset >= gs->idd_count)
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: interface descriptor %u of the %u loaded",
				       v->interface_descriptor_offset, gs->idd_count);
	if (v->children_present)
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: Children Present (child threads) is not "
				       "implemented");
	if (v->thread_synchronization)
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: Thread Synchronization is not "
				       "implemented");
	cmd_INTERFACE_DESCRIPTOR_DATA_unpack(gs->gen, gs->idd[v->interface_descriptor_offset],
					     8, &w->id);
	if (w->id.barrier_enable || w->id.shared_local_memory_size ||
	    w->id.cross_thread_constant_data_read_length || w->id.global_barrier_enable)
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: an interface descriptor with %s is not "
				       "implemented", w->id.barrier_enable ? "Barrier Enable" :
				       w->id.shared_local_memory_size ? "Shared Local Memory" :
				       w->id.global_barrier_enable ? "Global Barrier Enable" :
				       "Cross-Thread Constant Data");
	w->simd = MEDIA_SIMD;
	w->threads = w->width = w->height = 1;
	w->right_mask = w->bottom_mask = ~0u;
	w->per_regs = w->id.constant_urb_entry_read_length;
	uint64_t from = w->id.constant_urb_entry_read_offset * 32ull;
	uint64_t need = from + w->per_regs * 32ull;
	if (w->per_regs && (need > gs->curbe_len || need > gs->curbe_alloc * 32ull))
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: the thread reads CURBE bytes %llu..%llu, "
				       "%u were loaded in an allocation of %u",
				       (unsigned long long)from, (unsigned long long)need,
				       gs->curbe_len, gs->curbe_alloc * 32);
	w->data = w->per_regs ? gs->curbe + from : NULL;
	w->indirect_len = v->indirect_data_length;
	if (1 + w->per_regs + regs_of(w->indirect_len) + regs_of(w->inline_dw * 4u) > EU_GRF_COUNT)
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: R0, %u CURBE registers, %u bytes of "
				       "indirect and %u dwords of inline data pass g127",
				       w->per_regs, w->indirect_len, w->inline_dw);
	if (!w->indirect_len)
		return 0;
	uint64_t addr = gs->sba.indirect + v->indirect_data_start_address;
	if (!(w->indirect = malloc(w->indirect_len)))
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: out of memory");
	if (vm_read(&env->vm, addr, w->indirect, w->indirect_len))
		return gpgpu_set_fault(gs, "MEDIA_OBJECT: page fault reading %u bytes of indirect "
				       "data at 0x%llx", w->indirect_len, (unsigned long long)addr);
	return 0;
}

int gpgpu_media_object(struct gpgpu_state *gs, const struct gpgpu_env *env,
		       const uint32_t *dw, uint32_t len)
{
	struct cmd_MEDIA_OBJECT v;
	cmd_MEDIA_OBJECT_unpack(gs->gen, dw, len, &v);
	struct gpgpu_walk w = { .cmd = "MEDIA_OBJECT", .payload = media_payload };
	w.inline_dw = cmd_MEDIA_OBJECT_inline_data_count(gs->gen, len);
	w.inline_data = w.inline_dw ? dw + (len - w.inline_dw) : NULL;
	int r = setup(gs, env, &v, &w);
	if (!r) {
		uint64_t kaddr = gs->sba.instruction + w.id.kernel_start_pointer;
		/* Use Scoreboard only counts with MEDIA_VFE_STATE's Scoreboard
		 * Enable (PRM), which faults: traced, no effect */
		TRACE(TRACE_GPGPU, "MEDIA_OBJECT %llu: ID %u kernel 0x%llx, CURBE %u registers from "
		      "%u, indirect %u bytes, inline %u dwords%s", (unsigned long long)gs->walkers,
		      v.interface_descriptor_offset, (unsigned long long)kaddr, w.per_regs,
		      w.id.constant_urb_entry_read_offset, w.indirect_len, w.inline_dw,
		      v.use_scoreboard ? ", Use Scoreboard (the scoreboard is off)" : "");
		gs->walkers++;
		char why[160];
		w.prog = eu_kernel_load(gs->gen, &env->vm, kaddr, "media", why, sizeof(why));
		if (!w.prog) {
			r = gpgpu_set_fault(gs, "MEDIA_OBJECT: %s", why);
		} else {
			static const uint32_t start[3] = { 0, 0, 0 }, end[3] = { 1, 1, 1 };
			r = gpgpu_walk_run(gs, env, &w, start, end);
			exec_prog_free(w.prog);
		}
	}
	free(w.indirect);
	return r;
}
