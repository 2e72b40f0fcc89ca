/* The interpreter's step as the compiled code calls it (jit.h). */
#include "gpu/eu/jit/jit.h"

uint32_t exec_jit_step(struct eu_thread *t, const struct exec_prog *p,
		       uint32_t ip, uint64_t stop, uint32_t stretch)
{
	if (!stretch && t->state == EU_THREAD_READY) {
		exec_step(t, p, &ip, stop);
		if (t->state == EU_THREAD_READY)
			return ip;
	}
	t->ip = ip;
	return EXEC_JIT_EXIT;
}
