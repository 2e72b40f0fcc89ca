/* What a data port message's binding table index names (PRM vol. 7 "Data
 * Port": "Binding Table", "Stateless Model", "Shared Local Memory") and
 * the bounded access to it: a RENDER_SURFACE_STATE through the thread's
 * binding table (buffers: entries x pitch bytes), 254 shared local memory,
 * 255/253 stateless from General State Base Address. Out of bounds: reads
 * return 0, writes are dropped (PRM "Out-of-Bounds Accesses"). */
#include <stdio.h>
#include <string.h>

#include "gpu/dataport/dp_priv.h"

/* The RENDER_SURFACE_STATEs this host thread decoded last, each keyed by
 * the generation and its 16 dwords as read from memory (decoding is a
 * pure function of them, so a state rewritten in place is decoded again).
 * Per host thread: the PS threads of a draw share one dp_unit and run on
 * several host threads (render/ps_pool.c). */
#define MEMO_ENTRIES 4
static __thread struct dp_surface_memo {
	int gen;                    /* 0: empty */
	uint32_t ss[16];
	struct surface_layout l;
} memo[MEMO_ENTRIES];
static __thread unsigned memo_next;

/* The layout of the state ss, valid until this host thread's next
 * message: from the memo, or decoded into it. */
static struct surface_layout *decode_state(struct dp_msg *m, const uint32_t ss[16])
{
	const int gen = m->u->gen;
	for (unsigned i = 0; i < MEMO_ENTRIES; i++)
		if (memo[i].gen == gen && !memcmp(memo[i].ss, ss, sizeof(memo[i].ss)))
			return &memo[i].l;
	char why[160];
	struct dp_surface_memo *e = &memo[memo_next++ % MEMO_ENTRIES];
	e->gen = 0;
	if (surface_layout_from_state(gen, ss, &e->l, why)) {
		dp_fail(m, "binding table entry %u: %s", m->bti, why);
		return NULL;
	}
	e->gen = gen;
	memcpy(e->ss, ss, sizeof(e->ss));
	return &e->l;
}

static int open_binding_table(struct dp_msg *m, struct dp_surface *s)
{
	const struct dp_unit *u = m->u;
	uint32_t entry = 0, ss[16];
	uint64_t bt = u->surface_base + u->binding_table + 4ull * m->bti;
	if (vm_read(&u->vm, bt, &entry, 4))
		return dp_fail(m, "page fault reading binding table entry %u at 0x%llx", m->bti,
			       (unsigned long long)bt);
	entry &= ~63u;
	if (!entry)
		return dp_fail(m, "binding table entry %u is unbound", m->bti);
	if (vm_read(&u->vm, u->surface_base + entry, ss, sizeof(ss)))
		return dp_fail(m, "page fault reading SURFACE_STATE at 0x%llx",
			       (unsigned long long)(u->surface_base + entry));
	if (!(s->l = decode_state(m, ss)))
		return -1;
	s->base = s->l->base;
	s->fi = format_info(s->l->format);
	switch (s->l->type) {
	case SURF_BUFFER:
		s->size = (uint64_t)s->l->width * s->l->pitch;
		break;
	case SURF_NULL:
		/* a null surface: every access is out of bounds (reads 0,
		 * writes dropped) */
		s->size = 0;
		break;
	case SURF_1D: case SURF_2D: case SURF_3D: case SURF_CUBE:
		/* typed access (dp_typed.c) bounds by coordinates; byte
		 * offsets into an image are not a layout Mesa uses */
		s->size = 0;
		break;
	default:
		return dp_fail(m, "binding table entry %u: surface type %u", m->bti, s->l->type);
	}
	return 0;
}

int dp_surface_open(struct dp_msg *m, struct dp_surface *s)
{
	memset(s, 0, sizeof(*s));
	s->bti = m->bti;
	switch (m->bti) {
	case DP_BTI_SLM:
		s->space = DP_SPACE_SLM;
		if (!m->u->slm)
			return dp_fail(m, "BTI 254 (shared local memory) in a thread without one");
		s->host = m->u->slm;
		s->size = m->u->slm_size;
		return 0;
	case DP_BTI_STATELESS:
	case DP_BTI_STATELESS_NC:
		s->space = DP_SPACE_STATELESS;
		s->base = m->u->general_base;
		s->size = UINT64_MAX;
		if (m->s->header) {
			/* the per-thread scratch space Mesa's scratch header
			 * copies from R0: M0.5 31:10 pointer, M0.3 3:0 size */
			const uint32_t *h = dp_payload(m, 0);
			s->base += h[5] & ~1023u;
			s->size = 1024ull << (h[3] & 15);
		}
		return 0;
	case DP_BTI_BINDLESS:
		return dp_fail(m, "BTI 252 (bindless surfaces) is not implemented");
	default:
		s->space = DP_SPACE_SURFACE;
		return open_binding_table(m, s);
	}
}

void dp_surface_a64(struct dp_surface *s)
{
	memset(s, 0, sizeof(*s));
	s->space = DP_SPACE_A64;
	s->size = UINT64_MAX;
}

