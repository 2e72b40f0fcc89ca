/* Inside the data port: one message being executed, the message table,
 * the memory a message addresses (dp_surface.c) and the trace line it
 * leaves (category "dp"). Not a contract: other units use dataport.h. */
#ifndef GTSIM_DATAPORT_DP_PRIV_H
#define GTSIM_DATAPORT_DP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/dataport/dataport.h"
#include "gpu/format/format.h"
#include "gpu/surface/surface.h"

/* Special binding table indices (PRM vol. 7 "Binding Table", Mesa's
 * brw_eu_defines.h): 255 stateless IA-coherent, 254 shared local memory,
 * 253 stateless non-coherent (Gen8+), 252 bindless (Gen9, not used by the
 * 3D stages). */
#define DP_BTI_STATELESS 255
#define DP_BTI_SLM 254
#define DP_BTI_STATELESS_NC 253
#define DP_BTI_BINDLESS 252

#define DP_MAX_SLOTS 16

/* Shared local memory addresses (BTI 254): only bits 15:0 are significant,
 * the 64 KB that INTERFACE_DESCRIPTOR_DATA's Shared Local Memory Size can
 * give a group at most on Gen8 and Gen9; higher bits are ignored. Intel's
 * OpenCL compiler relies on it: IGC sets bit 28 in every valid __local
 * pointer (its VALID_LOCAL_HIGH_BITS, whose comment states that only the
 * low 16 bits of SLM addresses are significant) so that none is null.
 * Within the 64 KB an access past the group's SLM size is out of bounds, as
 * for any surface. */
#define DP_SLM_ADDRESS_MASK 0xffffull

struct dp_msg;
typedef int (*dp_msg_fn)(struct dp_msg *m);

/* One message type: the single table (dp_table.c) the handler and the
 * trace both read. type is descriptor 18:14; for data cache 0 the scratch
 * block messages (bit 18 set) are keyed 0x10 (read) and 0x18 (write, bit
 * 17). gens: DP_GEN8 | DP_GEN9. fn NULL: a known message gtsim does not
 * implement (a fault naming it). */
#define DP_GEN8 1u
#define DP_GEN9 2u
struct dp_msg_info {
	const char *name;
	uint8_t sfid;
	uint8_t type;
	uint8_t gens;
	dp_msg_fn fn;
};

/* NULL when no message of that SFID has that type. */
const struct dp_msg_info *dp_msg_lookup(unsigned sfid, unsigned type);
/* The table key of a descriptor (see struct dp_msg_info). */
unsigned dp_msg_type(unsigned sfid, uint32_t desc);

/* Where a message's addresses point. */
enum dp_space {
	DP_SPACE_SURFACE,     /* a RENDER_SURFACE_STATE through the binding table */
	DP_SPACE_SLM,         /* BTI 254: the thread group's shared local memory */
	DP_SPACE_STATELESS,   /* BTI 255/253: General State Base relative (A32) */
	DP_SPACE_A64,         /* 64-bit graphics addresses */
};

struct dp_surface {
	uint8_t space;              /* enum dp_space */
	unsigned bti;
	uint64_t base;              /* graphics address offsets are added to */
	uint64_t size;              /* bytes from base in bounds */
	uint8_t *host;              /* SLM */
	/* DP_SPACE_SURFACE: the state, interpreted (an entry of the host
	 * thread's memo in dp_surface.c, valid while the message runs); NULL
	 * for the other spaces */
	struct surface_layout *l;
	const struct fmt_info *fi;
	/* typed access: the view of the level and slice addressed last
	 * (view_valid false until the first) */
	bool view_valid;
	uint32_t view_level, view_slice;
	struct surface_view view;
};

/* The message in flight. */
struct dp_msg {
	struct dp_unit *u;
	struct eu_thread *t;
	const struct eu_send *s;
	const struct dp_msg_info *info;
	unsigned bti;               /* descriptor 7:0 */
	unsigned ctrl;              /* descriptor 13:8: message-specific control */
	uint32_t oob;               /* slots with an out-of-bounds access */
	/* the 4 KB page of graphics memory the message mapped last
	 * (dp_surface.c): its address and host bytes, writable or not; a
	 * message's slots mostly hit one page */
	uint64_t map_page;
	uint8_t *map_host;
	bool map_write;
	bool tracing;
	size_t trn;
	char tr[1024];              /* the trace line's details */
};

