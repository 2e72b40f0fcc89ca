/* Handlers of the MI commands and PIPE_CONTROL (cs_handler signature). */
#ifndef GTSIM_CS_MI_H
#define GTSIM_CS_MI_H

#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/cs.h"

#define MI_HANDLER(name) \
	enum cs_result name(struct gt_engine *e, const struct cmd_desc *d, \
			    const uint32_t *dw, uint32_t len)

/* mi_flow.c */
MI_HANDLER(mi_noop);
MI_HANDLER(mi_batch_buffer_end);
MI_HANDLER(mi_conditional_batch_buffer_end);
MI_HANDLER(mi_user_interrupt);
MI_HANDLER(mi_report_head);
MI_HANDLER(mi_semaphore_wait);
MI_HANDLER(mi_semaphore_signal);
/* mi_arb.c */
MI_HANDLER(mi_arb_check);
MI_HANDLER(mi_arb_on_off);
/* Is a preemption asked for, and allowed where the engine is (arbitration
 * on, not in a second-level or GGTT batch)? */
bool cs_preemption_due(const struct gt_engine *e);
/* Stop the engine for the preemption, to resume skip dwords further
 * (after the current command, or at it when skip is 0). */
void cs_preempt_at(struct gt_engine *e, uint32_t skip);
/* mi_store.c */
MI_HANDLER(mi_store_data_imm);
MI_HANDLER(mi_store_data_index);
MI_HANDLER(mi_copy_mem_mem);
MI_HANDLER(mi_report_perf_count);
/* mi_atomic.c */
MI_HANDLER(mi_atomic);
MI_HANDLER(mi_flush_dw);
MI_HANDLER(mi_pipe_control);
/* mi_reg.c */
MI_HANDLER(mi_load_register_imm);
MI_HANDLER(mi_load_register_mem);
MI_HANDLER(mi_load_register_reg);
MI_HANDLER(mi_store_register_mem);
/* mi_context.c */
MI_HANDLER(mi_set_context);
/* mi_math.c */
MI_HANDLER(mi_math);
MI_HANDLER(mi_predicate);

/* The generation whose command layouts the engine executes. */
static inline int cs_gen(const struct gt_engine *e)
{
	return e->gpu->info->gen;
}

/* Write/read GPU memory for the current batch; a fault stops the engine. */
enum cs_result mi_write(struct gt_engine *e, const struct cmd_desc *d, bool ggtt,
			uint64_t addr, const void *src, size_t n);
enum cs_result mi_read(struct gt_engine *e, const struct cmd_desc *d, bool ggtt,
		       uint64_t addr, void *dst, size_t n);
/* False (and traced) when a non-privileged batch may not write reg: the
 * command then executes as MI_NOOP (seed 004). */
bool mi_register_write_allowed(struct gt_engine *e, const struct cmd_desc *d, uint32_t reg);
/* Fault on a write to reg, which the description does not list. */
enum cs_result mi_register_unknown(struct gt_engine *e, const struct cmd_desc *d,
				   const uint32_t *dw, uint32_t len, uint32_t reg);
/* The predicate (REG_MI_PREDICATE_RESULT bit 0). */
bool mi_predicate_value(struct gt_engine *e);

#endif
