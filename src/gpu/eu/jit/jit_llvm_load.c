/* Finds LLVM's C API at run time (jit_llvm_api.h): dlopen of the library
 * on the first compile, then dlsym of each function of the table. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/jit/jit_llvm_api.h"

struct llvm_api llvm;

#define STR(x) #x
#define NAME_OF(x) STR(x)

static const struct {
	const char *name;
	size_t off;
} symbols[] = {
#define LLVM_API_SYMBOL(name) { "LLVM" #name, offsetof(struct llvm_api, name) },
	LLVM_API_FUNCTIONS(LLVM_API_SYMBOL)
#undef LLVM_API_SYMBOL
#define LLVM_API_NATIVE_SYMBOL(field, sym) { NAME_OF(sym), offsetof(struct llvm_api, field) },
	LLVM_API_NATIVE(LLVM_API_NATIVE_SYMBOL)
#undef LLVM_API_NATIVE_SYMBOL
};

static bool tried, loaded;

/* Called once, by jit_llvm.c's set-up (under pthread_once). */
bool llvm_api_load(void)
{
	if (tried)
		return loaded;
	tried = true;
	const char *lib = getenv("GTSIM_JIT_LIBLLVM");
	if (!lib || !*lib)
		lib = LLVM_API_LIBRARY;
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		TRACE(TRACE_JIT, "cannot load %s (%s): EU programs stay in the interpreter",
		      lib, why ? why : "?");
		return false;
	}
	struct llvm_api api;
	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
		void *f = dlsym(h, symbols[i].name);
		if (!f) {
			TRACE(TRACE_JIT, "%s has no %s: EU programs stay in the interpreter",
			      lib, symbols[i].name);
			dlclose(h);
			return false;
		}
		/* POSIX: a function's address from dlsym converts through void * */
		memcpy((char *)&api + symbols[i].off, &f, sizeof(f));
	}
	llvm = api;
	loaded = true;
	TRACE(TRACE_JIT, "loaded %s", lib);
	return true;
}
