/* Loading a shader kernel for a stage (VS, PS, compute): the Kernel
 * Start Pointer is an offset from Instruction Base Address and no state
 * gives the kernel's length, so gtsim reads what is mapped there (page by
 * page), decodes it and ends the kernel at the first end-of-thread send
 * that no forward branch jumps past. It reads EU_KERNEL_READ bytes first
 * and, when all of them were mapped and decoded without such an end,
 * four times as many, up to EU_KERNEL_MAX (the hardware has no limit: its
 * instruction cache fetches as the thread runs; iris's GS of 32 vec4
 * inputs x 6 vertices, piglit max-input-components, passes 64 KB). */
#ifndef GTSIM_EU_KERNEL_LOAD_H
#define GTSIM_EU_KERNEL_LOAD_H

#include <stdint.h>

#include "gpu/eu/exec.h"
#include "gpu/mem/mem.h"

#define EU_KERNEL_READ (64 * 1024)
#define EU_KERNEL_MAX (4 * 1024 * 1024)

/* The kernel at graphics address addr, translated for the executor; NULL
 * with the reason in why[] (no mapped bytes; an instruction that does not
 * decode before any end of thread: the illegal instruction exception; no
 * end of thread; out of memory). stage names the kernel in the message
 * ("VS", "PS", "CS"). */
struct exec_prog *eu_kernel_load(int gen, const struct gt_vm *vm, uint64_t addr,
				 const char *stage, char *why, size_t why_size);

#endif
