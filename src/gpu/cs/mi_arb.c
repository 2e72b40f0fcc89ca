/* Arbitration points (BDW/SKL PRM vol. 2a, MI_ARB_CHECK and
 * MI_ARB_ON_OFF; vol. 7 "Preemption"): with execlists, a context is
 * preempted only where arbitration is allowed, at an MI_ARB_CHECK while
 * MI_ARB_ON_OFF has arbitration enabled; the context resumes after it;
 * and at an MI_SEMAPHORE_WAIT whose compare fails (mi_flow.c), where it
 * resumes at the wait.
 * The kernel model asks for a preemption (engine_request_preemption);
 * at such a point the engine stops, records where it resumes and tells
 * the kernel, which rewrites the ring and restarts it (engine_reset). */
#include "gpu/cs/cs.h"

#include "common/trace.h"
#include "gpu/cs/mi.h"

MI_HANDLER(mi_arb_on_off)
{
	struct cmd_MI_ARB_ON_OFF c;
	cmd_MI_ARB_ON_OFF_unpack(e->gpu->info->gen, dw, len, &c);
	e->arb_disabled = !c.arbitration_enable;
	return CS_NEXT;
}

MI_HANDLER(mi_arb_check)
{
	(void)d; (void)dw;
	/* An arbitration point passed, where arbitration is enabled (the
	 * kernel's hangcheck counts them as progress: the heartbeat can
	 * preempt there). */
	if (!e->arb_disabled)
		__atomic_fetch_add(&e->arb_checks, 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&e->arb_passes_off, 1, __ATOMIC_RELAXED);
	if (!cs_preemption_due(e))
		return CS_NEXT;
	/* The command completes; the engine stops after it. */
	cs_preempt_at(e, len);
	return CS_JUMPED;
}

bool cs_preemption_due(const struct gt_engine *e)
{
	return __atomic_load_n(&e->preempt_req, __ATOMIC_ACQUIRE) && !e->arb_disabled &&
	       e->level != CS_BATCH2 && !(e->level == CS_BATCH1 && !e->bb[CS_BATCH1].ppgtt);
}

void cs_preempt_at(struct gt_engine *e, uint32_t skip)
{
	if (e->level == CS_RING) {
		uint32_t next = skip ? e->next_head : e->head;
		if (next < e->head)
			e->head_wraps++;
		e->head = next;
		e->preempt_pt = (struct engine_preempt_point){ .head = e->head };
	} else {
		e->bb[e->level].addr += skip * 4ull;
		e->preempt_pt = (struct engine_preempt_point){
			.in_batch = true, .ppgtt = e->bb[e->level].ppgtt,
			.batch_addr = e->bb[e->level].addr, .head = e->head };
	}
	e->preempted = true;
	TRACE(TRACE_CS, "%s: preempted at an arbitration point, resumes at %s 0x%llx", e->name,
	      e->preempt_pt.in_batch ? "batch" : "ring HEAD",
	      (unsigned long long)(e->preempt_pt.in_batch ? e->preempt_pt.batch_addr
							  : e->preempt_pt.head));
}

void cs_notify_preempted(struct gt_engine *e)
{
	if (!e->cb.preempted)
		return;
	struct engine_callbacks cb = cs_callback_begin(e);
	cb.preempted(cb.data, e);
	cs_callback_end(e);
}
