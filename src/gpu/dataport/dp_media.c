/* Media block read and write (data cache 1 message types 4 and 10; PRM
 * vol. 2d/7 "Media Block Read/Write"; IGT's gpgpu_fill and media_fill
 * kernels write with it). A rectangle of a 2D surface addressed in bytes
 * and rows, not texels:
 *   header  M0.0 X offset in bytes and M0.1 Y offset in rows (signed),
 *           M0.2 5:0 Block Width - 1 (bytes), 21:16 Block Height - 1 (rows)
 *   data    the rows one after the other in the registers (the write's
 *           payload after the header, the read's response), each at a
 *           register pitch of max(4, the next power of two >= the width)
 *           bytes, at most 256 bytes: 64 rows of 1-4 bytes ... 4 rows of
 *           33-64 bytes
 *   desc    10 Vertical Line Stride Override with 9 the stride and 8 its
 *           offset (field access; not implemented, a fault), 13:11 MBZ.
 * Out of bounds (the surface is Width DWords wide, not pixels, by Height
 * rows: the unit media surfaces are bound in, as Intel's VA driver binds
 * an R8_UNORM surface of w bytes with Width w / 4 - 1 "in DWORDs for media
 * read & write message", and IGT's fills bind 16 for 64 bytes): a read
 * returns the nearest pixel inside, its address clamped to the surface's
 * edge in X (pixels: the byte within the pixel is kept) and Y (Media
 * Boundary Pixel Mode 0 and 2 in frame mode: the nearest row); a write
 * drops the bytes outside. Tiled surfaces through the one surface module
 * (one byte at a time: a row of a block may cross tiles). */
#include "gpu/dataport/dp_priv.h"

/* The register pitch of a row of w bytes. */
static unsigned row_pitch(unsigned w)
{
	unsigned p = 4;
	while (p < w)
		p <<= 1;
	return p;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The surface of a media block message: 2D, one level, whole bytes a
 * pixel, frame access. */
static int open_2d(struct dp_msg *m, struct dp_surface *s, struct surface_view *v)
{
	if (dp_surface_open(m, s))
		return -1;
	if (s->space != DP_SPACE_SURFACE)
		return dp_fail(m, "BTI %u is not a surface (media block messages address 2D "
			       "surfaces)", s->bti);
	if (s->l->type == SURF_NULL)
		return 0;
	if (s->l->type != SURF_2D)
		return dp_fail(m, "surface type %u (media block messages address 2D surfaces)",
			       s->l->type);
	if (dp_surface_typed(m, s))
		return -1;
	if (s->l->bw > 1 || s->l->bh > 1)
		return dp_fail(m, "compressed surface format %s", format_name(s->l->format));
	if (s->l->vline_stride)
		return dp_fail(m, "the surface's Vertical Line Stride (field access) is not "
			       "implemented");
	if (s->l->media_boundary == 1 || s->l->media_boundary == 3)
		return dp_fail(m, "Media Boundary Pixel Mode %u is not implemented",
			       s->l->media_boundary);
	if (4 % s->l->cpp)
		return dp_fail(m, "%u-byte pixels (%s) in a surface Width in DWords are not "
			       "implemented", s->l->cpp, format_name(s->l->format));
	if (surface_view_of(s->l, 0, 0, v))
		return dp_fail(m, "the surface has no level 0");
	/* Width counts DWords here (above): the view's width in pixels */
	v->width = s->l->width * (4 / s->l->cpp);
	return 0;
}

int dp_media_block(struct dp_msg *m)
{
	bool write = m->info->type == 10;
	if (!m->s->header)
		return dp_fail(m, "no header (the message requires one)");
	if (m->ctrl & 4)
		return dp_fail(m, "Vertical Line Stride Override (field access, descriptor bit 10) "
			       "is not implemented");
	if (m->ctrl & 0x38)
		return dp_fail(m, "descriptor bits 13:11 (0x%x) must be zero", m->ctrl >> 3);
	const uint32_t *h = dp_payload(m, 0);
	int64_t x0 = (int32_t)h[0], y0 = (int32_t)h[1];
	unsigned w = (h[2] & 0x3f) + 1, rows = ((h[2] >> 16) & 0x3f) + 1;
	unsigned pitch = row_pitch(w);
	if (pitch * rows > 256)
		return dp_fail(m, "a block of %u x %u bytes (%u-byte register rows) is more than "
			       "the 256 bytes of a message", w, rows, pitch);
	unsigned regs = (pitch * rows + 31) / 32;
	/* a write may carry more data registers than the block fills: IGT's
	 * gpgpu_fill writes a 16 x 1 block with a message length of 3 and
	 * passes on Gen8/9 hardware (Intel CI); the block's bytes are taken
	 * from the first registers, the rest ignored (traced) */
	if (write && m->s->mlen > 1 + regs && m->s->mlen <= 1 + 8 && !m->s->rlen) {
		dp_tr(m, "(%u data registers, the block fills %u) ", m->s->mlen - 1u, regs);
	} else if (dp_check_len(m, write ? 1 + regs : 1, write ? 0 : regs)) {
		return -1;
	}
	struct dp_surface s;
	struct surface_view v = { 0 };
	if (open_2d(m, &s, &v))
		return -1;
	dp_tr_surface(m, &s);
	dp_tr(m, ": (%lld,%lld) %u x %u bytes", (long long)x0, (long long)y0, w, rows);
	bool null = s.l->type == SURF_NULL;
	int64_t wbytes = (int64_t)v.width * v.cpp;
	for (unsigned r = 0; r < rows; r++) {
		int64_t y = y0 + r;
		for (unsigned b = 0; b < pitch; b++) {
			unsigned at = r * pitch + b;
			uint8_t *dst = write ? NULL : eu_send_response(m->t, m->s, at / 32) + at % 32;
			if (b >= w) {
				if (dst)
					*dst = 0;   /* the row's padding */
				continue;
			}
			int64_t x = x0 + b;
			bool out = null || y < 0 || y >= v.height || x < 0 || x >= wbytes;
			if (out)
				m->oob |= 1u << (r < 31 ? r : 31);
			if (out && (write || null)) {
				if (dst)
					*dst = 0;
				continue;
			}
			/* reads: the nearest pixel of the surface, the same byte
			 * of it */
			int64_t px = floor_div(x, v.cpp), in = x - px * v.cpp;
			px = clamp64(px, 0, (int64_t)v.width - 1);
			int64_t py = clamp64(y, 0, (int64_t)v.height - 1);
			uint64_t off;
			bool oob;
			if (!surface_view_offset(&v, (uint32_t)px, (uint32_t)py, &off))
				return dp_fail(m, "pixel (%lld,%lld) outside its own surface",
					       (long long)px, (long long)py);
			off += (uint64_t)in;
			int r2 = write ? dp_write(m, &s, off,
						  eu_send_payload(m->t, m->s, 1 + at / 32) + at % 32,
						  1, &oob)
				       : dp_read(m, &s, off, dst, 1, &oob);
			if (r2)
				return -1;
		}
	}
	return 0;
}
