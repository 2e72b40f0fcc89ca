/* One loader for the stages' kernels (kernel_load.h). */
#include "gpu/eu/kernel_load.h"

#include <stdio.h>
#include <stdlib.h>

#include "gpu/eu/isa.h"

/* Bytes readable from addr, stopping at the first unmapped page. */
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

/* Instructions up to and including the first EOT no branch passes. */
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

struct exec_prog *eu_kernel_load(int gen, const struct gt_vm *vm, uint64_t addr,
				 const char *stage, char *why, size_t why_size)
{
	struct eu_program prog = { 0 };
	size_t len = 0, bad = 0, n = 0;
	bool stopped = false;
	int opcode = -1;
	for (size_t max = EU_KERNEL_READ;; max *= 4) {
		uint8_t *bytes = malloc(max);
		if (!bytes) {
			snprintf(why, why_size, "%s: out of memory", stage);
			return NULL;
		}
		eu_program_free(&prog);
		len = read_mapped(vm, addr, bytes, max);
		/* an undecodable instruction ends the decode; those before it stay */
		stopped = eu_program_decode(gen, bytes, len, &prog, &bad) != 0;
		/* the instruction it stopped at, when all of it was readable
		 * (DWord 0 bits 6:0 the opcode, bit 29 Compaction Control: 8
		 * bytes, else 16) */
		opcode = stopped && bad + 4 <= len && bad + (bytes[bad + 3] & 0x20 ? 8 : 16) <= len
			 ? bytes[bad] & 0x7f : -1;
		free(bytes);
		n = kernel_length(&prog);
		/* read further only past a full read that decoded entirely, or
		 * up to an instruction the read cut (its opcode unknown) */
		if (n || (stopped && opcode >= 0) || len < max || max >= EU_KERNEL_MAX)
			break;
	}
	struct exec_prog *p = NULL;
	if (!len)
		snprintf(why, why_size, "%s kernel: page fault at 0x%llx", stage,
			 (unsigned long long)addr);
	else if (!n && opcode >= 0)
		/* the thread runs into it before any end of thread: the EU's
		 * illegal instruction exception (PRM vol. 7), raised here at
		 * load rather than when the thread reaches it */
		snprintf(why, why_size, "%s kernel at 0x%llx: illegal instruction exception at "
			 "offset 0x%zx: %s opcode 0x%02x", stage, (unsigned long long)addr, bad,
			 eu_opcode_lookup(gen, (unsigned)opcode) ? "illegal encoding of" :
			 "undefined", opcode);
	else if (!n)
		snprintf(why, why_size, "%s kernel at 0x%llx: no end of thread in %zu readable "
			 "bytes (%zu decodable)", stage, (unsigned long long)addr,
			 len, prog.size);
	else if (!(p = exec_prog_build(gen, prog.insts, prog.offsets, n)))
		snprintf(why, why_size, "%s: out of memory", stage);
	eu_program_free(&prog);
	return p;
}
