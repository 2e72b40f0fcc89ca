/* PNG output of render targets: the surface is read pixel by pixel through
 * the layout (surface_view_offset) and the format module (format_unpack),
 * so every render target format and tiling dumps the same way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GTSIM_HAVE_PNG
#include <png.h>
#endif

#include "gpu/format/format.h"
#include "gpu/surface/surface.h"
#include "gpu/render/png_dump.h"

int png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
#ifdef GTSIM_HAVE_PNG
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return -1;
	}
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!png || !info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		fclose(f);
		fprintf(stderr, "%s: PNG write failed\n", path);
		return -1;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < h; y++)
		png_write_row(png, (png_const_bytep)(rgba + (size_t)y * w * 4));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return fclose(f) ? -1 : 0;
#else
	(void)rgba; (void)w; (void)h;
	fprintf(stderr, "%s: gtsim was built without libpng\n", path);
	return -1;
#endif
}

static uint8_t to8(float f)
{
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return (uint8_t)lrintf(f * 255.0f);
}

int png_surface_to_rgba8(const uint8_t *src, uint32_t fmt, uint32_t tiling, uint32_t pitch,
			 uint32_t w, uint32_t h, uint8_t *rgba)
{
	const struct fmt_info *fi = format_info(fmt);
	if (!fi || !fi->supported || fi->bpe % 8)
		return -1;
	struct surface_view s = { .width = w, .height = h, .pitch = pitch, .cpp = fi->bpe / 8,
				   .tiling = (uint8_t)tiling };
	bool integer = format_is_integer(fi);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint64_t off = 0;
			union fmt_value v[4];
			surface_view_offset(&s, x, y, &off);
			format_unpack(fi, src + off, v);
			uint8_t *o = rgba + ((size_t)y * w + x) * 4;
			for (int c = 0; c < 4; c++)
				o[c] = integer ? (uint8_t)(v[c].u > 255 ? 255 : v[c].u) : to8(v[c].f);
		}
	return 0;
}

void png_dump_rt_from_env(const struct gt_vm *vm, uint64_t base, uint32_t fmt, uint32_t tiling,
			  uint32_t pitch, uint32_t w, uint32_t h)
{
	const char *path = getenv("GTSIM_DUMP_RT");
	if (!path || !*path || w > 16384 || h > 16384)
		return;
	uint64_t bytes = surface_bytes(tiling, pitch, h);
	uint8_t *src = bytes < (1ull << 31) ? malloc(bytes) : NULL;
	uint8_t *rgba = malloc((size_t)w * h * 4);
	if (src && rgba && !vm_read(vm, base, src, bytes) &&
	    !png_surface_to_rgba8(src, fmt, tiling, pitch, w, h, rgba))
		png_write_rgba8(path, rgba, w, h);
	free(src);
	free(rgba);
}
