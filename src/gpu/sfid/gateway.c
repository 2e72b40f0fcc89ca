/* The message gateway's barrier (gateway.h). */
#include "gpu/sfid/gateway.h"

#include <string.h>

#include "common/trace.h"

static const char *const msg_names[8] = {
	[GW_OPEN_GATEWAY] = "open gateway", [GW_CLOSE_GATEWAY] = "close gateway",
	[GW_FORWARD_MSG] = "forward message", [GW_GET_TIMESTAMP] = "get timestamp",
	[GW_BARRIER] = "barrier", [GW_UPDATE_GATEWAY_STATE] = "update gateway state",
	[GW_MMIO_READ_WRITE] = "MMIO read/write", [7] = "reserved message 7",
};

uint32_t gateway_barrier_id_mask(int gen)
{
	return gen >= 9 ? 0x8f000000u : 0x0f000000u;
}

/* Every thread of the group gets one notification (n0.0 + 1); those
 * suspended at their wait become runnable. */
static void release(struct gateway_group *g)
{
	for (unsigned i = 0; i < g->nthreads; i++) {
		struct eu_thread *t = g->threads[i];
		uint32_t n0;
		memcpy(&n0, eu_arf(t, EU_ARF_N0), 4);
		n0++;
		memcpy(eu_arf(t, EU_ARF_N0), &n0, 4);
		if (t->state == EU_THREAD_WAIT)
			t->state = EU_THREAD_READY;
	}
	g->arrived = 0;
	g->releases++;
	TRACE(TRACE_GPGPU, "gateway: barrier 0x%x complete (%u threads), release %llu",
	      g->barrier_id & gateway_barrier_id_mask(g->gen), g->expected,
	      (unsigned long long)g->releases);
}

int gateway_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	struct gateway_group *g = ctx;
	unsigned type = msg->func & 7;
	if (type != GW_BARRIER)
		return eu_thread_fault(t, "ip 0x%x: message gateway %s message (desc 0x%08x) "
				       "is not implemented", msg->ip, msg_names[type], msg->desc);
	if (!g)
		return eu_thread_fault(t, "ip 0x%x: gateway barrier message from a thread that "
				       "belongs to no thread group", msg->ip);
	if (!g->barrier_enable)
		return eu_thread_fault(t, "ip 0x%x: gateway barrier message while the interface "
				       "descriptor's Barrier Enable is clear", msg->ip);
	if (msg->mlen < 1 || msg->rlen != 0)
		return eu_thread_fault(t, "ip 0x%x: gateway barrier message with mlen %u rlen %u "
				       "(the message is one register, no response)", msg->ip,
				       msg->mlen, msg->rlen);
	const uint8_t *p = eu_send_payload(t, msg, 0);
	uint32_t dw2, mask = gateway_barrier_id_mask(g->gen);
	memcpy(&dw2, p + 8, 4);
	if ((dw2 & mask) != (g->barrier_id & mask))
		return eu_thread_fault(t, "ip 0x%x: gateway barrier message names barrier 0x%x, "
				       "the thread's group has 0x%x", msg->ip, dw2 & mask,
				       g->barrier_id & mask);
	/* Barrier Count Enable (m0.2 bit 15): the count in bits 14:9 replaces
	 * the group's (Mesa's TCS barrier sends the number of HS instances) */
	if (dw2 & (1u << 15))
		g->expected = (dw2 >> 9) & 0x3f;
	g->arrived++;
	TRACE(TRACE_GPGPU, "gateway: barrier 0x%x: %u of %u threads arrived",
	      dw2 & mask, g->arrived, g->expected);
	if (g->arrived >= g->expected)
		release(g);
	return 0;
}
