/* The registers each GEM context has its own values of, per engine (the
 * register state of i915's logical ring context, intel_lrc.c): in
 * execlists mode the hardware saves them into the context image when it
 * switches away and loads them when it switches back, and a new context
 * starts from the default image i915 records at init
 * (engine->default_state). gtsim submits through a ring, so the kernel
 * does the switch itself with commands: each context image slot (one per
 * context and engine map slot that ran on the engine) holds the values
 * and two privileged batches the ring calls at a switch, "save" (an
 * MI_STORE_REGISTER_MEM per register into the slot; for a masked register
 * MI_ATOMIC ORs the write enables 0xffff0000 into the saved value, as
 * the hardware's image keeps them) and "restore" (an
 * MI_LOAD_REGISTER_MEM per register). Slot 0 of each engine is the
 * default image: its save batch runs once from the ring before the first
 * request, so it holds the power-on values, and a context's first request
 * restores from it.
 *
 * Slots live in arenas of kernel objects bound pinned in the GGTT, never
 * unbound before the device goes, so a ring that still calls a freed
 * slot's batch writes memory nobody reads (the slot's next owner starts
 * from the default image). dev->lock guards allocation; the emission
 * uses only the GGTT addresses the request carries. */
#ifndef GTSIM_KERNEL_LRC_H
#define GTSIM_KERNEL_LRC_H

#include <stdbool.h>
#include <stdint.h>

#include "common/devinfo.h"

struct rq_engine;
struct gem_object;

/* One context-saved register: its offset (absolute, or from the engine's
 * MMIO base when relative), dwords, and whether it is masked. */
struct lrc_reg {
	uint32_t offset;
	uint8_t count;
	bool relative;
	bool masked;
};

/* The engine's context-saved registers on gen (8 or 9), as absolute
 * dword offsets with their masked flag: fills up to max entries, returns
 * how many there are. */
unsigned lrc_reg_list(int gen, enum gt_engine_id id, uint32_t *offsets, bool *masked,
		      unsigned max);

#define LRC_SLOT_BYTES 8192u
#define LRC_IMAGE_OFFSET 0u        /* the register values, in list order */
#define LRC_SAVE_OFFSET 1024u      /* the save batch */
#define LRC_RESTORE_OFFSET 4096u   /* the restore batch */
#define LRC_ARENA_SLOTS 64u
/* The slot's timeline (i915's intel_timeline of an intel_context): the
 * dword each request's breadcrumb writes its timeline seqno to (the
 * context's HWSP seqno, which other engines' MI_SEMAPHORE_WAITs poll:
 * i915_request.c emit_semaphore_wait), and the last seqno handed out, a
 * CPU-only dword (dev->lock). Both outlive the slot's owners, so a
 * reused slot's seqnos keep rising. Between the image and the save
 * batch. */
#define LRC_TIMELINE_OFFSET 1016u
#define LRC_TIMELINE_NEXT 1020u

/* The ring of a context on an engine (i915's intel_ring of an
 * intel_context: each context has its own on execlists), one per slot,
 * allocated with it at the context's first request there; slot 0's is
 * the engine's kernel context's. Its write position outlives the slot's
 * owners (a freed slot's ring may still be the one the engine has
 * loaded). A kernel object of its own, bound pinned in the GGTT (small
 * enough for the object store's slab, which the engine's command fetch
 * translates fastest). Engine lock, except `obj`, `map`, `ggtt`, `size`,
 * `state`. */
struct ctx_ring {
	struct gem_object *obj;
	uint32_t *map;               /* host view */
	uint64_t ggtt;
	uint32_t size;               /* bytes, a power of two */
	uint32_t emit;               /* next byte to write */
	uint32_t space_head;         /* last HEAD known, for space accounting */
	unsigned queued;             /* its requests not emitted yet */
	/* The context image's ring registers (LRC_RING_STATE_OFFSET). */
	volatile uint32_t *state;
};

/* Does ring offset x lie in [from, to] of r, going forward (wrapping)? */
static inline bool ring_span_has(const struct ctx_ring *r, uint32_t from, uint32_t x, uint32_t to)
{
	uint32_t mask = r->size - 1;
	return ((x - from) & mask) <= ((to - from) & mask);
}

/* i915 6.1: every user context's ring is SZ_16K (intel_context_set_gem;
 * I915_CONTEXT_PARAM_RINGSIZE was removed in 5.15, set and get are
 * -EINVAL), the kernel context's too here. */
#define CTX_RING_BYTES (16u * 1024)

/* The ring registers in a context image, at the dwords the PRM's
 * Register State Context of an execlist context has them (BDW PRM vol.
 * 7 "Execlist Context"; i915's CTX_RING_* in gt/intel_lrc_reg.h): dword
 * 0 MI_NOOP, 1 MI_LOAD_REGISTER_IMM, then (register, value) pairs:
 * CTX_CONTEXT_CONTROL at 2, RING_HEAD at 4, RING_TAIL at 6,
 * RING_BUFFER_START at 8, RING_BUFFER_CONTROL at 10. The engine loads
 * them when it switches to the context (request.c ring_switch). */
#define LRC_RING_STATE_OFFSET 768u
#define LRC_RING_STATE_DWORDS 12u
#define CTX_RING_HEAD 5u
#define CTX_RING_TAIL 7u
#define CTX_RING_START 9u
#define CTX_RING_CTL 11u

struct lrc_arena {
	struct gem_object *obj;
	uint64_t ggtt;
	uint32_t *map;
	struct ctx_ring *rings;      /* its slots' */
};

/* Per engine (inside struct rq_engine). */
struct lrc_pool {
	struct lrc_arena *arenas;
	unsigned narenas;
	unsigned nslots;           /* slots handed out so far, 0 = default */
	uint32_t *free;            /* freed slot ids (room for every slot) */
	unsigned nfree;
};

/* The default image (slot 0) and the commands that record it: writes the
 * ring dwords (an MI_BATCH_BUFFER_START of slot 0's save batch) into
 * dw, returns how many (0 on failure). dev->lock held, before the
 * engine's first request. */
unsigned lrc_engine_setup(struct rq_engine *e, uint32_t *dw);
void lrc_engine_fini(struct rq_engine *e);
/* A slot for a context on the engine (id > 0), or 0 when out of memory. */
uint32_t lrc_slot_alloc(struct rq_engine *e);
void lrc_slot_free(struct rq_engine *e, uint32_t id);
uint64_t lrc_slot_ggtt(const struct rq_engine *e, uint32_t id);
/* The host view of the slot's dword at byte offset off. */
volatile uint32_t *lrc_slot_dword(const struct rq_engine *e, uint32_t id, uint32_t off);
/* The slot's ring (see struct ctx_ring). */
struct ctx_ring *lrc_slot_ring(const struct rq_engine *e, uint32_t id);
/* An MI_BATCH_BUFFER_START (GGTT, so privileged) of addr into dw: 3
 * (lrc_call_dwords). */
unsigned lrc_emit_call(int gen, uint32_t *dw, uint64_t addr);
unsigned lrc_call_dwords(int gen);

#endif
