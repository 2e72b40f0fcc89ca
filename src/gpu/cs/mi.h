/* Handlers of the MI commands and PIPE_CONTROL (cs_handler signature). */
#ifndef GTSIM_CS_MI_H
#define GTSIM_CS_MI_H

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
/* mi_store.c */
MI_HANDLER(mi_store_data_imm);
MI_HANDLER(mi_store_data_index);
MI_HANDLER(mi_copy_mem_mem);
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

/* Field of the command being executed, by its PRM name. Each call site
 * remembers (per thread) the field it found for the last descriptor, so
 * the name is looked up once per command kind, not per command. */
static inline uint64_t mi_field_at(const struct cmd_field *f, const uint32_t *dw,
				   uint32_t len)
{
	return f ? cmd_field_value(f, dw, len, 0) : 0;
}

#define mi_field(d, dw, len, name) __extension__ ({                          \
	static _Thread_local const struct cmd_desc *mi_desc_;                \
	static _Thread_local const struct cmd_field *mi_f_;                  \
	if (mi_desc_ != (d)) {                                               \
		mi_f_ = cmd_field_find((d), (name));                         \
		mi_desc_ = (d);                                              \
	}                                                                    \
	mi_field_at(mi_f_, (dw), (len));                                     \
})

/* Write/read GPU memory for the current batch; a fault stops the engine. */
enum cs_result mi_write(struct gt_engine *e, const struct cmd_desc *d, bool ggtt,
			uint64_t addr, const void *src, size_t n);
enum cs_result mi_read(struct gt_engine *e, const struct cmd_desc *d, bool ggtt,
		       uint64_t addr, void *dst, size_t n);
/* The predicate (MI_PREDICATE_RESULT bit 0). */
bool mi_predicate_value(struct gt_engine *e);

#endif
