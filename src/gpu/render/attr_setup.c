/* Attribute setup (PRM vol. 2 "SBE": 3DSTATE_SBE, 3DSTATE_SBE_SWIZ): which
 * VUE rows become the PS's attributes (read offset, swizzles, constant
 * overrides), and their plane coefficients in the form the PS payload
 * carries and `pln` reads: per component a1 - a0, a2 - a0, 0, a0, so that
 * a = a0 + b1 (a1 - a0) + b2 (a2 - a0) with the barycentrics b1, b2 of the
 * payload. Flat (constant interpolation) attributes have zero deltas and
 * the provoking vertex's value as a0. */
#include <string.h>

#include "gpu/render/wm_draw.h"

enum { SWZ_INPUTATTR, SWZ_FACING };
enum { CONST_0000, CONST_0001, CONST_1111, CONST_PRIM_ID };

static void attr_values(const struct sbe_state *sbe, unsigned k, bool back,
			const float (*rows)[4], unsigned nrows, uint32_t prim_id, float out[4])
{
	unsigned src = k, sel = SWZ_INPUTATTR, csrc = 0, over = 0;
	if (sbe->swizzle_enable && k < 16) {
		const struct cmd_SF_OUTPUT_ATTRIBUTE_DETAIL *sw = &sbe->swiz[k];
		src = sw->source_attribute;
		sel = sw->swizzle_select;
		csrc = sw->constant_source;
		over = (unsigned)sw->component_override_x | (unsigned)sw->component_override_y << 1 |
		       (unsigned)sw->component_override_z << 2 | (unsigned)sw->component_override_w << 3;
	}
	/* back-facing primitives read the next row; the W variants fault when
	 * the state is loaded (wm_state.c) */
	if (sel == SWZ_FACING && back)
		src++;
	unsigned row = sbe->read_offset * 2 + src;
	static const float zero[4];
	const float *v = row < nrows ? rows[row] : zero;
	memcpy(out, v, 16);
	static const float consts[3][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 1 }, { 1, 1, 1, 1 } };
	for (int c = 0; c < 4; c++) {
		if (!(over >> c & 1))
			continue;
		if (csrc == CONST_PRIM_ID)
			memcpy(&out[c], &prim_id, 4);
		else
			out[c] = consts[csrc][c];
	}
	/* 3DSTATE_SBE Primitive ID Override: the selected attribute's enabled
	 * components take the primitive ID (an integer) */
	if (k == sbe->prim_id_attr)
		for (int c = 0; c < 4; c++)
			if (sbe->prim_id_comps >> c & 1)
				memcpy(&out[c], &prim_id, 4);
}

void attr_setup(struct wm_prim *p, const struct sbe_state *sbe,
		const float (*const rows[3])[4], const float (*pv_rows)[4], unsigned nrows,
		uint32_t prim_id)
{
	unsigned n = sbe->num_attrs < WM_MAX_SBE_ATTRS ? sbe->num_attrs : WM_MAX_SBE_ATTRS;
	p->nattrs = n;
	for (unsigned k = 0; k < n; k++) {
		float a[3][4], flat_v[4];
		for (int i = 0; i < 3; i++)
			attr_values(sbe, k, p->back_facing, rows[i], nrows, prim_id, a[i]);
		attr_values(sbe, k, p->back_facing, pv_rows, nrows, prim_id, flat_v);
		bool flat = sbe->const_interp >> k & 1;
		bool sprite = p->is_point && (sbe->point_sprite >> k & 1);
		for (int c = 0; c < 4; c++) {
			float *s = p->setup[k][c];
			if (sprite) {
				/* p->v[] = upper left, upper right, lower left corners:
				 * s runs 0..1 left to right, t 0..1 top to bottom (or
				 * bottom to top with a lower-left origin) */
				float t0 = sbe->sprite_lower_left ? 1.0f : 0.0f;
				float vals[4][3] = { { 0, 1, 0 }, { t0, t0, 1 - t0 }, { 0, 0, 0 }, { 1, 1, 1 } };
				s[0] = vals[c][1] - vals[c][0];
				s[1] = vals[c][2] - vals[c][0];
				s[2] = 0;
				s[3] = vals[c][0];
			} else if (flat) {
				s[0] = s[1] = s[2] = 0;
				s[3] = flat_v[c];
			} else {
				s[0] = a[1][c] - a[0][c];
				s[1] = a[2][c] - a[0][c];
				s[2] = 0;
				s[3] = a[0][c];
			}
		}
	}
}