/* Appends to the message's trace line (only while tracing). */
void dp_tr(struct dp_msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A thread fault naming the message: "ip 0x..: <name>: <why>"; -1. */
int dp_fail(struct dp_msg *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* dp_surface.c */
/* Resolve the message's BTI (m->bti) to memory. Stateless with a header:
 * the per-thread scratch space of header M0.5 31:10 (from General State
 * Base) and M0.3 3:0 (its size, 1 KB << n) as Mesa copies them from R0;
 * without one, General State Base and no bound. */
int dp_surface_open(struct dp_msg *m, struct dp_surface *s);
/* A 64-bit (A64) address space: base 0, every address in bounds. */
void dp_surface_a64(struct dp_surface *s);
/* A buffer or surface needs a layout for typed access: cpp and format. */
int dp_surface_typed(struct dp_msg *m, struct dp_surface *s);
/* Copy len bytes at offset off (len <= 64). An access past s->size is out
 * of bounds: reads give 0 and writes are dropped, *oob set; a page fault
 * inside the bounds faults the thread (-1). */
int dp_read(struct dp_msg *m, const struct dp_surface *s, uint64_t off, void *dst, unsigned len,
	    bool *oob);
int dp_write(struct dp_msg *m, const struct dp_surface *s, uint64_t off, const void *src,
	     unsigned len, bool *oob);
/* The host dword at off for an atomic (4-byte aligned): NULL with *oob for
 * an out-of-bounds address, NULL with the thread faulted otherwise. */
uint32_t *dp_atomic_ptr(struct dp_msg *m, const struct dp_surface *s, uint64_t off, bool *oob);
/* "bti 3 surface 0x1000+256", "slm", "stateless 0x..", for traces */
void dp_tr_surface(struct dp_msg *m, const struct dp_surface *s);

/* Payload register k as dwords (NULL past mlen) and response register k. */
const uint32_t *dp_payload(struct dp_msg *m, unsigned k);
uint32_t *dp_response(struct dp_msg *m, unsigned k);
/* Checks the message's lengths: mlen and rlen exactly as the layout says. */
int dp_check_len(struct dp_msg *m, unsigned mlen, unsigned rlen);
/* Dword slot i of the SIMD8/16 vector that starts at payload register k. */
uint32_t dp_slot(struct dp_msg *m, unsigned k, unsigned i);
void dp_set_slot(struct dp_msg *m, unsigned k, unsigned i, uint32_t v);
/* The slots a message handles: the send's channel enables. */
static inline uint32_t dp_slots(const struct dp_msg *m, unsigned simd)
{
	return m->s->mask & (simd >= 32 ? ~0u : (1u << simd) - 1);
}

/* dp_block.c: OWords of an OWord block size (descriptor 10:8: 0 and 1 one
 * OWord, low and high half; 2, 3, 4: 2, 4, 8); 0 for a reserved value. */
unsigned dp_owords_of(unsigned bs);

/* The message handlers, by file. */
int dp_oword_block_read(struct dp_msg *m);     /* dp_block.c */
int dp_oword_block_write(struct dp_msg *m);
int dp_scratch_block(struct dp_msg *m);
int dp_dword_scattered(struct dp_msg *m);      /* dp_scattered.c */
int dp_byte_scattered(struct dp_msg *m);
int dp_untyped_rw(struct dp_msg *m);           /* dp_untyped.c */
int dp_untyped_atomic(struct dp_msg *m);       /* dp_atomic.c */
int dp_untyped_atomic_float(struct dp_msg *m);
int dp_typed_atomic(struct dp_msg *m);
int dp_typed_rw(struct dp_msg *m);             /* dp_typed.c */
int dp_a64_untyped_rw(struct dp_msg *m);       /* dp_a64.c */
int dp_a64_scattered(struct dp_msg *m);
int dp_a64_atomic(struct dp_msg *m);
int dp_a64_atomic_float(struct dp_msg *m);
int dp_a64_oword_block(struct dp_msg *m);
int dp_fence(struct dp_msg *m);                /* dp_fence.c */
int dp_media_block(struct dp_msg *m);          /* dp_media.c */

/* dp_untyped.c: reads or writes the channels (cmask bits set = skipped)
 * of every slot at addr[slot] (+ 4 per channel), the layout of the untyped
 * surface messages and their A64 form: data at payload register data_reg
 * (writes) or the response (reads), simd/8 registers per channel. */
int dp_untyped_slots(struct dp_msg *m, const struct dp_surface *s, const uint64_t *addr,
		     unsigned simd, unsigned cmask, bool write, unsigned data_reg);

/* dp_atomic.c: the integer (AOP_*) and float (FOP_*) operations; sets
 * *result (what the dword becomes) from old and the sources; the value a
 * lane returns is old except for PREDEC (the new value). -1 for an
 * operation number that is reserved. */
int dp_aop_apply(unsigned op, uint32_t old, uint32_t src0, uint32_t src1, uint32_t *result);
int dp_fop_apply(unsigned op, uint32_t old, uint32_t src0, uint32_t src1, uint32_t *result);
/* How many source operands an integer / float operation takes. */
unsigned dp_aop_sources(unsigned op);
unsigned dp_fop_sources(unsigned op);
/* Performs one atomic on the dword of slot i at offset off, tracing old
 * and new; *ret gets the value the lane returns. */
int dp_atomic_slot(struct dp_msg *m, const struct dp_surface *s, uint64_t off, bool is_float,
		   unsigned op, uint32_t src0, uint32_t src1, uint32_t *ret, unsigned slot);

/* dp_typed.c: the byte offset from s->base of the texel at coordinates
 * c (U, V, R, LOD: buffers U; 1D U and V the array index; 2D and cube
 * U, V and R the layer; 3D U, V, R) of a surface made ready by
 * dp_surface_typed; *oob when they lie outside it. */
int dp_typed_offset(struct dp_msg *m, struct dp_surface *s, const uint32_t c[4],
		    uint64_t *off, bool *oob);
/* The slots a typed message's header enables (M0.7 15:0, the upper half
 * for the upper slot group); every slot without a header. */
uint32_t dp_typed_header_mask(struct dp_msg *m, unsigned header, bool high);

#endif
