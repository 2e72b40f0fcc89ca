/* The depth and stencil tests of one pixel (PRM vol. 2 "Depth Buffer",
 * "Stencil Test", "Depth Test"): the incoming depth clamped to the
 * CC_VIEWPORT range and converted to the depth buffer's format
 * (D32_FLOAT, D24_UNORM_X8_UINT, D16_UNORM) before comparing; the separate
 * 8-bit stencil buffer (W-major) with front and back state; then the
 * stencil operation for fail / depth fail / pass, and the depth write.
 * Multisampled buffers are tested a sample at a time, each sample where
 * the interleaved layout puts it (surface_view_sample_offset). */
#include <math.h>
#include <string.h>

#include "gpu/render/wm_draw.h"

enum { DFMT_D32_FLOAT = 1, DFMT_D24_UNORM_X8 = 3, DFMT_D16_UNORM = 5 };

bool depth_test_enabled(const struct wm_state *st)
{
	/* a depth write without the test is the stage too: it always passes
	 * and writes (blorp's depth blits and HiZ-less clears rely on it) */
	const struct depth_state *ds = &st->ds;
	return ((ds->test || ds->write) && ds->has_depth) ||
	       (ds->stencil_test && ds->has_stencil);
}

/* Depth value in the buffer's encoding (as bits, for D32 the float's). */
uint32_t depth_encode(uint32_t fmt, float z)
{
	if (fmt == DFMT_D32_FLOAT) {
		uint32_t u;
		memcpy(&u, &z, 4);
		return u;
	}
	/* UNORM depth: GL's float-to-unorm rule (the exact product rounded
	 * once; a float product would round 0.3f * 65535 = 19660.5008 to
	 * 19660.5 first and then to the even 19660) */
	return fmt_float_to_unorm(z, fmt == DFMT_D16_UNORM ? 16 : 24);
}

static bool depth_compare(uint32_t fmt, unsigned func, uint32_t src, uint32_t dst)
{
	if (fmt == DFMT_D32_FLOAT) {
		float s, d;
		memcpy(&s, &src, 4);
		memcpy(&d, &dst, 4);
		return om_compare(func, s, d);
	}
	return om_compare_u(func, src, dst);
}

bool depth_stencil_sample(struct wm_draw *d, int32_t x, int32_t y, unsigned s, float z,
			  bool back, int sref)
{
	const struct depth_state *ds = &d->st.ds;
	const struct gt_vm *vm = &d->env->vm;
	if (x < 0 || y < 0)
		return false;

	/* stencil */
	uint64_t soff = 0;
	uint8_t sval = 0;
	bool stencil = ds->stencil_test && ds->has_stencil &&
		       surface_view_sample_offset(&ds->stencil, ds->samples, (uint32_t)x, (uint32_t)y, s,
						  &soff);
	bool bs = back && ds->double_sided;
	/* a PS that computes stencil (3DSTATE_PS_EXTRA, gen9) replaces the
	 * reference of both faces, for the test and for REPLACE */
	uint8_t ref = sref >= 0 ? (uint8_t)sref : bs ? ds->bsref : ds->sref, tmask = bs ? ds->bsmask : ds->smask;
	uint8_t wmask = bs ? ds->bswmask : ds->swmask;
	if (stencil && vm_read(vm, ds->stencil.base + soff, &sval, 1)) {
		wm_fault(d, "stencil buffer: page fault at 0x%llx",
			 (unsigned long long)(ds->stencil.base + soff));
		return false;
	}

	/* depth */
	uint64_t doff = 0;
	uint32_t fmt = ds->depth_format, cpp = ds->depth.cpp;
	bool depth = ds->has_depth && (ds->test || ds->write) &&
		     surface_view_sample_offset(&ds->depth, ds->samples, (uint32_t)x, (uint32_t)y, s, &doff);
	z = z < d->st.vp.zmin ? d->st.vp.zmin : z > d->st.vp.zmax ? d->st.vp.zmax : z;
	uint32_t src = depth_encode(fmt, z), dst = 0;
	if (depth && ds->test && vm_read(vm, ds->depth.base + doff, &dst, cpp)) {
		wm_fault(d, "depth buffer: page fault at 0x%llx",
			 (unsigned long long)(ds->depth.base + doff));
		return false;
	}
	if (fmt == DFMT_D24_UNORM_X8)
		dst &= 0xffffff;

	unsigned op;
	bool pass = true;
	if (stencil && !om_compare_u(bs ? ds->bfunc : ds->sfunc, ref & tmask, sval & tmask)) {
		op = bs ? ds->bfail : ds->sfail;
		pass = false;
	} else if (depth && ds->test && !depth_compare(fmt, ds->func, src, dst)) {
		op = bs ? ds->bzfail : ds->szfail;
		pass = false;
	} else {
		op = bs ? ds->bzpass : ds->szpass;
	}
	if (stencil && ds->stencil_write) {
		uint8_t nv = om_stencil_op(op, sval, ref);
		nv = (uint8_t)((nv & wmask) | (sval & ~wmask));
		if (nv != sval)
			vm_write(vm, ds->stencil.base + soff, &nv, 1);
	}
	if (pass && depth && ds->write && ds->depth_buffer_write)
		vm_write(vm, ds->depth.base + doff, &src, cpp);
	return pass;
}

