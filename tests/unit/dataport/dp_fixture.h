/* A GGTT address space of 64 pages for data port tests, state packed by
 * hand from the PRM's bit positions (RENDER_SURFACE_STATE: PRM vol. 2d,
 * the positions of Mesa's gen8.xml), descriptors built as the PRM lays
 * them out (vol. 7 "Data Port Messages"; the numbers of Mesa's
 * brw_eu_defines.h), and sends from a fake thread.
 *
 * Layout (all bases 0 unless a test moves General State Base): binding
 * table at 0x1000, SURFACE_STATEs at 0x1100 + 64 * i, data from 0x4000;
 * the last page is unmapped (a page fault). */
#ifndef DP_FIXTURE_H
#define DP_FIXTURE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dataport/dataport.h"
#include "gpu/eu/inst.h"
#include "test.h"

#define FX_PAGES 64
#define FX_BT 0x1000u
#define FX_SS(i) (0x1100u + 64u * (i))
#define FX_DATA 0x4000u
#define FX_UNMAPPED ((FX_PAGES - 1) * 4096u)

struct fixture {
	struct gt_phys *phys;
	uint8_t *mem;
	uint64_t ptes[FX_PAGES];
	struct gt_ggtt ggtt;
	struct dp_unit unit;
	struct eu_thread *t;
	uint8_t slm[1024];
};

static inline void fx_init(struct fixture *f, int gen)
{
	memset(f, 0, sizeof(*f));
	f->phys = phys_create();
	f->mem = aligned_alloc(4096, FX_PAGES * 4096);
	memset(f->mem, 0, FX_PAGES * 4096);
	uint64_t pa = phys_add(f->phys, f->mem, FX_PAGES * 4096);
	for (unsigned i = 0; i + 1 < FX_PAGES; i++)
		f->ptes[i] = (pa + 4096ull * i) | GT_PTE_PRESENT | GT_PTE_RW;
	f->ggtt = (struct gt_ggtt){ f->ptes, FX_PAGES * 4096ull };
	struct gt_vm vm = { .phys = f->phys, .ggtt = &f->ggtt };
	dp_unit_init(&f->unit, gen, &vm, 0, 0, 0, FX_BT);
	f->unit.slm = f->slm;
	f->unit.slm_size = sizeof(f->slm);
	f->t = aligned_alloc(64, sizeof(struct eu_thread));
	eu_thread_init(f->t, 16, 0xffff);
}

static inline void fx_fini(struct fixture *f)
{
	free(f->t);
	phys_destroy(f->phys);
	free(f->mem);
}

static inline uint32_t *fx_dw(struct fixture *f, uint32_t addr)
{
	return (uint32_t *)(void *)(f->mem + addr);
}

static inline void fx_bits(uint32_t *dw, unsigned hi, unsigned lo, uint32_t v)
{
	uint32_t m = (hi - lo == 31 ? ~0u : ((1u << (hi - lo + 1)) - 1)) << lo;
	*dw = (*dw & ~m) | ((v << lo) & m);
}

/* RENDER_SURFACE_STATE formats used here (PRM vol. 2d "SURFACE_FORMAT"). */
#define FX_R32G32B32A32_FLOAT 0x000
#define FX_R32_UINT 0x0d7
#define FX_R32_FLOAT 0x0d8
#define FX_R8G8B8A8_UNORM 0x0c7
#define FX_R16G16_UINT 0x0cf
#define FX_RAW 0x1ff

struct fx_surf {
	uint32_t type;                /* 1 2D, 4 buffer, 0 1D, 2 3D */
	uint32_t format, width, height, depth, pitch, tiling, qpitch;
	uint32_t lod, min_array;      /* MIP Count/LOD, Minimum Array Element */
	uint32_t min_lod;             /* Surface Min LOD */
	uint32_t rtve;                /* Render Target View Extent */
	bool array;
	uint32_t base;
};

/* Binding table entry i -> RENDER_SURFACE_STATE i. A buffer's width is
 * its entry count (spread over Width, Height, Depth). */
