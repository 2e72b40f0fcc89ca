/* Which shared function (SFID) a compute thread reaches with send, and
 * which unit implements it (PRM vol. 7 "Shared Functions"): the sampler,
 * the message gateway (barriers), the data ports (constant cache, data
 * cache 0 and 1) and the thread spawner, whose end-of-thread message ends
 * a compute thread. The URB, render cache and pixel interpolator serve
 * the 3D stages only: a send there is a GPU fault naming the shared
 * function (eu/send.c). */
#include "gpu/gpgpu/gpgpu_internal.h"

static int to_sampler(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return sampler_sfid_handler(&((struct gpgpu_units *)units)->sampler, t, msg);
}

static int to_gateway(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return gateway_sfid_handler(&((struct gpgpu_units *)units)->gateway, t, msg);
}

static int to_dataport(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return dp_sfid_handler(&((struct gpgpu_units *)units)->dp, t, msg);
}

/* The thread spawner's "dereference resource" message of a root thread
 * with EOT (descriptor 0: opcode, 1: request type; PRM vol. 7 "Thread
 * Spawner"): Mesa's compiler ends every compute thread with it. Anything
 * else the spawner does (child threads) is not implemented. */
static int thread_end(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	(void)units;
	if (!msg->eot || (msg->func & 3))
		return eu_thread_fault(t, "ip 0x%x: thread spawner message 0x%05x%s is not "
				       "implemented (only a root thread's end of thread)", msg->ip,
				       msg->func, msg->eot ? " with EOT" : " without EOT");
	return 0;
}

const struct sfid_table gpgpu_sfids = { .fn = {
	[EU_SFID_SAMPLER] = to_sampler,           /* sfid/sampler.c */
	[EU_SFID_GATEWAY] = to_gateway,           /* sfid/gateway.c */
	[EU_SFID_SPAWNER] = thread_end,
	[EU_SFID_DP_CC] = to_dataport,            /* dataport/ */
	[EU_SFID_DP_DC0] = to_dataport,
	[EU_SFID_DP_DC1] = to_dataport,
} };
