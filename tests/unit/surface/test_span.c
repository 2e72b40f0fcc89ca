/* The offsets of many pixels at once (surface_span.c:
 * surface_view_subspan_offsets, surface_view_row_offsets), which the
 * render target write's fast path and the whole-run depth test store
 * through, against the PRM's tile formats written independently in
 * tests/tiling_ref.h (vol. 5 "Tiling": the address-bit maps), pixel by
 * pixel: linear, X-, Y- and W-major views, 1- to 16-byte elements, odd
 * and even X/Y Offsets so subspans and runs start at every position of an
 * OWord, a tile row and a tile, runs crossing OWord columns, tiles and
 * tile rows, and views whose edges cut subspans and runs (those pixels
 * are outside: false, or a shorter count). A fast path that reuses a
 * neighbour's offset across a boundary gives a different byte here. */
#include "gpu/surface/surface.h"
#include "test.h"
#include "tiling_ref.h"

static uint64_t ref_pixel(const struct surface_view *v, uint32_t x, uint32_t y)
{
	return ref_tiled_offset((enum ref_tiling)v->tiling, ((uint64_t)x + v->x_offset) * v->cpp,
				(uint64_t)y + v->y_offset, v->pitch);
}

static int check_view(const struct surface_view *v)
{
	int bad = 0;
	/* every subspan position, including those cut by the edges */
	for (uint32_t y = 0; y < v->height + 2; y++)
		for (uint32_t x = 0; x < v->width + 2; x++) {
			uint64_t off[4];
			bool in = x + 1 < v->width && y + 1 < v->height;
			if (surface_view_subspan_offsets(v, x, y, off) != in) {
				bad++;
				continue;
			}
			for (unsigned i = 0; in && i < 4; i++)
				if (off[i] != ref_pixel(v, x + (i & 1), y + (i >> 1)) && bad++ < 5)
					fprintf(stderr, "tiling %u cpp %u offs %u,%u: subspan %u,%u pixel %u "
						"0x%llx want 0x%llx\n", v->tiling, v->cpp, v->x_offset,
						v->y_offset, x, y, i, (unsigned long long)off[i],
						(unsigned long long)ref_pixel(v, x + (i & 1), y + (i >> 1)));
		}
	/* runs of every length from every start of a few rows */
	static uint64_t off[512];
	for (uint32_t y = 0; y < v->height + 1; y += 7)
		for (uint32_t x = 0; x < v->width + 1; x += 3)
			for (unsigned n = 1; n <= 70; n += 23) {
				unsigned want = y >= v->height || x >= v->width ? 0 :
						x + n > v->width ? v->width - x : n;
				unsigned got = surface_view_row_offsets(v, x, y, n, off);
				if (got != want) {
					bad++;
					continue;
				}
				for (unsigned i = 0; i < got; i++)
					if (off[i] != ref_pixel(v, x + i, y) && bad++ < 5)
						fprintf(stderr, "tiling %u cpp %u: run %u,%u pixel %u 0x%llx "
							"want 0x%llx\n", v->tiling, v->cpp, x, y, i,
							(unsigned long long)off[i],
							(unsigned long long)ref_pixel(v, x + i, y));
			}
	return bad;
}

int main(void)
{
	static const unsigned cpps[] = { 1, 2, 4, 8, 16 };
	static const unsigned tilings[] = { SURFACE_LINEAR, SURFACE_TILE_X, SURFACE_TILE_Y,
					    SURFACE_TILE_W };
	static const uint32_t offs[][2] = { { 0, 0 }, { 4, 4 }, { 1, 1 }, { 3, 30 }, { 8, 31 } };
	int total = 0, views = 0;
	for (unsigned t = 0; t < 4; t++)
		for (unsigned c = 0; c < 5; c++)
			for (unsigned o = 0; o < 5; o++) {
				unsigned tiling = tilings[t], cpp = cpps[c];
				if (tiling == SURFACE_TILE_W && cpp != 1)
					continue;                  /* W: the 8-bit stencil */
				struct surface_view v = { 0 };
				v.tiling = (uint8_t)tiling;
				v.cpp = cpp;
				v.width = 150 / cpp + 37;          /* several OWords, tiles across */
				v.height = 75;                     /* three Y tile rows, many X */
				v.x_offset = offs[o][0];
				v.y_offset = offs[o][1];
				uint64_t row = ((uint64_t)v.width + v.x_offset) * cpp;
				unsigned unit = tiling == SURFACE_LINEAR ? 4 : surface_pitch_unit(tiling);
				v.pitch = (uint32_t)((row + unit - 1) / unit * unit) +
					  (tiling == SURFACE_LINEAR ? 12 : 0);
				if (tiling == SURFACE_TILE_W)
					v.pitch *= 2;              /* programmed doubled */
				int bad = check_view(&v);
				if (bad)
					fprintf(stderr, "tiling %u cpp %u offsets %u,%u: %d wrong\n", tiling,
						cpp, v.x_offset, v.y_offset, bad);
				total += bad;
				views++;
			}
	printf("%d views, %d wrong offsets\n", views, total);
	CHECK_EQ(total, 0);
	return test_exit();
}
