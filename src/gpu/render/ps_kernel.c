/* Loading a pixel shader kernel (PRM vol. 2 "3DSTATE_PS": Kernel Start
 * Pointer, an offset from Instruction Base Address). The kernel's length
 * is in no state: read what is mapped (up to PS_KERNEL_MAX bytes), decode,
 * and end at the first end-of-thread send that no forward branch passes. */
#include <stdlib.h>

#include "common/trace.h"
#include "gpu/eu/isa.h"
#include "gpu/render/wm_draw.h"

#define PS_KERNEL_MAX (64 * 1024)

static size_t read_mapped(const struct gt_vm *vm, uint64_t addr, uint8_t *buf, size_t max)
{
	size_t have = 0;
	while (have < max) {
		size_t chunk = 4096 - ((addr + have) & 4095);
		if (chunk > max - have)
			chunk = max - have;
		if (vm_read(vm, addr + have, buf + have, chunk))
			break;
		have += chunk;
	}
	return have;
}

/* Instructions up to and including the kernel's last EOT. */
static size_t kernel_length(const struct eu_program *p)
{
	int64_t reach = 0;
	for (size_t i = 0; i < p->count; i++) {
		const struct eu_inst *in = &p->insts[i];
		int64_t at = p->offsets[i];
		if (in->jip > 0 && at + in->jip > reach)
			reach = at + in->jip;
		if (in->uip > 0 && at + in->uip > reach)
			reach = at + in->uip;
		if (in->eot && at >= reach)
			return i + 1;
	}
	return 0;
}

int ps_kernel_load(struct wm_draw *d, uint64_t ksp)
{
	struct render_state *rs = d->rs;
	uint64_t addr = rs->instruction_base + ksp;
	if (d->kernel.prog && d->kernel.addr == addr)
		return 0;
	ps_kernel_release(d);
	uint8_t *bytes = malloc(PS_KERNEL_MAX);
	if (!bytes)
		return wm_fault(d, "PS: out of memory");
	size_t len = read_mapped(&d->env->vm, addr, bytes, PS_KERNEL_MAX);
	struct eu_program prog = { 0 };
	size_t bad = 0;
	eu_program_decode(rs->info->gen, bytes, len, &prog, &bad);
	free(bytes);
	size_t n = kernel_length(&prog);
	if (!n) {
		eu_program_free(&prog);
		return wm_fault(d, "PS kernel at 0x%llx: no end of thread in %zu readable bytes",
				(unsigned long long)addr, len);
	}
	d->kernel.prog = exec_prog_build(rs->info->gen, prog.insts, prog.offsets, n);
	d->kernel.addr = addr;
	eu_program_free(&prog);
	if (!d->kernel.prog)
		return wm_fault(d, "PS: out of memory");
	TRACE(TRACE_PS, "kernel at 0x%llx: %zu instructions, SIMD%u",
	      (unsigned long long)addr, n, d->simd);
	return 0;
}

void ps_kernel_release(struct wm_draw *d)
{
	exec_prog_free(d->kernel.prog);
	d->kernel.prog = NULL;
}
