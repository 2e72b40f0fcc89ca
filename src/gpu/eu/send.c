/* Dispatch of send messages through a thread's shared-function table. */
#include "common/trace.h"
#include "gpu/eu/send.h"

const char *sfid_name(unsigned sfid)
{
	/* Names as Mesa's disassembler prints them. */
	static const char *const names[SFID_COUNT] = {
		[EU_SFID_NULL] = "null", [EU_SFID_SAMPLER] = "sampler",
		[EU_SFID_GATEWAY] = "gateway", [EU_SFID_DP_SAMPLER] = "dp_sampler",
		[EU_SFID_DP_RC] = "render", [EU_SFID_URB] = "urb",
		[EU_SFID_SPAWNER] = "thread_spawner", [EU_SFID_VME] = "vme",
		[EU_SFID_DP_CC] = "const", [EU_SFID_DP_DC0] = "data",
		[EU_SFID_PI] = "pixel interp", [EU_SFID_DP_DC1] = "dp data 1",
		[EU_SFID_CRE] = "cre",
	};
	return sfid < SFID_COUNT && names[sfid] ? names[sfid] : "sfid?";
}

int sfid_dispatch(const struct sfid_table *tab, struct eu_thread *t,
		  const struct eu_send *msg)
{
	if (!tab || msg->sfid >= SFID_COUNT || !tab->fn[msg->sfid])
		return eu_thread_fault(t, "ip 0x%x: send to shared function %s (sfid %u) "
				       "which no unit implements", msg->ip,
				       sfid_name(msg->sfid), msg->sfid);
	if (tab->fn[msg->sfid](t->sfid_units, t, msg)) {
		if (t->state != EU_THREAD_FAULT)
			eu_thread_fault(t, "ip 0x%x: shared function %s rejected the message "
					"(desc 0x%08x)", msg->ip, sfid_name(msg->sfid), msg->desc);
		return -1;
	}
	return 0;
}

const uint8_t *eu_send_payload(const struct eu_thread *t,
			       const struct eu_send *msg, unsigned k)
{
	if (k >= msg->mlen)
		return NULL;
	unsigned first = msg->mlen - msg->ex_mlen;   /* registers at src */
	unsigned reg = k < first ? msg->src + k : msg->src2 + (k - first);
	if (reg >= EU_GRF_COUNT)
		return NULL;
	return t->regs + reg * EU_REG_SIZE;
}

uint8_t *eu_send_response(struct eu_thread *t, const struct eu_send *msg,
			  unsigned k)
{
	if (k >= msg->rlen || msg->dst + k >= EU_GRF_COUNT)
		return NULL;
	return t->regs + (msg->dst + k) * EU_REG_SIZE;
}