int dp_surface_typed(struct dp_msg *m, struct dp_surface *s)
{
	if (s->space != DP_SPACE_SURFACE)
		return dp_fail(m, "typed access to BTI %u, which is not a surface", s->bti);
	if (s->l->type == SURF_NULL)
		return 0;
	if (!s->fi || !s->fi->supported || s->fi->bpe % 8 || s->fi->bpe > 128)
		return dp_fail(m, "surface format %u (%s) is not implemented for typed access",
			       s->l->format, format_name(s->l->format));
	if (s->l->samples > 1)
		return dp_fail(m, "typed access to a multisampled surface is not implemented");
	/* a function of the format, so the same for every user of the memo */
	s->l->cpp = s->fi->bpe / 8;
	/* images are bounded by their coordinates (dp_typed_offset) */
	if (s->l->type != SURF_BUFFER)
		s->size = UINT64_MAX;
	return 0;
}

static bool in_bounds(const struct dp_surface *s, uint64_t off, unsigned len)
{
	return off <= s->size && len <= s->size - off;
}

/* An SLM address keeps its low 16 bits only (dp_priv.h). */
static uint64_t space_offset(const struct dp_surface *s, uint64_t off)
{
	return s->space == DP_SPACE_SLM ? off & DP_SLM_ADDRESS_MASK : off;
}

static int page_fault(struct dp_msg *m, const struct dp_surface *s, uint64_t off, bool write)
{
	return dp_fail(m, "page fault %s 0x%llx (BTI %u + 0x%llx)", write ? "writing" : "reading",
		       (unsigned long long)(s->base + off), s->bti, (unsigned long long)off);
}

/* The host bytes of [va, va + len) when they lie in one 4 KB page of
 * graphics memory: through the page the message mapped last, or a new
 * mapping (a GPU page is one host page, as gpu/mem's translation cache
 * has it). NULL when they cross a page or the page does not map: the
 * caller then copies through vm_read/vm_write, which fault. */
static uint8_t *msg_map(struct dp_msg *m, uint64_t va, unsigned len, bool write)
{
	uint64_t page = va & ~4095ull, in = va & 4095;
	if (in + len > 4096)
		return NULL;
	if (m->map_host && m->map_page == page && (m->map_write || !write))
		return m->map_host + in;
	uint64_t avail = 0;
	uint8_t *p = vm_map(&m->u->vm, va, write, &avail);
	if (!p || avail < len)
		return NULL;
	m->map_page = page;
	m->map_host = p - in;
	m->map_write = write;
	return p;
}

int dp_read(struct dp_msg *m, const struct dp_surface *s, uint64_t off, void *dst, unsigned len,
	    bool *oob)
{
	off = space_offset(s, off);
	*oob = !in_bounds(s, off, len);
	if (*oob) {
		memset(dst, 0, len);
		return 0;
	}
	if (s->space == DP_SPACE_SLM) {
		memcpy(dst, s->host + off, len);
		return 0;
	}
	uint8_t *p = msg_map(m, s->base + off, len, false);
	if (p)
		memcpy(dst, p, len);
	else if (vm_read(&m->u->vm, s->base + off, dst, len))
		return page_fault(m, s, off, false);
	return 0;
}

int dp_write(struct dp_msg *m, const struct dp_surface *s, uint64_t off, const void *src,
	     unsigned len, bool *oob)
{
	off = space_offset(s, off);
	*oob = !in_bounds(s, off, len);
	if (*oob)
		return 0;
	if (s->space == DP_SPACE_SLM) {
		memcpy(s->host + off, src, len);
		return 0;
	}
	uint8_t *p = msg_map(m, s->base + off, len, true);
	if (p)
		memcpy(p, src, len);
	else if (vm_write(&m->u->vm, s->base + off, src, len))
		return page_fault(m, s, off, true);
	return 0;
}

uint32_t *dp_atomic_ptr(struct dp_msg *m, const struct dp_surface *s, uint64_t off, bool *oob)
{
	off = space_offset(s, off);
	*oob = !in_bounds(s, off, 4);
	if (*oob)
		return NULL;
	if (off % 4) {
		dp_fail(m, "atomic at 0x%llx is not dword aligned", (unsigned long long)off);
		return NULL;
	}
	if (s->space == DP_SPACE_SLM)
		return (uint32_t *)(void *)(s->host + off);
	uint64_t avail = 0;
	void *p = vm_map(&m->u->vm, s->base + off, true, &avail);
	if (!p || avail < 4) {
		page_fault(m, s, off, true);
		return NULL;
	}
	return p;
}

void dp_tr_surface(struct dp_msg *m, const struct dp_surface *s)
{
	switch (s->space) {
	case DP_SPACE_SLM:
		dp_tr(m, "slm (%llu bytes)", (unsigned long long)s->size);
		break;
	case DP_SPACE_STATELESS:
		if (s->size == UINT64_MAX)
			dp_tr(m, "bti %u stateless from 0x%llx", s->bti, (unsigned long long)s->base);
		else
			dp_tr(m, "bti %u scratch 0x%llx (%llu bytes)", s->bti,
			      (unsigned long long)s->base, (unsigned long long)s->size);
		break;
	case DP_SPACE_A64:
		dp_tr(m, "a64");
		break;
	default:
		dp_tr(m, "bti %u type %u %s 0x%llx size %llu", s->bti, s->l->type,
		      format_name(s->l->format), (unsigned long long)s->base,
		      (unsigned long long)s->size);
	}
}