static inline void fx_surface(struct fixture *f, unsigned i, const struct fx_surf *s)
{
	uint32_t *ss = fx_dw(f, FX_SS(i));
	memset(ss, 0, 64);
	fx_bits(&ss[0], 31, 29, s->type);
	fx_bits(&ss[0], 28, 28, s->array);
	fx_bits(&ss[0], 26, 18, s->format);
	fx_bits(&ss[0], 17, 16, 1);                  /* VALIGN 4 */
	fx_bits(&ss[0], 15, 14, 1);                  /* HALIGN 4 */
	fx_bits(&ss[0], 13, 12, s->tiling);
	fx_bits(&ss[1], 14, 0, s->qpitch / 4);
	if (s->type == 4) {
		uint32_t n = s->width - 1;
		fx_bits(&ss[2], 6, 0, n & 0x7f);
		fx_bits(&ss[2], 29, 16, (n >> 7) & 0x3fff);
		fx_bits(&ss[3], 31, 21, (n >> 21) & 0x3ff);
	} else {
		fx_bits(&ss[2], 13, 0, s->width - 1);
		fx_bits(&ss[2], 29, 16, (s->height ? s->height : 1) - 1);
		fx_bits(&ss[3], 31, 21, (s->depth ? s->depth : 1) - 1);
	}
	fx_bits(&ss[3], 17, 0, s->pitch - 1);
	fx_bits(&ss[4], 28, 18, s->min_array);
	fx_bits(&ss[4], 17, 7, s->rtve);
	fx_bits(&ss[5], 3, 0, s->lod);
	fx_bits(&ss[5], 7, 4, s->min_lod);
	fx_bits(&ss[7], 27, 25, 4);                  /* SCS identity */
	fx_bits(&ss[7], 24, 22, 5);
	fx_bits(&ss[7], 21, 19, 6);
	fx_bits(&ss[7], 18, 16, 7);
	ss[8] = s->base;
	fx_dw(f, FX_BT)[i] = FX_SS(i);
}

/* A buffer of n bytes at base (RAW, stride 1: the way iris binds SSBOs). */
static inline void fx_buffer(struct fixture *f, unsigned i, uint32_t base, uint32_t n)
{
	struct fx_surf s = { .type = 4, .format = FX_RAW, .width = n, .pitch = 1, .base = base };
	fx_surface(f, i, &s);
}

/* Descriptor 18:14 type, 13:8 control, 7:0 BTI (Mesa's brw_dp_desc); with
 * mlen 28:25, rlen 24:20, header 19. */
static inline uint32_t fx_desc(unsigned type, unsigned ctrl, unsigned bti)
{
	return type << 14 | ctrl << 8 | bti;
}

#define FX_PAYLOAD 2     /* first payload register */
#define FX_RESP 40       /* first response register */

static inline int fx_send(struct fixture *f, unsigned sfid, uint32_t desc, unsigned simd,
			  unsigned mlen, unsigned rlen, bool header, uint32_t mask)
{
	desc |= (uint32_t)mlen << 25 | (uint32_t)rlen << 20 | (uint32_t)header << 19;
	struct eu_send m = {
		.sfid = (uint8_t)sfid, .desc = desc, .mlen = (uint8_t)mlen,
		.rlen = (uint8_t)rlen, .header = header, .func = desc & 0x7ffff,
		.src = FX_PAYLOAD, .dst = FX_RESP, .exec_size = (uint8_t)simd, .mask = mask,
	};
	f->t->state = EU_THREAD_READY;
	f->t->fault[0] = 0;
	return dp_sfid_handler(&f->unit, f->t, &m);
}

/* Slot i of the vector that starts at register reg. */
static inline void fx_set(struct fixture *f, unsigned reg, unsigned i, uint32_t v)
{
	eu_grf_set_ud(f->t, reg + i / 8, i % 8, v);
}

static inline uint32_t fx_get(struct fixture *f, unsigned reg, unsigned i)
{
	return eu_grf_ud(f->t, reg + i / 8, i % 8);
}

static inline void fx_fill_resp(struct fixture *f, unsigned regs, uint32_t v)
{
	for (unsigned r = 0; r < regs; r++)
		for (unsigned i = 0; i < 8; i++)
			eu_grf_set_ud(f->t, FX_RESP + r, i, v);
}

static inline uint32_t fbits(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	return u;
}

#endif
