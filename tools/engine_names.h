/* The engines as the CLI names them (rcs, bcs, vcs, vecs) and the execbuf
 * ring flag (I915_EXEC_*) that selects each. */
#ifndef GTSIM_TOOLS_ENGINE_NAMES_H
#define GTSIM_TOOLS_ENGINE_NAMES_H

#include <stdint.h>

struct tool_engine {
	const char *name;
	uint64_t flag;
};

#define TOOL_NUM_ENGINES 4
extern const struct tool_engine tool_engines[TOOL_NUM_ENGINES];

/* The engine called name, NULL when there is none. */
const struct tool_engine *tool_engine_by_name(const char *name);

#endif
