/* RING_CTX_TIMESTAMP (engine base + 0x3a8): how long the current context
 * has run on the engine, in TIMESTAMP ticks (the CS timestamp frequency,
 * 12.5 MHz on BDW, 12 MHz on SKL). The hardware saves it into the context
 * image at a switch away and loads it back at a switch in (BDW PRM vol. 7
 * "Register State Context"; i915 starts a new context's image at 0,
 * init_common_regs, and reads the saved value as the context's runtime,
 * lrc_update_runtime), so it is the context's accumulated run time.
 *
 * gtsim's kernel switches contexts with commands (kernel/lrc.h): an SRM of
 * the register into the old context's image, an LRM from the new one's.
 * It switches lazily (the last context stays loaded while the engine
 * idles), where execlists would have switched the context out when its
 * ring emptied; so the register counts only the host time during which
 * the engine executes commands (cs_run), not the time it is idle, stopped
 * on a fault or stopped for a preemption. */
#include "gpu/cs/cs.h"

void cs_ctx_time_run(struct gt_engine *e)
{
	if (!e->ctx_run_since_ns)
		e->ctx_run_since_ns = cs_now_ns();
}

void cs_ctx_time_ring_empty(struct gt_engine *e)
{
	e->ctx_empty_ns = cs_now_ns();
}

void cs_ctx_time_stop(struct gt_engine *e)
{
	if (!e->ctx_run_since_ns)
		return;
	uint64_t end = cs_now_ns();
	if (e->ctx_empty_ns > e->ctx_run_since_ns && e->level == CS_RING && e->head == e->tail)
		end = e->ctx_empty_ns;
	e->ctx_run_ns += end - e->ctx_run_since_ns;
	e->ctx_run_since_ns = 0;
	e->ctx_empty_ns = 0;
}

uint32_t cs_ctx_timestamp(const struct gt_engine *e)
{
	uint64_t ns = e->ctx_run_ns;
	if (e->ctx_run_since_ns)
		ns += cs_now_ns() - e->ctx_run_since_ns;
	/* A 32-bit counter: it wraps (i915 takes differences modulo 2^32). */
	return e->ctx_ts_loaded + (uint32_t)cs_ticks(e, ns);
}

void cs_ctx_timestamp_load(struct gt_engine *e, uint32_t val)
{
	e->ctx_ts_loaded = val;
	e->ctx_run_ns = 0;
	if (e->ctx_run_since_ns)
		e->ctx_run_since_ns = cs_now_ns();
}
