/* A GGTT address space of 64 pages for sampler tests, state packed by hand
 * from the PRM's bit positions (RENDER_SURFACE_STATE, SAMPLER_STATE: PRM
 * vol. 2d; the same positions as Mesa's gen8.xml), and sends to the
 * sampler from a fake thread.
 *
 * Layout (surface and dynamic state bases 0): binding table at 0x1000,
 * SURFACE_STATEs at 0x1100 + 64 * i, SAMPLER_STATEs at 0x2000 + 16 * i,
 * the border colour at 0x2400, texels from 0x4000. */
#ifndef SAMPLER_FIXTURE_H
#define SAMPLER_FIXTURE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/inst.h"
#include "gpu/sfid/sampler.h"
#include "test.h"

#define FX_PAGES 64
#define FX_BT 0x1000u
#define FX_SS(i) (0x1100u + 64u * (i))
#define FX_SAMPLER(i) (0x2000u + 16u * (i))
#define FX_BORDER 0x2400u
#define FX_TEX 0x4000u

struct fixture {
	struct gt_phys *phys;
	uint8_t *mem;
	uint64_t ptes[FX_PAGES];
	struct gt_ggtt ggtt;
	struct sampler_unit unit;
	struct eu_thread *t;
};

static inline void fx_init(struct fixture *f, int gen)
{
	memset(f, 0, sizeof(*f));
	f->phys = phys_create();
	f->mem = aligned_alloc(4096, FX_PAGES * 4096);
	memset(f->mem, 0, FX_PAGES * 4096);
	uint64_t pa = phys_add(f->phys, f->mem, FX_PAGES * 4096);
	/* the last page stays unmapped: reading it is a page fault */
	for (unsigned i = 0; i + 1 < FX_PAGES; i++)
		f->ptes[i] = (pa + 4096ull * i) | GT_PTE_PRESENT;
	f->ggtt = (struct gt_ggtt){ f->ptes, FX_PAGES * 4096ull };
	struct gt_vm vm = { .phys = f->phys, .ggtt = &f->ggtt };
	sampler_unit_init(&f->unit, gen, &vm, 0, 0, FX_BT, FX_SAMPLER(0), false);
	f->t = aligned_alloc(64, sizeof(struct eu_thread));
}

static inline void fx_fini(struct fixture *f)
{
	free(f->t);
	phys_destroy(f->phys);
	free(f->mem);
}

static inline uint32_t *fx_dw(struct fixture *f, uint32_t addr)
{
	return (uint32_t *)(f->mem + addr);
}

/* Bits hi..lo of dword dw set to v. */
static inline void fx_bits(uint32_t *dw, unsigned hi, unsigned lo, uint32_t v)
{
	uint32_t m = (hi - lo == 31 ? ~0u : ((1u << (hi - lo + 1)) - 1)) << lo;
	*dw = (*dw & ~m) | ((v << lo) & m);
}

struct fx_surf {
	uint32_t type, format, width, height, depth, pitch, tiling, qpitch;
	uint32_t halign, valign;      /* field values: 1 = 4, 2 = 8, 3 = 16 */
	uint32_t mip_count, min_lod, min_array;
	bool array;
	uint32_t base;
	uint8_t scs[4];               /* 0: identity (R, G, B, A) */
};

/* Binding table entry i -> RENDER_SURFACE_STATE i. */
static inline void fx_surface(struct fixture *f, unsigned i, const struct fx_surf *s)
{
	uint32_t *ss = fx_dw(f, FX_SS(i));
	memset(ss, 0, 64);
	fx_bits(&ss[0], 31, 29, s->type);
	fx_bits(&ss[0], 28, 28, s->array);
	fx_bits(&ss[0], 26, 18, s->format);
	fx_bits(&ss[0], 17, 16, s->valign ? s->valign : 1);
	fx_bits(&ss[0], 15, 14, s->halign ? s->halign : 1);
	fx_bits(&ss[0], 13, 12, s->tiling);          /* 0 linear, 2 X, 3 Y */
	fx_bits(&ss[1], 14, 0, s->qpitch / 4);
	fx_bits(&ss[2], 13, 0, s->width - 1);
	fx_bits(&ss[2], 29, 16, s->height - 1);
	fx_bits(&ss[3], 31, 21, (s->depth ? s->depth : 1) - 1);
	fx_bits(&ss[3], 17, 0, s->pitch - 1);
	fx_bits(&ss[4], 28, 18, s->min_array);
	fx_bits(&ss[5], 3, 0, s->mip_count);
	fx_bits(&ss[5], 7, 4, s->min_lod);
	static const uint8_t identity[4] = { 4, 5, 6, 7 };
	const uint8_t *scs = s->scs[0] || s->scs[1] || s->scs[2] || s->scs[3] ? s->scs : identity;
	fx_bits(&ss[7], 27, 25, scs[0]);
	fx_bits(&ss[7], 24, 22, scs[1]);
	fx_bits(&ss[7], 21, 19, scs[2]);
	fx_bits(&ss[7], 18, 16, scs[3]);
	ss[8] = s->base;
	fx_dw(f, FX_BT)[i] = FX_SS(i);
}

