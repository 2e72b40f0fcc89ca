/* The data port's entry: a message to SFID 9, 10 or 12 (dataport.h) is
 * looked up in the message table (dp_table.c) and run by its handler; one
 * "dp" trace line per message says what it touched. */
#include "gpu/dataport/dataport.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/dataport/dp_priv.h"

void dp_unit_init(struct dp_unit *u, int gen, const struct gt_vm *vm,
		  uint64_t general_base, uint64_t surface_base,
		  uint64_t dynamic_base, uint32_t binding_table)
{
	memset(u, 0, sizeof(*u));
	u->gen = gen;
	u->vm = *vm;
	u->general_base = general_base;
	u->surface_base = surface_base;
	u->dynamic_base = dynamic_base;
	u->binding_table = binding_table;
}

void dp_tr(struct dp_msg *m, const char *fmt, ...)
{
	if (!m->tracing || m->trn >= sizeof(m->tr) - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(m->tr + m->trn, sizeof(m->tr) - m->trn, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->trn += (size_t)n;
	if (m->trn >= sizeof(m->tr) - 1) {
		m->trn = sizeof(m->tr) - 1;
		memcpy(m->tr + sizeof(m->tr) - 4, "...", 4);
	}
}

int dp_fail(struct dp_msg *m, const char *fmt, ...)
{
	char why[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return eu_thread_fault(m->t, "ip 0x%x: %s %s: %s", m->s->ip, sfid_name(m->s->sfid),
			       m->info->name, why);
}

const uint32_t *dp_payload(struct dp_msg *m, unsigned k)
{
	return (const uint32_t *)(const void *)eu_send_payload(m->t, m->s, k);
}

uint32_t *dp_response(struct dp_msg *m, unsigned k)
{
	return (uint32_t *)(void *)eu_send_response(m->t, m->s, k);
}

int dp_check_len(struct dp_msg *m, unsigned mlen, unsigned rlen)
{
	if (m->s->mlen != mlen || m->s->rlen != rlen)
		return dp_fail(m, "message length %u and response length %u where the "
			       "layout has %u and %u", m->s->mlen, m->s->rlen, mlen, rlen);
	return 0;
}

uint32_t dp_slot(struct dp_msg *m, unsigned k, unsigned i)
{
	const uint32_t *r = dp_payload(m, k + i / 8);
	return r ? r[i % 8] : 0;
}

void dp_set_slot(struct dp_msg *m, unsigned k, unsigned i, uint32_t v)
{
	uint32_t *r = dp_response(m, k + i / 8);
	if (r)
		r[i % 8] = v;
}

int dp_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	struct dp_unit *u = ctx;
	unsigned type = dp_msg_type(msg->sfid, msg->desc);
	const struct dp_msg_info *mi = dp_msg_lookup(msg->sfid, type);
	if (!mi)
		return eu_thread_fault(t, "ip 0x%x: %s message type %u (desc 0x%08x) is not a "
				       "data port message", msg->ip, sfid_name(msg->sfid), type,
				       msg->desc);
	if (!u)
		return eu_thread_fault(t, "ip 0x%x: %s %s: the stage has no data port unit",
				       msg->ip, sfid_name(msg->sfid), mi->name);
	if (!(mi->gens & (u->gen == 8 ? DP_GEN8 : u->gen == 9 ? DP_GEN9 : 0)))
		return eu_thread_fault(t, "ip 0x%x: %s %s (type 0x%x) does not exist on Gen%d",
				       msg->ip, sfid_name(msg->sfid), mi->name, type, u->gen);
	if (!mi->fn)
		return eu_thread_fault(t, "ip 0x%x: %s %s (type 0x%x, desc 0x%08x) is not "
				       "implemented by the data port", msg->ip,
				       sfid_name(msg->sfid), mi->name, type, msg->desc);
	/* fields set one by one: an initializer would clear the 1 KB trace
	 * buffer on every message */
	struct dp_msg m;
	m.u = u;
	m.t = t;
	m.s = msg;
	m.info = mi;
	m.bti = msg->desc & 0xff;
	m.ctrl = (msg->desc >> 8) & 0x3f;
	m.oob = 0;
	m.map_host = NULL;
	m.tracing = trace_on(TRACE_DP);
	m.trn = 0;
	m.tr[0] = 0;
	int ret = mi->fn(&m);
	if (m.tracing)
		trace_printf(TRACE_DP, "ip 0x%04x %s %s%s: mask 0x%x oob 0x%x %s", msg->ip,
			     sfid_name(msg->sfid), mi->name, ret ? " (fault)" : "", msg->mask,
			     m.oob, m.tr);
	return ret;
}
