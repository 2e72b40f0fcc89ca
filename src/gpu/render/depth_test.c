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
static inline uint32_t encode(uint32_t fmt, float z)
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

uint32_t depth_encode(uint32_t fmt, float z)
{
	return encode(fmt, z);
}

static inline bool depth_compare(uint32_t fmt, unsigned func, uint32_t src, uint32_t dst)
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

/* Early depth tests that take no per-pixel path: one sample, no stencil,
 * a depth test or write. */
static bool quads_testable(const struct wm_draw *d, int32_t x, int32_t y)
{
	const struct depth_state *ds = &d->st.ds;
	return x >= 0 && y >= 0 && !(ds->stencil_test && ds->has_stencil) && ds->has_depth &&
	       (ds->test || ds->write) && ds->samples <= 1 && d->st.ms.samples <= 1;
}

/* depth_stencil_sample for n (<= DEPTH_RUN_MAX) quads of a row at
 * (x + 2k, y) under quads_testable(): quad k's covered pixels in[k] (bit
 * i: pixel i at (x + 2k + (i & 1), y + (i >> 1))) at depths z[4k + i].
 * The byte offsets of each of the two rows come from the surface module
 * at once (surface_view_row_offsets), every pixel's host address is found
 * first (one translation per 4 KiB page), then each pixel is tested and
 * written as depth_stencil_sample does; pixels are distinct memory, so
 * the order is free. pass[k]: quad k's pixels that pass (a pixel outside
 * the depth buffer passes, as there). -1 with nothing done when a page is
 * not wholly mapped: the caller goes pixel by pixel (and faults there). */
static int test_quads(struct wm_draw *d, int32_t x, int32_t y, unsigned n, const float *z,
		      const uint8_t *in, uint8_t *pass)
{
	const struct depth_state *ds = &d->st.ds;
	const struct surface_view *v = &ds->depth;
	bool write = ds->write && ds->depth_buffer_write;
	uint32_t fmt = ds->depth_format, cpp = v->cpp;
	uint64_t off[2][2 * DEPTH_RUN_MAX];
	uint8_t *at[2][2 * DEPTH_RUN_MAX];
	unsigned cnt[2];
	struct vm_page_hold hold;
	vm_page_hold_init(&hold);
	for (unsigned r = 0; r < 2; r++) {
		cnt[r] = surface_view_row_offsets(v, (uint32_t)x, (uint32_t)y + r, 2 * n, off[r]);
		for (unsigned i = 0; i < cnt[r]; i++) {
			if (!(in[i / 2] >> (2 * r + i % 2) & 1))
				continue;
			at[r][i] = vm_page_map(&d->env->vm, &hold, v->base + off[r][i], write);
			if (!at[r][i])
				return -1;
			/* Y-tiled: the line 64 bytes on holds the pixels four
			 * rows down, which the run two row pairs later reads;
			 * fetched now (a cache line a line, within the page) */
			uintptr_t a = (uintptr_t)at[r][i];
			if (v->tiling == SURFACE_TILE_Y && r == 0 && !(a & 15) && (a & 4095) < 4096 - 64)
				__builtin_prefetch(at[r][i] + 64, 1);
		}
	}
	/* the incoming depths clamped and encoded first, the format's branch
	 * out of the loop (encode's operations, value for value) */
	float zmin = d->st.vp.zmin, zmax = d->st.vp.zmax;
	uint32_t src[4 * DEPTH_RUN_MAX];
	unsigned bits = fmt == DFMT_D16_UNORM ? 16 : 24;
	for (unsigned i = 0; i < 4 * n; i++) {
		float zi = z[i];
		zi = zi < zmin ? zmin : zi > zmax ? zmax : zi;
		if (fmt == DFMT_D32_FLOAT)
			memcpy(&src[i], &zi, 4);
		else
			src[i] = fmt_float_to_unorm(zi, bits);
	}
	memset(pass, 0, n);
	for (unsigned r = 0; r < 2; r++)
		for (unsigned i = 0; i < 2 * n; i++) {
			unsigned k = i / 2, bit = 2 * r + i % 2;
			if (!(in[k] >> bit & 1))
				continue;
			if (i >= cnt[r]) {              /* outside the buffer: passes */
				pass[k] |= (uint8_t)(1u << bit);
				continue;
			}
			uint8_t *p = at[r][i];
			uint32_t sv = src[4 * k + bit], dst = 0;
			if (ds->test && cpp == 2) {   /* constant sizes: loads, not memcpy calls */
				uint16_t v16;
				memcpy(&v16, p, 2);
				dst = v16;
			} else if (ds->test && cpp == 4) {
				memcpy(&dst, p, 4);
			} else if (ds->test) {
				memcpy(&dst, p, cpp);
			}
			if (fmt == DFMT_D24_UNORM_X8)
				dst &= 0xffffff;
			bool ok = !ds->test || depth_compare(fmt, ds->func, sv, dst);
			if (ok && write) {
				if (cpp == 2) {
					uint16_t v16 = (uint16_t)sv;
					memcpy(p, &v16, 2);
				} else if (cpp == 4) {
					memcpy(p, &sv, 4);
				} else {
					memcpy(p, &sv, cpp);
				}
			}
			pass[k] |= (uint8_t)((unsigned)ok << bit);
		}
	return 0;
}

int depth_test_quad(struct wm_draw *d, int32_t x, int32_t y, const float z[4], unsigned in)
{
	uint8_t in8 = (uint8_t)in, pass;
	if (!quads_testable(d, x, y) || test_quads(d, x, y, 1, z, &in8, &pass))
		return -1;
	return pass;
}

/* Runs of quads tested in one pass (the render-early-depth-run test reads
 * it to know the path it checks ran). */
static uint64_t run_quads;

uint64_t depth_test_run_quads(void)
{
	return __atomic_load_n(&run_quads, __ATOMIC_RELAXED);
}

int depth_test_run(struct wm_draw *d, int32_t x, int32_t y, unsigned n, const float *z,
		   uint8_t *pass)
{
	static const uint8_t all[DEPTH_RUN_MAX] = {
		[0 ... DEPTH_RUN_MAX - 1] = 15,
	};
	if (n > DEPTH_RUN_MAX || !quads_testable(d, x, y))
		return -1;
	if (test_quads(d, x, y, n, z, all, pass))
		return -1;
	__atomic_fetch_add(&run_quads, n, __ATOMIC_RELAXED);
	return 0;
}