struct fx_samp {
	uint32_t min, mag, mip;       /* 0 nearest, 1 linear; mip 0 none, 1 nearest, 3 linear */
	uint32_t wrap_x, wrap_y, wrap_z; /* 0 wrap, 1 mirror, 2 clamp, 4 border */
	float min_lod, max_lod, bias;
	uint32_t shadow;              /* PREFILTEROP_* */
	bool non_normalized;
};

static inline void fx_sampler(struct fixture *f, unsigned i, const struct fx_samp *s)
{
	uint32_t *d = fx_dw(f, FX_SAMPLER(i));
	memset(d, 0, 16);
	fx_bits(&d[0], 13, 1, (uint32_t)(int32_t)lroundf(s->bias * 256));   /* S4.8 */
	fx_bits(&d[0], 16, 14, s->min);
	fx_bits(&d[0], 19, 17, s->mag);
	fx_bits(&d[0], 21, 20, s->mip);
	fx_bits(&d[0], 28, 27, 2);                   /* LOD PreClamp OGL */
	fx_bits(&d[1], 3, 1, s->shadow);
	fx_bits(&d[1], 19, 8, (uint32_t)lroundf(s->max_lod * 256));  /* U4.8 */
	fx_bits(&d[1], 31, 20, (uint32_t)lroundf(s->min_lod * 256));
	fx_bits(&d[2], 23, 6, FX_BORDER >> 6);
	fx_bits(&d[3], 2, 0, s->wrap_z);
	fx_bits(&d[3], 5, 3, s->wrap_y);
	fx_bits(&d[3], 8, 6, s->wrap_x);
	fx_bits(&d[3], 10, 10, s->non_normalized);
}

/* Sampler message descriptor (Mesa's brw_sampler_desc for Gen7+). */
static inline uint32_t fx_desc(unsigned bti, unsigned sampler, unsigned type, unsigned simd)
{
	return bti | sampler << 8 | type << 12 | (simd == 16 ? 2u : 1u) << 17;
}

#define FX_PAYLOAD 2     /* first payload register */
#define FX_RESP 40       /* first response register */

/* Sends the message whose payload the test put at g2..; returns the
 * handler's result (0, or -1 with t->state == EU_THREAD_FAULT). */
static inline int fx_send(struct fixture *f, uint32_t desc, unsigned simd, unsigned mlen,
			  unsigned rlen, bool header, uint32_t mask)
{
	struct eu_send m = {
		.sfid = EU_SFID_SAMPLER, .desc = desc, .mlen = (uint8_t)mlen,
		.rlen = (uint8_t)rlen, .header = header, .func = desc & 0x7ffff,
		.src = FX_PAYLOAD, .dst = FX_RESP, .exec_size = (uint8_t)simd, .mask = mask,
	};
	return sampler_sfid_handler(&f->unit, f->t, &m);
}

static inline void fx_set_f(struct fixture *f, unsigned reg, unsigned ch, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	eu_grf_set_ud(f->t, reg + ch / 8, ch % 8, u);
}

static inline float fx_get_f(struct fixture *f, unsigned reg, unsigned ch)
{
	uint32_t u = eu_grf_ud(f->t, reg + ch / 8, ch % 8);
	float v;
	memcpy(&v, &u, 4);
	return v;
}

#define CHECK_NEAR(a, b)                                                      \
	do {                                                                  \
		double a2_ = (a), b2_ = (b);                                  \
		test_checks++;                                                \
		if (!(fabs(a2_ - b2_) <= 1e-5)) {                             \
			test_failures++;                                      \
			fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s == %s " \
				"(%.7g vs %.7g)\n", __FILE__, __LINE__, #a, #b, a2_, b2_); \
		}                                                             \
	} while (0)

#endif
