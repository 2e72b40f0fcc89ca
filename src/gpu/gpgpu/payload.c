/* A compute thread's payload as the hardware dispatches it (PRM vol. 7
 * "GPGPU thread payload"; Mesa's brw compiler reads it the same way):
 *   R0      header: R0.1 thread group ID X, R0.6 ID Y, R0.7 ID Z; R0.2
 *           bits 27:24 the group's barrier ID; R0.3 sampler state
 *           pointer | per-thread scratch space; R0.4 binding table pointer;
 *           R0.5 the thread's scratch space pointer (31:10, from General
 *           State Base) | FFTID (9:0)
 *   R1...   the constant data (the CURBE, or the walker's indirect data
 *           when it has an Indirect Data Length): Cross-Thread Constant
 *           Data Read Length registers from its start, then Constant URB Entry Read Length registers
 *           of this thread's own part, which follows the cross-thread part
 *           and the parts of the threads before it in the group. iris and
 *           anv put each thread's subgroup number there on Gen8/9 (the
 *           compiler derives the local invocation IDs from it and the
 *           channel), so this is how local IDs reach a thread.
 * The execution mask: all SIMD channels, ANDed with Right Execution Mask
 * for the last thread of a row (Thread Width Counter at its maximum) and
 * with Bottom Execution Mask for the threads of the last row. */
#include <string.h>

#include "common/trace.h"
#include "gpu/gpgpu/gpgpu_internal.h"

uint32_t gpgpu_thread_mask(const struct gpgpu_walk *w, unsigned index)
{
	uint32_t mask = w->simd == 32 ? ~0u : (1u << w->simd) - 1;
	if (index % w->width == w->width - 1)
		mask &= w->right_mask;
	if ((index / w->width) % w->height == w->height - 1)
		mask &= w->bottom_mask;
	return mask;
}

void gpgpu_payload_r0_state(const struct gpgpu_state *gs, const struct gpgpu_walk *w,
			    struct eu_thread *t, unsigned index)
{
	/* the thread's scratch slot: its place in the group (one group runs
	 * at a time) */
	uint64_t scratch = gs->scratch_base + (uint64_t)index * gs->scratch_per_thread;
	eu_grf_set_ud(t, 0, 3, (w->id.sampler_state_pointer & ~31u) | (gs->scratch_space & 15));
	eu_grf_set_ud(t, 0, 4, w->id.binding_table_pointer & ~31u);
	eu_grf_set_ud(t, 0, 5, ((uint32_t)scratch & ~1023u) | (index & 1023));
}

void gpgpu_payload(const struct gpgpu_state *gs, const struct gpgpu_walk *w, struct eu_thread *t,
		   const uint32_t group[3], unsigned index, uint32_t barrier_id)
{
	eu_grf_set_ud(t, 0, 1, group[0]);
	eu_grf_set_ud(t, 0, 2, barrier_id);
	gpgpu_payload_r0_state(gs, w, t, index);
	eu_grf_set_ud(t, 0, 6, group[1]);
	eu_grf_set_ud(t, 0, 7, group[2]);
	size_t cross = w->cross_regs * 32u, per = w->per_regs * 32u;
	/* walker setup checked that both fit the CURBE and the GRF file */
	/* the GRF order: the CURBE gives the cross-thread part first (Mesa's
	 * layout); indirect data gives the thread's own part first, then the
	 * cross-thread part (what Intel's compute runtime and its compiler
	 * lay out on Gen9: local IDs in R1..) */
	unsigned cross_reg = w->indirect ? 1 + w->per_regs : 1;
	unsigned per_reg = w->indirect ? 1 : 1 + w->cross_regs;
	if (cross)
		memcpy(eu_grf(t, cross_reg), w->data, cross);
	if (per)
		memcpy(eu_grf(t, per_reg), w->data + cross + index * per, per);
	TRACE(TRACE_GPGPU, "  thread %u of group (%u,%u,%u): SIMD%u mask 0x%08x, R0.2 0x%08x "
	      "R0.5 0x%08x, CURBE g1..g%u (cross-thread %u, own %u from byte %zu)", index,
	      group[0], group[1], group[2], w->simd, t->dispatch_mask, barrier_id,
	      eu_grf_ud(t, 0, 5), w->cross_regs + w->per_regs, w->cross_regs, w->per_regs,
	      cross + index * per);
}
