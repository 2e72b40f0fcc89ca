/* The message gateway (SFID 3, PRM vol. 7 "Message Gateway"): the shared
 * function through which the threads of a compute thread group meet at a
 * barrier. A thread sends a barrier message (function control 2:0 = 4)
 * with the group's barrier ID from its R0.2 in payload dword 2, then waits
 * on n0 (`wait n0`, which suspends it: eu/thread.h EU_THREAD_WAIT). When
 * the last of the group's threads has arrived, the gateway notifies every
 * thread of the group (n0.0 counts one more notification) and the waiting
 * ones become runnable again; their owner (gpgpu/, or the HS instances of
 * a patch in render/hs_dispatch.c) resumes them. With Barrier Count Enable
 * (payload dword 2 bit 15) the message's count (bits 14:9) is the number
 * of threads to wait for.
 *
 * The other gateway messages (open/close gateway, forward message,
 * timestamp, update gateway state, MMIO read/write) are faults naming
 * them: no client of gtsim sends them yet. */
#ifndef GTSIM_SFID_GATEWAY_H
#define GTSIM_SFID_GATEWAY_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/eu/send.h"

/* Function control bits 2:0 (PRM "Message Gateway: message descriptor"). */
enum gateway_msg {
	GW_OPEN_GATEWAY = 0, GW_CLOSE_GATEWAY = 1, GW_FORWARD_MSG = 2,
	GW_GET_TIMESTAMP = 3, GW_BARRIER = 4, GW_UPDATE_GATEWAY_STATE = 5,
	GW_MMIO_READ_WRITE = 6,
};

/* One thread group's barrier, as its dispatcher set it up. */
struct gateway_group {
	int gen;                      /* 8 or 9 */
	bool barrier_enable;          /* INTERFACE_DESCRIPTOR_DATA Barrier Enable */
	uint32_t barrier_id;          /* R0.2 as dispatched (ID in bits 27:24) */
	unsigned expected;            /* threads that take part in the barrier */
	struct eu_thread **threads;   /* the group's threads */
	unsigned nthreads;
	/* progress */
	unsigned arrived;             /* barrier messages since the last release */
	uint64_t releases;            /* barriers completed */
};

/* The bits of R0.2 / payload dword 2 that name the barrier: Mesa's
 * compiler copies these (brw emit_barrier: 27:24 on Gen8, 31 and 27:24 on
 * Gen9). */
uint32_t gateway_barrier_id_mask(int gen);

/* sfid_handler for EU_SFID_GATEWAY; ctx is a struct gateway_group. */
int gateway_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg);

#endif
