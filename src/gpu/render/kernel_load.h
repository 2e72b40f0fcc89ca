/* The stages' kernel loader lives in eu (gpu/eu/kernel_load.h), where the
 * compute pipeline (gpu/gpgpu) shares it; this name stays for the render
 * stages' code written before the move. */
#ifndef GTSIM_RENDER_KERNEL_LOAD_H
#define GTSIM_RENDER_KERNEL_LOAD_H

#include "gpu/eu/kernel_load.h"

#define RENDER_KERNEL_MAX EU_KERNEL_MAX

static inline struct exec_prog *render_kernel_load(int gen, const struct gt_vm *vm,
						   uint64_t addr, const char *stage,
						   char *why, size_t why_size)
{
	return eu_kernel_load(gen, vm, addr, stage, why, why_size);
}

#endif
