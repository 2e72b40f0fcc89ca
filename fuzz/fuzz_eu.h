/* What the EU targets (eu, eu_jit) share: the input's layout and the
 * stand-in shared function their sends reach.
 *
 * Input: gen (bit 0 of the first byte), SIMD width (bits 1-2), dispatch
 * mask, 256 bytes spread over the first GRFs (the payload: g0 headers,
 * addresses, values), then the program's bytes.
 *
 * A send reaches a stand-in shared function on every SFID that reads the
 * whole payload and fills the whole response with bytes computed from the
 * payload (so two runs that send the same message get the same response),
 * which lets the executor's message plumbing (split sends, register
 * ranges, EOT) run without a device. With a log (thread's sfid_units) it
 * also records each message: its fields, then its payload registers. */
#ifndef GTSIM_FUZZ_EU_H
#define GTSIM_FUZZ_EU_H

#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "gpu/eu/exec.h"
#include "gpu/eu/send.h"

#define EU_BUDGET 20000

struct eu_case {
	int gen;
	unsigned simd;
	uint32_t mask;
	uint8_t payload[256];
	uint8_t *bytes;       /* the program, an exact-size heap copy */
	size_t len;
};

/* NULL bytes when out of memory. */
static inline void eu_case_read(struct eu_case *c, const uint8_t *data, size_t size)
{
	struct fuzz_input in = fuzz_input(data, size);
	uint8_t how = fuzz_u8(&in);
	c->gen = how & 1 ? 9 : 8;
	c->simd = 8u << ((how >> 1) % 3);
	c->mask = fuzz_u32(&in);
	fuzz_bytes(&in, c->payload, sizeof(c->payload));
	c->len = fuzz_left(&in);
	/* An exact-size copy of the program: ASan sees reads past its end. */
	c->bytes = malloc(c->len ? c->len : 1);
	if (c->bytes)
		fuzz_bytes(&in, c->bytes, c->len);
}

/* The messages a run sent, as bytes: per message its eu_send fields,
 * then mlen registers of payload. */
struct eu_msg_log {
	uint8_t *b;
	size_t len, cap;
	unsigned count;
};

static inline void eu_log_put(struct eu_msg_log *l, const void *p, size_t n)
{
	if (l->len + n > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		while (cap < l->len + n)
			cap *= 2;
		uint8_t *nb = realloc(l->b, cap);
		if (!nb)
			abort();
		l->b = nb;
		l->cap = cap;
	}
	memcpy(l->b + l->len, p, n);
	l->len += n;
}

static int eu_any_message(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	struct eu_msg_log *log = units;
	if (log) {
		/* field by field: the struct's padding is not part of the message */
		uint32_t f[] = { msg->sfid, msg->desc, msg->ex_desc, msg->mlen,
				 msg->ex_mlen, msg->src2, msg->rlen, msg->header,
				 msg->func, msg->eot, msg->sendc, msg->split, msg->src,
				 msg->dst, msg->exec_size, msg->group, msg->mask, msg->ip };
		eu_log_put(log, f, sizeof(f));
		log->count++;
	}
	uint32_t sum = 0;
	for (unsigned k = 0; k < msg->mlen; k++) {
		const uint8_t *r = eu_send_payload(t, msg, k);
		if (!r)
			return eu_thread_fault(t, "payload register %u of %u missing", k, msg->mlen);
		if (log)
			eu_log_put(log, r, 32);
		for (unsigned b = 0; b < 32; b++)
			sum = sum * 31 + r[b];
	}
	for (unsigned k = 0; k < msg->rlen; k++) {
		uint8_t *r = eu_send_response(t, msg, k);
		if (!r)
			return eu_thread_fault(t, "response register %u of %u missing", k, msg->rlen);
		for (unsigned b = 0; b < 32; b++)
			r[b] = (uint8_t)((sum + k * 32 + b) * 0x9e3779b1u >> 24);
	}
	return 0;
}

static const struct sfid_table eu_every_sfid = { .fn = {
	eu_any_message, eu_any_message, eu_any_message, eu_any_message,
	eu_any_message, eu_any_message, eu_any_message, eu_any_message,
	eu_any_message, eu_any_message, eu_any_message, eu_any_message,
	eu_any_message, eu_any_message, eu_any_message, eu_any_message,
} };

/* Thread t at the start of case c's program; log (may be NULL) records
 * its messages. */
static inline void eu_case_start(struct eu_thread *t, const struct eu_case *c,
				 struct eu_msg_log *log)
{
	eu_thread_init(t, c->simd, c->mask);
	memcpy(t->regs, c->payload, sizeof(c->payload));
	t->sfids = &eu_every_sfid;
	t->sfid_units = log;
}

#endif
