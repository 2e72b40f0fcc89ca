/* One EU hardware thread (PRM vol. 7 "EU Overview: Registers"): 128 GRFs of
 * 32 bytes, the architecture registers, and the per-channel state of a
 * SIMD8/16/32 dispatch. The executor (exec.h) runs a program on it.
 *
 * All registers live in one byte array `regs`: GRF n at n*32, then the
 * architecture registers that exist, 32 bytes each (eu_arf_slot: null,
 * a0, acc0-acc9, f0-f1, ce0, msg0-1, sp, sr0-1, cr0, n0-1, ip, tdr0, tm0).
 * A region is then a list of byte offsets into one array, which keeps
 * operand access uniform and every bound one check. */
#ifndef GTSIM_EU_THREAD_H
#define GTSIM_EU_THREAD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gpu/eu/inst.h"

#define EU_GRF_COUNT   128
#define EU_REG_SIZE    32
#define EU_GRF_BYTES   (EU_GRF_COUNT * EU_REG_SIZE)          /* 4096 */
#define EU_ARF_BASE    EU_GRF_BYTES
#define EU_ARF_SLOTS   26
#define EU_REGS_BYTES  (EU_ARF_BASE + 32 * EU_REG_SIZE)      /* 5120 */
#define EU_MAX_CHANNELS 32

struct sfid_table;

/* Why a thread stopped. */
enum eu_thread_state {
	EU_THREAD_READY = 0,  /* runnable */
	EU_THREAD_DONE,       /* ended by a send with EOT */
	EU_THREAD_FAULT,      /* illegal instruction or shared-function fault */
	EU_THREAD_LIMIT,      /* instruction budget used up (a hang) */
	EU_THREAD_WAIT,       /* suspended at `wait n0` with no notification
			       * pending: its owner makes it READY again when
			       * one arrives (message gateway) and calls
			       * exec_run, which re-executes the wait */
};

struct eu_thread {
	/* GRFs then ARFs, 64-byte aligned: allocate threads statically or
	 * with aligned_alloc(64, sizeof(struct eu_thread)) (the size is a
	 * multiple of 64). */
	_Alignas(64) uint8_t regs[EU_REGS_BYTES];

	/* Accumulator with the precision the hardware keeps beyond the
	 * 32-bit view in acc0/acc1 (integer mul/mach/mac/addc/subb), one
	 * value per channel (PRM "Accumulator Registers"). */
	union { int64_t i; double d; } acc_wide[EU_MAX_CHANNELS];

	/* Dispatch: SIMD width and the channels that hold real work. */
	uint8_t simd;                 /* 8, 16 or 32 */
	uint32_t dispatch_mask;
	/* Channel-enable state, per-channel IP model (PRM "Structured
	 * control flow"): a live channel is enabled iff its pcip equals the
	 * thread's IP. `active` caches that set for the current IP. */
	uint32_t active;
	uint32_t live;                /* dispatched and not halted for good */
	uint32_t pcip[EU_MAX_CHANNELS]; /* instruction index a channel waits at */
	uint32_t ip;                  /* index into the decoded program */
	uint32_t wake_at;             /* lowest pcip of a waiting channel */

	enum eu_thread_state state;
	uint64_t instructions;        /* executed so far */
	uint64_t channel_ops;         /* enabled channels summed over ALU ops */
	char fault[160];              /* why, when state == EU_THREAD_FAULT */

	/* The host's SSE control word (MXCSR) while exec_run runs this
	 * thread (exec_float.c exec_fp_*): the host's own, the EU's (DAZ and
	 * FTZ set), the handlers' (both clear), and the one loaded now, so
	 * that a send switches with one load and no read-back. fp_on: inside
	 * exec_run. */
	uint32_t fp_host, fp_eu, fp_ieee, fp_cur;
	bool fp_on;

	/* Shared functions reached by send (send.h); may be NULL. Every
	 * handler receives sfid_units, the contexts of the units it reaches. */
	const struct sfid_table *sfids;
	void *sfid_units;
	void *user;                   /* owner's cookie (dispatcher) */
};

/* Registers of the thread as bytes. */
static inline uint8_t *eu_grf(struct eu_thread *t, unsigned nr)
{
	return t->regs + (nr % EU_GRF_COUNT) * EU_REG_SIZE;
}
/* Storage slot of architecture register nr (enum eu_arf + instance), or
 * -1 when Gen8/9 has no such register. *count: registers in its class
 * from this one on (acc0 -> 10). */
static inline int eu_arf_slot(unsigned nr, unsigned *left)
{
	/* per class (nr >> 4): first slot, number of registers */
	static const uint8_t first[13] = { 0, 1, 2, 12, 14, 15, 17, 18, 20, 21, 23, 24, 25 };
	static const uint8_t count[13] = { 1, 1, 10, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1 };
	unsigned cls = (nr >> 4) & 15, inst = nr & 15;
	if (cls >= 13 || inst >= count[cls])
		return -1;
	if (left)
		*left = count[cls] - inst;
	return first[cls] + (int)inst;
}
/* An architecture register's 32 bytes (nr must exist: enum eu_arf). */
static inline uint8_t *eu_arf(struct eu_thread *t, unsigned arf_nr)
{
	int slot = eu_arf_slot(arf_nr, NULL);
	return t->regs + EU_ARF_BASE + (slot < 0 ? 0 : slot) * EU_REG_SIZE;
}
static inline const uint8_t *eu_arf_c(const struct eu_thread *t, unsigned arf_nr)
{
	int slot = eu_arf_slot(arf_nr, NULL);
	return t->regs + EU_ARF_BASE + (slot < 0 ? 0 : slot) * EU_REG_SIZE;
}
static inline uint32_t eu_grf_ud(const struct eu_thread *t, unsigned nr,
				 unsigned dw)
{
	uint32_t v;
	memcpy(&v, t->regs + (nr % EU_GRF_COUNT) * EU_REG_SIZE + (dw % 8) * 4, 4);
	return v;
}
static inline void eu_grf_set_ud(struct eu_thread *t, unsigned nr, unsigned dw,
				 uint32_t v)
{
	memcpy(t->regs + (nr % EU_GRF_COUNT) * EU_REG_SIZE + (dw % 8) * 4, &v, 4);
}

/* Reset every register and set up a dispatch of `simd` channels of which
 * `mask` are enabled (only the low `simd` bits count). */
void eu_thread_init(struct eu_thread *t, unsigned simd, uint32_t mask);
/* The same for a new dispatch on a thread already initialised, except that
 * the GRFs keep what the previous thread left, as on the hardware, where a
 * register the payload does not load is undefined: the dispatcher writes
 * every register of its payload whole. */
void eu_thread_dispatch(struct eu_thread *t, unsigned simd, uint32_t mask);

/* Stop the thread with an illegal-instruction / GPU fault; the message is
 * kept in t->fault and traced under "eu". Returns -1 for convenience. */
int eu_thread_fault(struct eu_thread *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Flag register bits f0 (low 32) and f1 (high 32) as one 64-bit value. */
uint64_t eu_thread_flags(const struct eu_thread *t);
void eu_thread_set_flags(struct eu_thread *t, uint64_t flags);

#endif
