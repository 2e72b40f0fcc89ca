#include "engine_names.h"

#include <string.h>

#include <i915_drm.h>

const struct tool_engine tool_engines[TOOL_NUM_ENGINES] = {
	{ "rcs", I915_EXEC_RENDER }, { "bcs", I915_EXEC_BLT },
	{ "vcs", I915_EXEC_BSD }, { "vecs", I915_EXEC_VEBOX },
};

const struct tool_engine *tool_engine_by_name(const char *name)
{
	for (int i = 0; i < TOOL_NUM_ENGINES; i++)
		if (!strcmp(name, tool_engines[i].name))
			return &tool_engines[i];
	return NULL;
}
