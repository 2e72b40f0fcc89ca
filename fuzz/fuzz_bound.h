/* What the draw and walker targets share to keep a mutated batch's work
 * finite: the batch walked as the render CS parses it (in order, without
 * its jumps), and each MI_LOAD_REGISTER_IMM's writes of a range of
 * registers bounded. A mutated count can ask for a legitimate draw of
 * millions of vertices or a walker of billions of thread groups: its EU
 * threads keep ending (progress for the hangcheck, as an arbitration
 * point), so it is no hang and runs for minutes under the sanitizers
 * (docs/fuzzing.md, findings 8 and 11). */
#ifndef GTSIM_FUZZ_BOUND_H
#define GTSIM_FUZZ_BOUND_H

#include <stdint.h>

#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"

/* Calls fn(gen, id, command, length) for each command of the batch the
 * render CS's tables recognise, until one it does not or the end. A last
 * command whose (mutated) length runs past the batch's dwords is passed
 * with the dwords there are: the CS runs it all the same, reading on past
 * them (a 3DPRIMITIVE of length 69 at the end once drew 2.8 million
 * vertices: 47 s under ASan). */
static inline void fuzz_walk_batch(int gen, uint32_t *dw, uint32_t used,
				   void (*fn)(int gen, int id, uint32_t *cmd, uint32_t len))
{
	for (uint32_t i = 0; i < used;) {
		const struct cmd_desc *d = cmd_find(gen, ENGINE_RCS, dw[i]);
		uint32_t len = d ? cmd_length(d, dw[i]) : 0;
		if (!len)
			return;
		if (len > used - i) {
			fn(gen, d->id, dw + i, used - i);
			return;
		}
		fn(gen, d->id, dw + i, len);
		i += len;
	}
}

/* An MI_LOAD_REGISTER_IMM's (register, value) pairs after its header (the
 * offset field is bits 22:2): values written to registers first..last
 * are at most max. */
static inline void fuzz_bound_lri(uint32_t *cmd, uint32_t len, uint32_t first, uint32_t last,
				  uint32_t max)
{
	for (uint32_t k = 1; k + 1 < len; k += 2) {
		uint32_t reg = cmd[k] & 0x7ffffcu;
		if (reg >= first && reg <= last && cmd[k + 1] > max)
			cmd[k + 1] = max;
	}
}

#endif
