/* The ASTC decoder against the ARM reference decoder's output that piglit
 * installs (tests/spec/khr_texture_compression_astc: each 2D LDR footprint
 * of one image, linear "ldrl" and sRGB "ldrs", compressed and decompressed
 * KTX files of 8 mip levels each). Linear texels must match the reference
 * bytes after FLT16 -> x 255 rounding exactly, sRGB ones within 1 (the
 * reference's sRGB bytes against our decoded floats re-encoded). Skipped
 * (77) when piglit's data is not installed; PIGLIT_ASTC_DIR overrides the
 * directory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/format/format.h"
#include "test.h"

static uint8_t *slurp(const char *path, long *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*n = ftell(f);
	rewind(f);
	uint8_t *b = malloc((size_t)*n);
	if (b && fread(b, 1, (size_t)*n, f) != (size_t)*n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

static uint32_t u32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* KTX 1: 12-byte identifier, 13 words (width at word 6, height 7, levels
 * 11, key/value bytes 12), then per level its size and data (4-aligned). */
static int compare(const char *dir, unsigned bw, unsigned bh, bool srgb)
{
	char pc[512], pd[512];
	const char *kind = srgb ? "ldrs" : "ldrl";
	snprintf(pc, sizeof(pc), "%s/compressed/2D/%s/waffles-%ux%u.ktx", dir, kind, bw, bh);
	snprintf(pd, sizeof(pd), "%s/decompressed/2D/%s/waffles-%ux%u.ktx", dir, kind, bw, bh);
	long nc = 0, nd = 0;
	uint8_t *c = slurp(pc, &nc), *d = slurp(pd, &nd);
	if (!c || !d || nc < 64 || nd < 64) {
		free(c);
		free(d);
		return -1;
	}
	const struct fmt_info *fi = NULL;
	for (uint32_t n = 512; n < FMT_NUM && !fi; n++) {
		const struct fmt_info *f = format_info(n);
		if (f && f->compressed && f->bw == bw && f->bh == bh && f->srgb == srgb)
			fi = f;
	}
	CHECK(fi != NULL);
	unsigned w = u32(c + 36), h = u32(c + 40), levels = u32(c + 56);
	unsigned cpp = u32(d + 24) == 0x1907 ? 3 : 4;   /* GL_RGB or GL_RGBA bytes */
	long oc = 64 + u32(c + 60), od = 64 + u32(d + 60);
	int bad = 0;
	for (unsigned l = 0; l < levels && fi; l++) {
		unsigned lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
		unsigned bx = (lw + bw - 1) / bw, by = (lh + bh - 1) / bh;
		unsigned row = (lw * cpp + 3) & ~3u;
		if (oc + 4 + 16l * bx * by > nc || od + 4 + (long)row * lh > nd) {
			bad++;
			break;
		}
		const uint8_t *cb = c + oc + 4, *db = d + od + 4;
		for (unsigned y = 0; y < lh; y++)
			for (unsigned x = 0; x < lw; x++) {
				union fmt_value v[4];
				CHECK_EQ(format_decode_texel(fi, cb + 16 * ((y / bh) * bx + x / bw),
							     x % bw, y % bh, v), 0);
				for (unsigned k = 0; k < cpp; k++) {
					float f = srgb && k < 3 ? fmt_linear_to_srgb(v[k].f) : v[k].f;
					int got = (int)lrintf(f * 255.0f);
					int want = db[y * row + x * cpp + k];
					if (abs(got - want) > (srgb ? 1 : 0)) {
						if (bad < 4)
							fprintf(stderr, "%s level %u (%u,%u) channel %u: "
								"%d vs %d\n", fi->name, l, x, y, k,
								got, want);
						bad++;
					}
				}
			}
		oc += 4 + ((u32(c + oc) + 3) & ~3u);
		od += 4 + ((u32(d + od) + 3) & ~3u);
	}
	free(c);
	free(d);
	return bad;
}

int main(void)
{
	const char *dir = getenv("PIGLIT_ASTC_DIR");
	if (!dir)
		dir = "/usr/lib/x86_64-linux-gnu/piglit/tests/spec/khr_texture_compression_astc";
	static const unsigned dims[14][2] = { { 4, 4 }, { 5, 4 }, { 5, 5 }, { 6, 5 }, { 6, 6 },
					      { 8, 5 }, { 8, 6 }, { 8, 8 }, { 10, 5 }, { 10, 6 },
					      { 10, 8 }, { 10, 10 }, { 12, 10 }, { 12, 12 } };
	int found = 0;
	for (int i = 0; i < 14; i++)
		for (int s = 0; s < 2; s++) {
			int bad = compare(dir, dims[i][0], dims[i][1], s);
			if (bad < 0)
				continue;
			found++;
			CHECK_EQ(bad, 0);
		}
	if (!found) {
		printf("SKIP: no piglit ASTC data in %s\n", dir);
		return 77;
	}
	CHECK_EQ(found, 28);
	return test_exit();
}
