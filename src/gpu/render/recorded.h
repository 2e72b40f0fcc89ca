/* The commands the engine recorded (gpu/cs/state.h) as the render units
 * read them: found by command id and unpacked into their typed structs
 * (gpu/cmd/cmd_structs.h), so a misspelt command or field does not
 * compile. A command never recorded, or recorded shorter than its fixed
 * part, reads as zeros. */
#ifndef GTSIM_RENDER_RECORDED_H
#define GTSIM_RENDER_RECORDED_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/state.h"

/* The table entry of command id on generation gen; NULL when gen has
 * none. */
const struct cmd_desc *render_cmd_desc(int gen, enum cmd_id id);

/* The last recorded dwords of command id, *len their number; dwords that
 * read as zeros and *len 0 when there are none (see above). */
const uint32_t *render_recorded(const struct cs_state *st, int gen, enum cmd_id id,
				uint32_t *len);

/* RENDER_RECORDED(NAME) defines
 *     bool recorded_NAME(int gen, const struct cs_state *st, struct cmd_NAME *v)
 * which unpacks the last recorded NAME into v and says whether there was
 * one. */
#define RENDER_RECORDED(NAME)                                                      \
	static inline bool recorded_##NAME(int gen, const struct cs_state *st,     \
					   struct cmd_##NAME *v)                   \
	{                                                                          \
		uint32_t len;                                                      \
		const uint32_t *dw = render_recorded(st, gen, CMD_ID_##NAME, &len); \
		cmd_##NAME##_unpack(gen, dw, len, v);                              \
		return len != 0;                                                   \
	}

#endif
