/* Vertex shader threads (PRM vol. 2 "VS Stage", vol. 7 "VS Thread Payload";
 * seed 001): the kernel is fetched from Instruction Base Address + Kernel
 * Start Pointer; each SIMD8 thread gets
 *   g0      header (sampler state pointer, binding table pointer, scratch),
 *   g1      the URB return handles of its up to 8 vertices,
 *   gS...   from S, the dispatch GRF start register ("URB data" covers
 *           constants and vertices): push constants (3DSTATE_CONSTANT_VS
 *           buffers 0..3, in order, Read Length registers each),
 *   gN...   then the vertex data read from the VUEs, 4 registers (x, y,
 *           z, w of the 8 vertices) per row, N = S + pushed registers. */
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/exec.h"
#include "gpu/eu/kernel_load.h"
#include "gpu/render/render_state.h"

struct vs_kernel {
	struct exec_prog *prog;
	struct eu_thread *thread;
};

void vs_kernel_free(struct vs_kernel *k)
{
	if (!k)
		return;
	exec_prog_free(k->prog);
	free(k->thread);
	free(k);
}

struct vs_kernel *vs_kernel_load(struct render_state *rs, const struct render_env *env)
{
	uint64_t addr = rs->sba.instruction + rs->vs.ksp;
	char why[160];
	struct exec_prog *prog = eu_kernel_load(rs->info->gen, &env->vm, addr, "VS", why,
						sizeof(why));
	if (!prog) {
		render_set_fault(rs, "%s", why);
		return NULL;
	}
	struct vs_kernel *k = calloc(1, sizeof(*k));
	if (k) {
		k->prog = prog;
		k->thread = aligned_alloc(64, sizeof(struct eu_thread));
	} else {
		exec_prog_free(prog);
	}
	if (!k || !k->thread) {
		vs_kernel_free(k);
		render_set_fault(rs, "VS: out of memory");
		return NULL;
	}
	/* the data ports reach the stage's binding table and scratch space
	 * (3DSTATE_VS Scratch Space Base Pointer, Per-Thread Scratch Space:
	 * 1 KB << n) */
	render_dp_unit(rs, env, &rs->vs_dp, RS_VS, rs->vs.scratch_base, rs->vs.scratch_space);
	rs->vs_units.dp = &rs->vs_dp;
	TRACE(TRACE_VS, "kernel at 0x%llx: %zu instructions", (unsigned long long)addr,
	      exec_prog_count(k->prog));
	return k;
}

static int load_push_constants(struct render_state *rs, const struct render_env *env,
			       struct eu_thread *t, unsigned *next_grf)
{
	unsigned grf = rs->vs.grf_start;
	for (int b = 0; b < 4; b++) {
		uint32_t regs = rs->vs_const_len[b];
		if (!regs)
			continue;
		if (grf + regs > EU_GRF_COUNT)
			return render_set_fault(rs, "VS: %u push constant registers do not fit",
						grf + regs - rs->vs.grf_start);
		if (vm_read(&env->vm, rs->vs_const_addr[b], eu_grf(t, grf), regs * 32u))
			return render_set_fault(rs, "VS: page fault reading constant buffer %d "
						"at 0x%llx", b, (unsigned long long)rs->vs_const_addr[b]);
		grf += regs;
	}
	*next_grf = grf;
	return 0;
}

int vs_dispatch(struct render_state *rs, const struct render_env *env,
		const struct vs_kernel *k, const uint32_t *handles, unsigned n)
{
	struct eu_thread *t = k->thread;
	const struct vs_state *vs = &rs->vs;
	uint32_t first_row = vs->read_offset * 2, nrows = vs->read_length * 2;
	unsigned push_end = vs->grf_start;   /* first register after the constants */

	uint64_t t0 = render_clock(rs);
	eu_thread_init(t, 8, (1u << n) - 1);
	/* g0.3 sampler state pointer | scratch space size, g0.4 binding
	 * table pointer, g0.5 scratch space pointer | thread id */
	eu_grf_set_ud(t, 0, 3, (rs->sampler_state[RS_VS] & ~31u) | (vs->scratch_space & 15));
	eu_grf_set_ud(t, 0, 4, rs->binding_table[RS_VS] & ~31u);
	eu_grf_set_ud(t, 0, 5, ((uint32_t)vs->scratch_base & ~1023u) |
		      (uint32_t)(rs->threads % 512));
	for (unsigned i = 0; i < 8; i++)
		eu_grf_set_ud(t, 1, i, i < n ? handles[i] : 0);
	if (load_push_constants(rs, env, t, &push_end))
		return -1;
	if (push_end + nrows * 4 > EU_GRF_COUNT)
		return render_set_fault(rs, "VS: %u URB rows from g%u pass g127", nrows,
					push_end);
	for (unsigned i = 0; i < n; i++) {
		const char *why = "";
		const uint8_t *vue = urb_entry_bytes(&rs->urb_space, handles[i], first_row * 16,
						     nrows * 16, &why);
		if (nrows && !vue)
			return render_set_fault(rs, "VS: reading rows %u..%u of VUE 0x%x: %s",
						first_row, first_row + nrows - 1, handles[i], why);
		for (uint32_t r = 0; r < nrows; r++)
			for (unsigned c = 0; c < 4; c++) {
				uint32_t v;
				memcpy(&v, vue + (r * 4 + c) * 4, 4);
				eu_grf_set_ud(t, push_end + r * 4 + c, i, v);
			}
	}
	t->sfids = &render_sfids[RS_VS];
	t->sfid_units = &rs->vs_units;
	t->user = rs;
	TRACE(TRACE_VS, "thread %llu: SIMD8, %u vertices, handles 0x%x..0x%x, %u push "
	      "constant registers at g%u, URB rows %u..%u at g%u", (unsigned long long)rs->threads,
	      n, handles[0], handles[n - 1], push_end - vs->grf_start, vs->grf_start, first_row,
	      first_row + nrows - 1, push_end);
	rs->threads++;
	uint64_t t1 = render_clock(rs);
	enum eu_thread_state st = exec_run(t, k->prog, 0);
	rs->prof.dispatch_ns += t1 - t0;
	rs->prof.eu_ns += render_clock(rs) - t1;
	if (st == EU_THREAD_FAULT)
		return render_set_fault(rs, "VS thread: %s", t->fault);
	if (st != EU_THREAD_DONE)
		return render_set_fault(rs, "VS thread did not end (%llu instructions)",
					(unsigned long long)t->instructions);
	return 0;
}
