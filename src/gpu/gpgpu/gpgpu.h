/* The GPGPU pipeline of the render engine (PRM vol. 2 "Media/GPGPU
 * commands", vol. 7 "GPGPU"): PIPELINE_SELECT, STATE_BASE_ADDRESS as this
 * pipeline sees them, MEDIA_VFE_STATE, MEDIA_CURBE_LOAD,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD, GPGPU_WALKER and MEDIA_STATE_FLUSH.
 *
 * A walker runs its thread groups one after the other, to the end, inside
 * the command (like a 3DPRIMITIVE): the threads of one group run
 * round-robin on the interpreter, each until it ends or waits at a barrier
 * (sfid/gateway.h), so the threads of a group really wait for each other.
 * A group that can make no more progress (threads waiting for a barrier
 * that never completes) or a thread that does not end is a GPU hang: the
 * command faults with a message naming the group and its threads. */
#ifndef GTSIM_GPGPU_GPGPU_H
#define GTSIM_GPGPU_GPGPU_H

#include <stdbool.h>
#include <stdint.h>

#include "common/devinfo.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cs/cs.h"
#include "gpu/eu/thread.h"
#include "gpu/mem/mem.h"

struct gpgpu_state;

/* What a command needs from the engine. */
struct gpgpu_env {
	struct gt_vm vm;           /* the batch's address space */
	struct cs_regs *regs;      /* GPGPU_DISPATCHDIM*, CS_INVOCATION_COUNT */
	bool predicate;            /* MI_PREDICATE's result (Predicate Enable) */
};

/* What happens to a thread, for observers (tests): dispatched with its
 * payload, suspended at a wait, resumed, ended. */
enum gpgpu_event { GPGPU_THREAD_START, GPGPU_THREAD_WAIT, GPGPU_THREAD_RESUME,
		   GPGPU_THREAD_END };

struct gpgpu_thread_info {
	uint32_t group[3];         /* thread group ID X, Y, Z */
	unsigned index;            /* thread in its group */
	unsigned threads;          /* threads of the group */
	unsigned simd;             /* 8, 16, 32 */
	uint32_t mask;             /* execution mask */
};

typedef void (*gpgpu_thread_hook)(void *ctx, enum gpgpu_event ev,
				  const struct gpgpu_thread_info *ti,
				  const struct eu_thread *t);

struct gpgpu_state *gpgpu_state_create(const struct gt_devinfo *info);
void gpgpu_state_destroy(struct gpgpu_state *gs);

/* Execute one command of the pipeline (the ones listed above): 0, or -1
 * with the reason in gpgpu_fault(). */
int gpgpu_command(struct gpgpu_state *gs, const struct gpgpu_env *env,
		  const struct cmd_desc *d, const uint32_t *dw, uint32_t len);
const char *gpgpu_fault(const struct gpgpu_state *gs);

/* Call hook on each thread event of the following walkers (NULL: none). */
void gpgpu_set_thread_hook(struct gpgpu_state *gs, gpgpu_thread_hook hook, void *ctx);

/* The render engine's handler for those commands (engine_handlers.c): the
 * state of the engine's current logical context, created with the first
 * command and switched with the rest of the context (cs_state_gpgpu). */
enum cs_result gpgpu_cs_command(struct gt_engine *e, const struct cmd_desc *d,
				const uint32_t *dw, uint32_t len);

#endif
