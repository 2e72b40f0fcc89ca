/* The batch decoder: commands printed the way Mesa's INTEL_DEBUG=bat
 * prints them (intel_batch_decoder): a header line with the address, the
 * first dword and the command name, then each dword
 * ("0x...:  0x... : Dword n") followed by its fields ("    Name: value").
 * Used by trace category `batch` and by `gtsim decode`. */
#ifndef GTSIM_CMD_DECODE_H
#define GTSIM_CMD_DECODE_H

#include <stdint.h>
#include <stdio.h>

#include "gpu/cmd/cmd.h"

/* One command of len dwords at address addr. */
void cmd_decode_print(FILE *f, const struct cmd_desc *d, uint64_t addr,
		      const uint32_t *dw, uint32_t len);
/* The value of field f as the decoder prints it, into buf. */
const char *cmd_format_value(const struct cmd_field *f, uint64_t v,
			     char *buf, size_t size);

/* Decode n dwords of a batch dump at address addr, for engine. Stops after
 * MI_BATCH_BUFFER_END or at an unknown command or a command running past
 * the end. Returns the number of commands decoded, or -1 when it stopped on
 * an unknown or truncated command. */
int cmd_decode_buffer(FILE *f, int gen, enum gt_engine_id engine, uint64_t addr,
		      const uint32_t *dw, uint32_t n);

#endif
