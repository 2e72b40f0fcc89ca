/* Blitter surfaces and their rows (blt_surface.h). */
#include "gpu/blt/blt_surface.h"

#include <string.h>

#include "gpu/surface/surface.h"

enum cs_result blt_surface_init(struct gt_engine *e, const char *cmd, struct blt_surface *s,
				const char *role, uint64_t base, int32_t pitch_field,
				uint32_t cpp, unsigned tiling)
{
	*s = (struct blt_surface){ .role = role, .base = base, .cpp = cpp, .tiling = tiling };
	if (tiling == SURFACE_LINEAR) {
		s->pitch = pitch_field;
		return CS_NEXT;
	}
	s->pitch = pitch_field * 4;
	if (pitch_field <= 0 || (uint32_t)s->pitch % surface_tile_width(tiling))
		return cs_fault(e, "%s: %s-tiled %s pitch of %d dwords is not a positive "
				"multiple of the %u-byte tile width", cmd,
				tiling == SURFACE_TILE_X ? "X" : "Y", role, pitch_field,
				surface_tile_width(tiling));
	return CS_NEXT;
}

/* Calls fn on each run of consecutive addresses of the row's bytes. */
static enum cs_result row_runs(struct gt_engine *e, const char *cmd, const struct gt_vm *vm,
			       const struct blt_surface *s, int32_t x, int32_t y, uint32_t n,
			       uint8_t *buf, const uint8_t *cbuf)
{
	uint64_t bytes = (uint64_t)n * s->cpp;
	if (s->tiling == SURFACE_LINEAR) {
		uint64_t a = s->base + (uint64_t)((int64_t)y * s->pitch + (int64_t)x * s->cpp);
		int r = buf ? vm_read(vm, a, buf, bytes) : vm_write(vm, a, cbuf, bytes);
		if (r)
			return cs_fault(e, "%s: %s %s at unmapped address 0x%llx", cmd,
					buf ? "read of the" : "write of the", s->role,
					(unsigned long long)a);
		return CS_NEXT;
	}
	if (x < 0 || y < 0)
		return cs_fault(e, "%s: %s pixel (%d, %d) of a tiled surface is outside it",
				cmd, s->role, x, y);
	uint64_t xb = (uint64_t)x * s->cpp;
	for (uint64_t done = 0; done < bytes;) {
		uint64_t run = surface_row_run(s->tiling, xb + done);
		if (run > bytes - done)
			run = bytes - done;
		uint64_t a = s->base + surface_tiled_offset(s->tiling, xb + done, (uint64_t)y,
							     (uint64_t)s->pitch);
		int r = buf ? vm_read(vm, a, buf + done, run) : vm_write(vm, a, cbuf + done, run);
		if (r)
			return cs_fault(e, "%s: %s %s at unmapped address 0x%llx", cmd,
					buf ? "read of the" : "write of the", s->role,
					(unsigned long long)a);
		done += run;
	}
	return CS_NEXT;
}

enum cs_result blt_row_read(struct gt_engine *e, const char *cmd, const struct gt_vm *vm,
			    const struct blt_surface *s, int32_t x, int32_t y, uint32_t n,
			    uint8_t *buf)
{
	return row_runs(e, cmd, vm, s, x, y, n, buf, NULL);
}

enum cs_result blt_row_write(struct gt_engine *e, const char *cmd, const struct gt_vm *vm,
			     const struct blt_surface *s, int32_t x, int32_t y, uint32_t n,
			     const uint8_t *buf)
{
	return row_runs(e, cmd, vm, s, x, y, n, NULL, buf);
}

/* The raster operation on 8 bytes at once: the sum of the minterms
 * (pattern, source, destination) whose bit is set in rop. */
static uint64_t rop_word(uint8_t rop, uint64_t p, uint64_t s, uint64_t d)
{
	uint64_t out = 0;
	for (unsigned idx = 0; idx < 8; idx++)
		if (rop >> idx & 1)
			out |= (idx & 4 ? p : ~p) & (idx & 2 ? s : ~s) & (idx & 1 ? d : ~d);
	return out;
}

static uint64_t load8(const uint8_t *b)
{
	uint64_t v = 0;
	if (b)
		memcpy(&v, b, 8);
	return v;
}

void blt_rop(uint8_t rop, const uint8_t *pat, const uint8_t *src, uint8_t *dst, size_t n)
{
	if (rop == 0xcc && src) {      /* SRCCOPY, the common case */
		memmove(dst, src, n);
		return;
	}
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v = rop_word(rop, load8(pat ? pat + i : NULL), load8(src ? src + i : NULL),
				      load8(dst + i));
		memcpy(dst + i, &v, 8);
	}
	for (; i < n; i++)
		dst[i] = (uint8_t)rop_word(rop, pat ? pat[i] : 0, src ? src[i] : 0, dst[i]);
}

/* rop with operand bit b (4 pattern, 2 source, 1 destination) forced to 1
 * equals rop with it forced to 0: the result does not depend on it. */
static int depends(uint8_t rop, unsigned b)
{
	for (unsigned idx = 0; idx < 8; idx++)
		if (!(idx & b) && ((rop >> idx) & 1) != ((rop >> (idx | b)) & 1))
			return 1;
	return 0;
}

int blt_rop_uses_pattern(uint8_t rop) { return depends(rop, 4); }
int blt_rop_uses_source(uint8_t rop) { return depends(rop, 2); }
int blt_rop_uses_dest(uint8_t rop) { return depends(rop, 1); }

void blt_byte_mask(uint8_t *row, const uint8_t *old, uint32_t pixels, uint32_t mask)
{
	for (uint32_t i = 0; i < pixels; i++) {
		if (!(mask & 1))
			memcpy(row + 4 * i, old + 4 * i, 3);
		if (!(mask & 2))
			row[4 * i + 3] = old[4 * i + 3];
	}
}
