/* The pixel shader kernel of a draw (3DSTATE_PS Kernel Start Pointer, an
 * offset from Instruction Base Address), loaded by kernel_load.c. */
#include "common/trace.h"
#include "gpu/eu/kernel_load.h"
#include "gpu/render/wm_draw.h"

int ps_kernel_load(struct wm_draw *d, uint64_t ksp)
{
	struct render_state *rs = d->rs;
	uint64_t addr = rs->sba.instruction + ksp;
	if (d->kernel.prog && d->kernel.addr == addr)
		return 0;
	ps_kernel_release(d);
	char why[160];
	d->kernel.prog = eu_kernel_load(rs->info->gen, &d->env->vm, addr, "PS", why,
					 sizeof(why));
	if (!d->kernel.prog)
		return wm_fault(d, "%s", why);
	d->kernel.addr = addr;
	TRACE(TRACE_PS, "kernel at 0x%llx: %zu instructions, SIMD%u",
	      (unsigned long long)addr, exec_prog_count(d->kernel.prog), d->simd);
	return 0;
}

void ps_kernel_release(struct wm_draw *d)
{
	exec_prog_free(d->kernel.prog);
	d->kernel.prog = NULL;
}
