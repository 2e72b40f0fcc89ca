/* Typed surface read and write (PRM vol. 7 "Typed Surface Read/Write";
 * data cache 1 types 5 and 13): SIMD8 messages (a SIMD16 shader sends two,
 * descriptor 13:12 = 1 the lower, 2 the upper slot group; 0 is SIMD4x2),
 * an optional header (M0.7 15:0 enables slots; Gen8 requires it), then
 * one register per coordinate (U, V, R, LOD: as many as the message length
 * leaves) and, for a write, one register per enabled channel (descriptor
 * 11:8, a set bit skips it). Texels are converted through gpu/format as a
 * render target write packs and the sampler unpacks them. Images are
 * bound as render targets are: RENDER_SURFACE_STATE's MIP Count/LOD is
 * the level, Minimum Array Element the first layer, and Depth bounds
 * Minimum Array Element + layer (the PRM's "Depth" for 1D/2D/cube).
 * Coordinates outside: reads return 0, writes are dropped. */
#include <string.h>

#include "gpu/dataport/dp_priv.h"

uint32_t dp_typed_header_mask(struct dp_msg *m, unsigned header, bool high)
{
	if (!header)
		return 0xff;
	uint32_t m07 = dp_payload(m, 0)[7];
	return (high ? m07 >> 8 : m07) & 0xff;
}

int dp_typed_offset(struct dp_msg *m, struct dp_surface *s, const uint32_t c[4],
		    uint64_t *off, bool *oob)
{
	const struct surface_layout *l = s->l;
	*oob = true;
	if (l->type == SURF_NULL)
		return 0;
	if (l->type == SURF_BUFFER) {
		if (c[0] < l->width) {
			*off = (uint64_t)c[0] * l->pitch;
			*oob = false;
		}
		return 0;
	}
	/* The level: Surface Min LOD + the message's LOD, which may go up to
	 * MIP Count/LOD, the surface's levels as the sampler sees them. Mesa's
	 * isl programs a storage image so (Surface Min LOD the bound level,
	 * MIP Count/LOD levels - 1; only render targets hold the level in MIP
	 * Count/LOD, "SurfaceMinLOD is ignored"), and iris and anv access
	 * images of every level with typed messages on Gen9. */
	if (c[3] > l->mip_count_lod)
		return 0;
	uint64_t level = (uint64_t)l->min_lod + c[3];
	if (level >= l->nlevels)
		return 0;
	uint32_t y = 0;
	uint64_t slice = 0;
	/* Layers count from Minimum Array Element. 1D, 2D, cube: Depth + 1 is
	 * the number of layers (cubes) from it (PRM RENDER_SURFACE_STATE
	 * Depth: "The range of this field is reduced by one for each increase
	 * from zero of Minimum Array Element", as Mesa's isl quotes it). 3D:
	 * R up to Render Target View Extent ("For Render Target and Typed
	 * Dataport 3D Surfaces: ... the extent of the accessible 'R'
	 * coordinates minus 1"), inside the level's depth. */
	switch (l->type) {
	case SURF_1D:
		if (c[1] >= l->depth)
			return 0;
		slice = (uint64_t)l->min_array + c[1];
		break;
	case SURF_2D:
	case SURF_CUBE:
		y = c[1];
		if (c[2] >= (uint64_t)l->depth * (l->type == SURF_CUBE ? 6 : 1))
			return 0;
		slice = (uint64_t)l->min_array + c[2];
		break;
	case SURF_3D:
		y = c[1];
		if (c[2] > l->rt_view_extent)
			return 0;
		slice = (uint64_t)l->min_array + c[2];
		if (slice >= surface_minify(l->depth, (uint32_t)level))
			return 0;
		break;
	default:
		return dp_fail(m, "typed access to surface type %u", l->type);
	}
	/* the lanes of a message mostly share a level and slice */
	if (!s->view_valid || s->view_level != level || s->view_slice != slice) {
		if (slice > UINT32_MAX ||
		    surface_view_of(l, (uint32_t)level, (uint32_t)slice, &s->view))
			return 0;
		s->view_valid = true;
		s->view_level = (uint32_t)level;
		s->view_slice = (uint32_t)slice;
	}
	uint64_t o;
	if (!surface_view_offset(&s->view, c[0], y, &o))
		return 0;
	*off = o;
	*oob = false;
	return 0;
}

int dp_typed_rw(struct dp_msg *m)
{
	bool write = m->info->type == 13;
	unsigned cmask = m->ctrl & 15, group = (m->ctrl >> 4) & 3, h = m->s->header;
	if (group != 1 && group != 2)
		return dp_fail(m, "slot group %u (SIMD4x2 or reserved) is not implemented", group);
	if (cmask == 15)
		return dp_fail(m, "every channel masked");
	if (m->u->gen == 8 && !h)
		return dp_fail(m, "no header (Gen8 requires one for typed messages)");
	unsigned nch = 4 - (unsigned)__builtin_popcount(cmask);
	unsigned data = write ? nch : 0;
	if (m->s->mlen < h + data + 1 || m->s->mlen - h - data > 4)
		return dp_fail(m, "message length %u leaves no room for 1 to 4 coordinates",
			       m->s->mlen);
	unsigned ncoord = m->s->mlen - h - data;
	if (dp_check_len(m, m->s->mlen, write ? 0 : nch))
		return -1;
	struct dp_surface s;
	if (dp_surface_open(m, &s) || dp_surface_typed(m, &s))
		return -1;
	dp_tr_surface(m, &s);
	dp_tr(m, ": slots %u..%u channels %s%s%s%s at", group == 2 ? 8 : 0, group == 2 ? 15 : 7,
	      cmask & 1 ? "" : "R", cmask & 2 ? "" : "G", cmask & 4 ? "" : "B",
	      cmask & 8 ? "" : "A");
	uint32_t slots = dp_slots(m, 8) & dp_typed_header_mask(m, h, group == 2);
	unsigned bytes = s.l->type == SURF_NULL ? 0 : s.fi->bpe / 8;
	for (unsigned i = 0; i < 8; i++) {
		if (!(slots >> i & 1))
			continue;
		uint32_t c[4] = { 0, 0, 0, 0 };
		for (unsigned k = 0; k < ncoord; k++)
			c[k] = dp_slot(m, h + k, i);
		uint64_t off = 0;
		bool oob;
		if (dp_typed_offset(m, &s, c, &off, &oob))
			return -1;
		dp_tr(m, " %u:(%u,%u,%u)", i, c[0], c[1], c[2]);
		union fmt_value v[4];
		uint8_t texel[16];
		memset(v, 0, sizeof(v));
		if (!oob) {
			/* a write of some channels keeps the others */
			if ((!write || cmask) && dp_read(m, &s, off, texel, bytes, &oob))
				return -1;
			if (!oob && (!write || cmask) && format_unpack(s.fi, texel, v))
				return dp_fail(m, "cannot unpack %s", s.fi->name);
		}
		if (oob) {
			m->oob |= 1u << i;
			memset(v, 0, sizeof(v));
		}
		unsigned k = 0;
		for (unsigned ch = 0; ch < 4; ch++) {
			if (cmask >> ch & 1)
				continue;
			if (write)
				v[ch].u = dp_slot(m, h + ncoord + k, i);
			else
				dp_set_slot(m, k, i, v[ch].u);
			k++;
		}
		if (write && !oob) {
			if (format_pack(s.fi, v, texel))
				return dp_fail(m, "cannot pack %s", s.fi->name);
			if (dp_write(m, &s, off, texel, bytes, &oob))
				return -1;
		}
	}
	return 0;
}
