/* The perspective divide and the viewport transform (PRM vol. 2 "SF
 * Stage: Viewport Transformation"): window x = m00 * x/w + m30, y =
 * m11 * y/w + m31, z = m22 * z/w + m32; SF_CLIP_VIEWPORT holds the matrix
 * elements and CC_VIEWPORT the depth range the result is clamped to
 * later (at the depth test). */
#include "gpu/render/raster.h"

struct win_vertex viewport_apply(const struct viewport *vp, const float pos[4],
				 bool divide, bool transform)
{
	float rhw = divide && pos[3] != 0.0f ? 1.0f / pos[3] : 1.0f;
	struct win_vertex o = { pos[0] * rhw, pos[1] * rhw, pos[2] * rhw, rhw };
	if (transform) {
		o.x = vp->m00 * o.x + vp->m30;
		o.y = vp->m11 * o.y + vp->m31;
		o.z = vp->m22 * o.z + vp->m32;
	}
	return o;
}

void rect_intersect(struct pixel_rect *r, const struct pixel_rect *with)
{
	if (with->x0 > r->x0)
		r->x0 = with->x0;
	if (with->y0 > r->y0)
		r->y0 = with->y0;
	if (with->x1 < r->x1)
		r->x1 = with->x1;
	if (with->y1 < r->y1)
		r->y1 = with->y1;
}
