/* Functions compiled for several x86-64 levels, the best picked at load
 * time (GCC's target_clones). Only with GCC: clang's left the symbol
 * undefined in the fuzz build (clang 14). Not under ThreadSanitizer: the
 * clones' ifunc resolvers run before its runtime is set up and crash the
 * program at load. */
#ifndef GTSIM_COMMON_CLONES_H
#define GTSIM_COMMON_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
#define GT_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#define GT_CLONES(...)
#endif

#endif
