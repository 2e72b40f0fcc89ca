/* Look-ups of commands, structures and fields by their PRM names: for the
 * decoder, traces and tests only. Execution code (command streamer,
 * render, sampler, drv, kernel) never looks a field up by name: it uses the
 * typed structs and pack/unpack functions of cmd_structs.h, where a
 * misspelt field is a compile error. */
#ifndef GTSIM_CMD_CMD_NAMES_H
#define GTSIM_CMD_CMD_NAMES_H

#include "gpu/cmd/cmd.h"

/* A command (e.g. "3DSTATE_VS") or a state structure (e.g.
 * "VERTEX_BUFFER_STATE") of generation gen, NULL when unknown. */
const struct cmd_desc *cmd_find_name(int gen, const char *name);
const struct cmd_desc *cmd_struct_find(int gen, const char *name);

/* The named field, preferring one outside groups; NULL when d has none. */
const struct cmd_field *cmd_field_find(const struct cmd_desc *d, const char *name);
/* Field by name (0 when d has none), for a command whose dwords hold at
 * least its fixed part. */
uint64_t cmd_field_get(const struct cmd_desc *d, const uint32_t *dw, const char *name);
/* Store value into the named field: -1 when there is no such field, the
 * value does not fit or the field is past len. */
int cmd_field_set(const struct cmd_desc *d, uint32_t *dw, uint32_t len,
		  const char *name, uint64_t value);

#endif
