/* The shared functions an EU thread reaches with send/sendc (PRM vol. 7
 * "Messages", "Shared Functions"): URB, sampler, data ports, message
 * gateway, thread spawner. The executor decodes the message descriptor and
 * calls the handler its thread's table names for the SFID, with the
 * thread's unit contexts (whatever the stage's owner gives it, e.g. the
 * draw's URB and sampler), the thread, whose payload registers it reads and
 * whose response registers it writes. A message to an SFID with no handler
 * is a GPU fault with a trace naming the shared function. */
#ifndef GTSIM_EU_SEND_H
#define GTSIM_EU_SEND_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/eu/inst.h"
#include "gpu/eu/thread.h"

#define SFID_COUNT 16

/* One decoded send message. Register numbers are GRFs and already checked
 * to lie inside g0..g127. A split send (Gen9 sends/sendsc) has its payload
 * in two parts, mlen - ex_mlen registers from src then ex_mlen from src2;
 * eu_send_payload(t, msg, k) hides the split, so handlers just read
 * registers 0..mlen-1. */
struct eu_send {
	uint8_t sfid;          /* enum eu_sfid */
	uint32_t desc;         /* message descriptor */
	uint32_t ex_desc;      /* extended descriptor */
	uint8_t mlen;          /* payload registers in all (desc 28:25, plus
				* ex_desc 9:6 for a split send) */
	uint8_t ex_mlen;       /* of which in the second part (split send) */
	uint8_t src2;          /* first register of the second part */
	uint8_t rlen;          /* response registers (desc 24:20) */
	bool header;           /* header present (desc 19) */
	uint32_t func;         /* function control (desc 18:0), per SFID */
	bool eot;              /* end of thread after this message */
	bool sendc;            /* sendc/sendsc: dependency-checked form */
	bool split;            /* sends/sendsc */
	uint8_t src;           /* first payload GRF */
	uint8_t dst;           /* first response GRF (rlen > 0) */
	uint8_t exec_size;     /* SIMD width of the send (1..32) */
	uint8_t group;         /* first channel (quarter control) */
	uint32_t mask;         /* enabled channels, bit i = channel group+i */
	uint32_t ip;           /* byte offset of the send, for traces */
};

/* Handles one message; units is the thread's sfid_units. Returns 0, or -1
 * for a fault (the handler may call eu_thread_fault itself with a precise
 * message). */
typedef int (*sfid_handler)(void *units, struct eu_thread *t,
			    const struct eu_send *msg);

/* SFID -> handler; NULL: no unit implements it (a send there faults). The
 * owner of a stage's threads defines one constant table per stage. */
struct sfid_table {
	sfid_handler fn[SFID_COUNT];
};

/* "urb", "sampler", "dp_dc0", ... or "sfid?" */
const char *sfid_name(unsigned sfid);
/* Calls the handler of msg->sfid with t->sfid_units: 0, or -1 after
 * faulting the thread (no table or handler, or the handler failed). */
int sfid_dispatch(const struct sfid_table *tab, struct eu_thread *t,
		  const struct eu_send *msg);

/* Payload register k (0 <= k < mlen) and response register k (k < rlen)
 * of a message, as 32 bytes; NULL when k is out of range. */
const uint8_t *eu_send_payload(const struct eu_thread *t,
			       const struct eu_send *msg, unsigned k);
uint8_t *eu_send_response(struct eu_thread *t, const struct eu_send *msg,
			  unsigned k);

#endif
