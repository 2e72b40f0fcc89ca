/* PNG files of images and render targets (libpng when the build has it:
 * GTSIM_HAVE_PNG). */
#ifndef GTSIM_RENDER_PNG_DUMP_H
#define GTSIM_RENDER_PNG_DUMP_H

#include <stdint.h>

#include "gpu/mem/mem.h"

/* Write w x h RGBA8 pixels (rows top to bottom). 0, or -1 with a message
 * on stderr (also when the build has no libpng). */
int png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h);

/* Convert a surface (SURFACE_FORMAT fmt, tiling as RENDER_SURFACE_STATE's
 * Tile Mode) of host bytes to RGBA8 through the format module. -1 for a
 * format it cannot read. */
int png_surface_to_rgba8(const uint8_t *src, uint32_t fmt, uint32_t tiling, uint32_t pitch,
			 uint32_t w, uint32_t h, uint8_t *rgba);

/* GTSIM_DUMP_RT=FILE.png: render target 0 of a draw, read through vm. */
void png_dump_rt_from_env(const struct gt_vm *vm, uint64_t base, uint32_t fmt, uint32_t tiling,
			  uint32_t pitch, uint32_t w, uint32_t h);

#endif
