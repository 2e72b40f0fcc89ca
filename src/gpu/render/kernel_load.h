/* Loading a shader kernel for a fixed-function stage (VS, PS): the Kernel
 * Start Pointer is an offset from Instruction Base Address and no state
 * gives the kernel's length, so gtsim reads what is mapped there (page by
 * page, at most RENDER_KERNEL_MAX bytes), decodes it and ends the kernel at
 * the first end-of-thread send that no forward branch jumps past. */
#ifndef GTSIM_RENDER_KERNEL_LOAD_H
#define GTSIM_RENDER_KERNEL_LOAD_H

#include <stdint.h>

#include "gpu/eu/exec.h"
#include "gpu/mem/mem.h"

#define RENDER_KERNEL_MAX (64 * 1024)

/* The kernel at graphics address addr, translated for the executor; NULL
 * with the reason in why[] (no mapped bytes; an instruction that does not
 * decode before any end of thread: the illegal instruction exception; no
 * end of thread; out of memory). stage names the kernel in the message
 * ("VS", "PS"). */
struct exec_prog *render_kernel_load(int gen, const struct gt_vm *vm, uint64_t addr,
				     const char *stage, char *why, size_t why_size);

#endif
