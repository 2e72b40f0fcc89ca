/* MI commands that steer execution: NOOP, batch ends, user interrupts,
 * REPORT_HEAD, SEMAPHORE_WAIT and SEMAPHORE_SIGNAL. */
#include "gpu/cs/mi.h"

#include "common/trace.h"
#include "gpu/gpu.h"

/* MI_NOOP (BDW PRM vol. 2a): with Identification Number Register Write
 * Enable, the Identification Number is written to the NOPID register. */
MI_HANDLER(mi_noop)
{
	struct cmd_MI_NOOP c;
	cmd_MI_NOOP_unpack(cs_gen(e), dw, len, &c);
	if (c.identification_number_register_write_enable) {
		uint32_t nopid = 0;
		cmd_RING_NOPID_pack(cs_gen(e), &nopid, 1, &(struct cmd_RING_NOPID){
			.identification_number = c.identification_number });
		cs_reg_write(e, e->base + REG_RING_NOPID, nopid);
	}
	return CS_NEXT;
}

MI_HANDLER(mi_batch_buffer_end)
{
	return cs_batch_end(e);
}

/* BDW PRM MI_CONDITIONAL_BATCH_BUFFER_END: the batch ends when the dword
 * at Compare Address is less than or equal to Compare Data Dword. */
MI_HANDLER(mi_conditional_batch_buffer_end)
{
	struct cmd_MI_CONDITIONAL_BATCH_BUFFER_END c;
	cmd_MI_CONDITIONAL_BATCH_BUFFER_END_unpack(cs_gen(e), dw, len, &c);
	/* Compare Semaphore (i915's MI_DO_COMPARE, IGT's spinners) selects
	 * the same compare: the batch goes on while memory > data, which is
	 * how i915 and IGT end a spinning batch from the CPU. Compare Mask
	 * Mode (SKL) masks the memory dword: not modelled. */
	if (c.compare_mask_mode)
		return cs_not_implemented(e, d, dw, len, "with Compare Mask Mode");
	uint32_t mem;
	enum cs_result r = mi_read(e, d, c.use_global_gtt, c.compare_address, &mem, 4);
	if (r != CS_NEXT)
		return r;
	TRACE(TRACE_CS, "%s: conditional end: memory 0x%x %s data 0x%x", e->name,
	      mem, mem <= c.compare_data_dword ? "<=" : ">", c.compare_data_dword);
	if (mem <= c.compare_data_dword)
		return cs_batch_end(e);
	return CS_NEXT;
}

MI_HANDLER(mi_user_interrupt)
{
	TRACE(TRACE_CS, "%s: user interrupt", e->name);
	if (e->cb.user_interrupt) {
		struct engine_callbacks cb = cs_callback_begin(e);
		cb.user_interrupt(cb.data, e);
		cs_callback_end(e);
	}
	return CS_NEXT;
}

/* MI_REPORT_HEAD stores RING_HEAD into dword 4 of the hardware status
 * page (the location i915's early ring code read the head from). */
MI_HANDLER(mi_report_head)
{
	uint32_t head = cs_ring_head_reg(e);
	return mi_write(e, d, true, (uint64_t)e->hws_pga + 4 * 4, &head, 4);
}

static bool semaphore_passes(uint32_t op, uint32_t sad, uint32_t sdd)
{
	switch (op) {
	case 0: return sad > sdd;
	case 1: return sad >= sdd;
	case 2: return sad < sdd;
	case 3: return sad <= sdd;
	case 4: return sad == sdd;
	case 5: return sad != sdd;
	default: return true;
	}
}

/* Poll the semaphore (in memory) until the compare passes. Signal mode is
 * polled too: the PRM's waiter re-evaluates the compare when an
 * MI_SEMAPHORE_SIGNAL reaches its engine, and gtsim's re-evaluates it at
 * every poll, which includes the moment of every signal (a wait the
 * hardware would leave for a signal that never comes passes here when the
 * memory passes the compare). The lock is dropped between polls so that
 * MMIO, resets and the CPU's write that releases it get through. */
MI_HANDLER(mi_semaphore_wait)
{
	struct cmd_MI_SEMAPHORE_WAIT c;
	cmd_MI_SEMAPHORE_WAIT_unpack(cs_gen(e), dw, len, &c);
	bool ggtt = c.memory_type != 0;
	uint64_t addr = c.semaphore_address | c.semaphore_address_high << 32;
	uint32_t sdd = c.semaphore_data_dword, op = c.compare_operation;
	bool traced = false;

	if (c.register_poll_mode)
		return cs_not_implemented(e, d, dw, len, "in register poll mode");
	if (op > 5)
		return cs_fault(e, "MI_SEMAPHORE_WAIT: compare operation %u", op);
	for (;;) {
		uint32_t sad;
		enum cs_result r = mi_read(e, d, ggtt, addr, &sad, 4);
		if (r != CS_NEXT)
			return r;
		if (semaphore_passes(op, sad, sdd))
			return CS_NEXT;
		if (!traced) {
			TRACE(TRACE_CS, "%s: semaphore wait at 0x%llx (0x%x vs 0x%x, op %u)",
			      e->name, (unsigned long long)addr, sad, sdd, op);
			traced = true;
		}
		/* An unsuccessful wait is an arbitration point: with execlists
		 * a pending preemption switches the context out, which resumes
		 * at the wait (SKL PRM vol. 2a MI_SEMAPHORE_WAIT; i915's
		 * preempt-to-busy relies on it, emit_preempt_busywait, and
		 * gem_exec_schedule semaphore-resolve timeslices such a wait). */
		if (cs_preemption_due(e)) {
			cs_preempt_at(e, 0);
			return CS_JUMPED;
		}
		if (!cs_poll_pause(e))
			return CS_ABORTED;
	}
}

/* MI_SEMAPHORE_SIGNAL (BDW/SKL PRM vol. 2a): signals the semaphore of the
 * Target Engine (RCS, VCS0, BCS, VECS, VCS1), whose MI_SEMAPHORE_WAIT in
 * signal mode re-evaluates its compare when the running context is Target
 * Context ID. Waits poll (mi_semaphore_wait), so the signal's effect is
 * that re-evaluation at once; it is counted on the target engine
 * (semaphore_signals, the context ID kept) for traces and tests. With
 * Post-Sync Operation (RCS) the signal follows the pipeline's writes:
 * gtsim's pipeline completes each command before the next starts. A target
 * engine the device lacks (VCS1: gtsim models one video engine) is a GPU
 * fault. */
MI_HANDLER(mi_semaphore_signal)
{
	struct cmd_MI_SEMAPHORE_SIGNAL c;
	cmd_MI_SEMAPHORE_SIGNAL_unpack(cs_gen(e), dw, len, &c);
	static const int target_engine[5] = { ENGINE_RCS, ENGINE_VCS, ENGINE_BCS, ENGINE_VECS, -1 };
	int id = c.target_engine_select < 5 ? target_engine[c.target_engine_select] : -1;
	struct gt_engine *t = id >= 0 ? e->gpu->engines[id] : NULL;
	if (!t)
		return cs_fault(e, "MI_SEMAPHORE_SIGNAL: target engine %u (%s) is not on this "
				"device", c.target_engine_select,
				c.target_engine_select == 4 ? "VCS1" : "reserved");
	__atomic_store_n(&t->semaphore_signal_ctx, c.target_context_id, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->semaphore_signals, 1, __ATOMIC_RELEASE);
	TRACE(TRACE_CS, "%s: semaphore signal to %s, context 0x%x", e->name, t->name,
	      c.target_context_id);
	return CS_NEXT;
}
