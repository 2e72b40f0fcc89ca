/* Clipping and the viewport transform against hand-computed values. */
#include <math.h>

#include "gpu/render/raster.h"
#include "test.h"

static struct clip_params gl_params(void)
{
	struct clip_params p = {
		.clip_enable = true, .z_01 = false, .z_near_test = true, .z_far_test = true, .xy_test = true,
		.gb = { -1, 1, -1, 1 }, .nattrs = 1,
	};
	return p;
}

static struct clip_vertex vtx(float x, float y, float z, float w, float a)
{
	struct clip_vertex v = { .pos = { x, y, z, w } };
	v.attr[0][0] = a;
	return v;
}

static bool near(float a, float b)
{
	return fabsf(a - b) < 1e-5f;
}

int main(void)
{
	struct clip_params p = gl_params();
	struct clip_vertex in[3], out[CLIP_MAX_VERTS];
	unsigned n;

	/* inside: trivially accepted, untouched */
	in[0] = vtx(0, 0, 0, 1, 0);
	in[1] = vtx(0.5f, 0, 0, 1, 1);
	in[2] = vtx(0, 0.5f, 0, 1, 2);
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_ACCEPT);
	CHECK_EQ(n, 3);

	/* all beyond x = w: trivially rejected */
	in[0] = vtx(2, 0, 0, 1, 0);
	in[1] = vtx(3, 0, 0, 1, 0);
	in[2] = vtx(2, 1, 0, 1, 0);
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_REJECT);

	/* one vertex beyond x = w: a quadrilateral; the new vertices sit on
	 * x = w with the attribute interpolated linearly in clip space:
	 * (0,0)a=0 -- (2,0)a=2 cut at x=1 gives a=1; (2,0)--(0,1) cut at x=1
	 * is (1, 0.5) with a = 2*0.5 + 4*0.5 = 3 */
	in[0] = vtx(0, 0, 0, 1, 0);
	in[1] = vtx(2, 0, 0, 1, 2);
	in[2] = vtx(0, 1, 0, 1, 4);
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_CLIPPED);
	CHECK_EQ(n, 4);
	int found = 0;
	for (unsigned i = 0; i < n; i++) {
		if (near(out[i].pos[0], 1) && near(out[i].pos[1], 0) && near(out[i].attr[0][0], 1))
			found |= 1;
		if (near(out[i].pos[0], 1) && near(out[i].pos[1], 0.5f) && near(out[i].attr[0][0], 3))
			found |= 2;
		CHECK(out[i].pos[0] <= out[i].pos[3] + 1e-6f);
		/* the weights of the input vertices: 1 for an input vertex
		 * kept, (1/2, 1/2, 0) and (0, 1/2, 1/2) for the two new ones */
		if (near(out[i].pos[0], 0) && near(out[i].pos[1], 0))
			found |= 4 * (near(out[i].bw[0], 1) && near(out[i].bw[1], 0) && near(out[i].bw[2], 0));
		if (near(out[i].pos[0], 1) && near(out[i].pos[1], 0))
			found |= 8 * (near(out[i].bw[0], 0.5f) && near(out[i].bw[1], 0.5f) && near(out[i].bw[2], 0));
		if (near(out[i].pos[0], 1) && near(out[i].pos[1], 0.5f))
			found |= 16 * (near(out[i].bw[0], 0) && near(out[i].bw[1], 0.5f) && near(out[i].bw[2], 0.5f));
	}
	CHECK_EQ(found, 31);

	/* near plane (OGL z >= -w) and D3D (z >= 0) */
	in[0] = vtx(0, 0, -2, 1, 0);
	in[1] = vtx(0.5f, 0, 0, 1, 0);
	in[2] = vtx(0, 0.5f, 0, 1, 0);
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_CLIPPED);
	for (unsigned i = 0; i < n; i++)
		CHECK(out[i].pos[2] >= -out[i].pos[3] - 1e-6f);
	p.z_01 = true;
	in[0] = vtx(0, 0, -0.5f, 1, 0);
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_CLIPPED);
	for (unsigned i = 0; i < n; i++)
		CHECK(out[i].pos[2] >= -1e-6f);
	/* Z clip test disabled: nothing clipped by z */
	p.z_near_test = p.z_far_test = false;
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_ACCEPT);
	/* gen9 splits the test: far only leaves the near crossing alone */
	p.z_far_test = true;
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_ACCEPT);
	/* near only: a vertex past the far plane (z > w) is kept, one in
	 * front of the near plane (z < 0, D3D range) is clipped */
	in[1] = vtx(1, 0, 1.5f, 1, 0);
	p.z_far_test = false;
	p.z_near_test = true;
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_CLIPPED);
	for (unsigned i = 0; i < n; i++)
		CHECK(out[i].pos[2] >= -1e-6f);
	CHECK(out[0].pos[2] > 1.4f || out[1].pos[2] > 1.4f || out[2].pos[2] > 1.4f);
	in[0] = vtx(0, 0, 0.5f, 1, 0);
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_ACCEPT);
	p.z_far_test = true;
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_CLIPPED);
	for (unsigned i = 0; i < n; i++)
		CHECK(out[i].pos[2] <= out[i].pos[3] + 1e-6f);

	/* user clip distance 0: d = 1 - 2x; vertex (1,0) has d < 0 */
	p = gl_params();
	p.user_clip = 1;
	in[0] = vtx(0, 0, 0, 1, 0);
	in[1] = vtx(1, 0, 0, 1, 0);
	in[2] = vtx(0, 1, 0, 1, 0);
	in[0].dist[0] = 1;
	in[1].dist[0] = -1;
	in[2].dist[0] = 1;
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_CLIPPED);
	CHECK_EQ(n, 4);
	for (unsigned i = 0; i < n; i++)
		CHECK(out[i].pos[0] <= 0.5f + 1e-6f);
	/* cull distance: every vertex negative -> rejected */
	p.user_clip = 0;
	p.user_cull = 2;
	for (int i = 0; i < 3; i++)
		in[i].dist[1] = -1;
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_REJECT);

	/* w <= 0 everywhere: rejected even with clipping disabled */
	p = gl_params();
	p.clip_enable = false;
	in[0] = vtx(0, 0, 0, -1, 0);
	in[1] = vtx(1, 0, 0, -1, 0);
	in[2] = vtx(0, 1, 0, -1, 0);
	CHECK_EQ(clip_polygon(&p, in, 3, out, &n), CLIP_REJECT);

	/* lines keep two vertices */
	p = gl_params();
	in[0] = vtx(-3, 0, 0, 1, 0);
	in[1] = vtx(0, 0, 0, 1, 3);
	CHECK_EQ(clip_polygon(&p, in, 2, out, &n), CLIP_CLIPPED);
	CHECK_EQ(n, 2);
	CHECK(near(out[1].pos[0], -1) || near(out[0].pos[0], -1));

	/* viewport: 100x50 window, GL depth range [0, 1] */
	struct viewport vp = { .m00 = 50, .m11 = -25, .m22 = 0.5f, .m30 = 50, .m31 = 25, .m32 = 0.5f };
	float pos[4] = { 1, 1, 1, 2 };
	struct win_vertex w = viewport_apply(&vp, pos, true, true);
	CHECK(near(w.x, 75) && near(w.y, 12.5f) && near(w.z, 0.75f) && near(w.rhw, 0.5f));
	w = viewport_apply(&vp, pos, false, false);
	CHECK(near(w.x, 1) && near(w.y, 1) && near(w.z, 1) && near(w.rhw, 1));
	return test_exit();
}
