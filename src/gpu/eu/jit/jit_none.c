/* Without LLVM: no code generator, programs stay in the interpreter. */
#include "gpu/eu/jit/jit.h"

bool exec_jit_available(void)
{
	return false;
}

exec_jit_fn exec_jit_compile(const struct exec_prog *p, bool corrupt, size_t *inlined,
			     bool *no_generator)
{
	(void)p;
	(void)corrupt;
	*inlined = 0;
	*no_generator = true;
	return NULL;
}