/* depth_stencil_sample for the four pixels of a quad at once where that is
 * the common case: one sample, no stencil, the depth buffer's pixels of
 * the quad in one 4 KiB page (always for Y and X tiles: a quad at even
 * (x, y) lies in one tile). One translation for the quad instead of a read
 * and a write each; the tests and writes are depth_stencil_sample's, in
 * pixel order. Returns the pixels that pass (bit i: pixel i of `in`), or
 * -1 with nothing done: the caller tests the pixels one by one. */
int depth_test_quad(struct wm_draw *d, int32_t x, int32_t y, const float z[4], unsigned in)
{
	const struct depth_state *ds = &d->st.ds;
	if (x < 0 || y < 0 || (ds->stencil_test && ds->has_stencil) || !ds->has_depth ||
	    !(ds->test || ds->write) || ds->samples > 1 || d->st.ms.samples > 1)
		return -1;
	uint32_t fmt = ds->depth_format, cpp = ds->depth.cpp;
	uint64_t off[4], page = UINT64_MAX;
	/* pixel x + 1 of a row follows pixel x where the row's run of
	 * consecutive bytes from x holds both: one offset a row */
	bool pairs = (uint32_t)x + 1 < ds->depth.width &&
		     surface_row_run(ds->depth.tiling, ((uint64_t)x + ds->depth.x_offset) * cpp) >=
			     2ull * cpp;
	for (unsigned i = 0; i < 4; i++) {
		if (!(in >> i & 1))
			continue;
		if (i & 1 && pairs && in >> (i - 1) & 1) {
			off[i] = off[i - 1] + cpp;
			continue;
		}
		if (!surface_view_sample_offset(&ds->depth, 1, (uint32_t)x + (i & 1),
						(uint32_t)y + (i >> 1), 0, &off[i]))
			return -1;
		uint64_t pg = (ds->depth.base + off[i]) >> 12;
		if (page != UINT64_MAX && pg != page)
			return -1;
		page = pg;
	}
	if (page == UINT64_MAX)
		return 0;
	uint64_t avail;
	uint8_t *host = vm_map(&d->env->vm, page << 12, ds->write && ds->depth_buffer_write, &avail);
	if (!host || avail < 4096)
		return -1;
	unsigned pass = 0;
	for (unsigned i = 0; i < 4; i++) {
		if (!(in >> i & 1))
			continue;
		uint8_t *at = host + ((ds->depth.base + off[i]) & 4095);
		float zc = z[i] < d->st.vp.zmin ? d->st.vp.zmin : z[i] > d->st.vp.zmax ? d->st.vp.zmax : z[i];
		uint32_t src = depth_encode(fmt, zc), dst = 0;
		if (ds->test && cpp == 2) {   /* constant sizes: loads, not memcpy calls */
			uint16_t v16;
			memcpy(&v16, at, 2);
			dst = v16;
		} else if (ds->test && cpp == 4) {
			memcpy(&dst, at, 4);
		} else if (ds->test) {
			memcpy(&dst, at, cpp);
		}
		if (fmt == DFMT_D24_UNORM_X8)
			dst &= 0xffffff;
		bool ok = !ds->test || depth_compare(fmt, ds->func, src, dst);
		if (ok && ds->write && ds->depth_buffer_write) {
			if (cpp == 2) {
				uint16_t v16 = (uint16_t)src;
				memcpy(at, &v16, 2);
			} else if (cpp == 4) {
				memcpy(at, &src, 4);
			} else {
				memcpy(at, &src, cpp);
			}
		}
		pass |= (unsigned)ok << i;
	}
	return (int)pass;
}
