/* Register loads and stores: MI_LOAD_REGISTER_IMM/MEM/REG and
 * MI_STORE_REGISTER_MEM. In a non-privileged batch a write to a
 * privileged register turns the whole command into an MI_NOOP (seed 004);
 * a write to a register the description does not list is a GPU fault. */
#include "gpu/cs/mi.h"

#include <stdio.h>

#include "common/trace.h"

bool mi_register_write_allowed(struct gt_engine *e, const struct cmd_desc *d, uint32_t reg)
{
	if (cs_privileged(e) || !cs_reg_is_privileged(e, reg))
		return true;
	TRACE(TRACE_CS, "%s: %s to privileged register 0x%05x in a non-privileged "
	      "batch executes as MI_NOOP", e->name, d->name, reg);
	return false;
}

enum cs_result mi_register_unknown(struct gt_engine *e, const struct cmd_desc *d,
				   const uint32_t *dw, uint32_t len, uint32_t reg)
{
	char what[64];
	snprintf(what, sizeof(what), "writing register 0x%05x", reg & ~3u);
	return cs_not_implemented(e, d, dw, len, what);
}

/* A read of a register the model does not compute: a fault naming it, not
 * the value last stored there (seed rule: nothing unimplemented is silent). */
static enum cs_result mi_register_unreadable(struct gt_engine *e, const struct cmd_desc *d,
					     const uint32_t *dw, uint32_t len, uint32_t reg)
{
	char what[64];
	snprintf(what, sizeof(what), "reading register 0x%05x", reg & ~3u);
	return cs_not_implemented(e, d, dw, len, what);
}

MI_HANDLER(mi_load_register_imm)
{
	int gen = cs_gen(e);
	if (!(len & 1))
		return cs_fault(e, "MI_LOAD_REGISTER_IMM: bad length %u", len);
	uint32_t pairs = cmd_MI_LOAD_REGISTER_IMM_register_offset_count(gen, len);
	for (uint32_t i = 0; i < pairs; i++) {
		uint32_t reg = (uint32_t)cmd_MI_LOAD_REGISTER_IMM_register_offset_at(gen, dw, len, i);
		if (!mi_register_write_allowed(e, d, reg))
			return CS_NEXT;
	}
	for (uint32_t i = 0; i < pairs; i++) {
		uint32_t reg = (uint32_t)cmd_MI_LOAD_REGISTER_IMM_register_offset_at(gen, dw, len, i);
		if (!cs_reg_known(e, reg))
			return mi_register_unknown(e, d, dw, len, reg);
	}
	struct cmd_MI_LOAD_REGISTER_IMM c;
	cmd_MI_LOAD_REGISTER_IMM_unpack(gen, dw, len, &c);
	/* Byte Write Disables: a set bit keeps that byte of the register. */
	uint32_t keep = 0;
	for (int b = 0; b < 4; b++)
		if (c.byte_write_disables & (1u << b))
			keep |= 0xffu << (8 * b);
	for (uint32_t i = 0; i < pairs; i++) {
		uint32_t reg = (uint32_t)cmd_MI_LOAD_REGISTER_IMM_register_offset_at(gen, dw, len, i);
		uint32_t val = (uint32_t)cmd_MI_LOAD_REGISTER_IMM_data_dword_at(gen, dw, len, i);
		if (keep)
			val = (val & ~keep) | (cs_reg_read(e, reg) & keep);
		cs_reg_write(e, reg, val);
	}
	return CS_NEXT;
}

MI_HANDLER(mi_load_register_mem)
{
	struct cmd_MI_LOAD_REGISTER_MEM c;
	cmd_MI_LOAD_REGISTER_MEM_unpack(cs_gen(e), dw, len, &c);
	uint32_t v;
	if (!mi_register_write_allowed(e, d, c.register_address))
		return CS_NEXT;
	if (!cs_reg_known(e, c.register_address))
		return mi_register_unknown(e, d, dw, len, c.register_address);
	enum cs_result r = mi_read(e, d, c.use_global_gtt, c.memory_address, &v, 4);
	if (r == CS_NEXT)
		cs_reg_write(e, c.register_address, v);
	return r;
}

MI_HANDLER(mi_load_register_reg)
{
	struct cmd_MI_LOAD_REGISTER_REG c;
	cmd_MI_LOAD_REGISTER_REG_unpack(cs_gen(e), dw, len, &c);
	if (!mi_register_write_allowed(e, d, c.destination_register_address))
		return CS_NEXT;
	if (!cs_reg_known(e, c.destination_register_address))
		return mi_register_unknown(e, d, dw, len, c.destination_register_address);
	if (!cs_reg_readable(e, c.source_register_address))
		return mi_register_unreadable(e, d, dw, len, c.source_register_address);
	cs_reg_write(e, c.destination_register_address, cs_reg_read(e, c.source_register_address));
	return CS_NEXT;
}

MI_HANDLER(mi_store_register_mem)
{
	struct cmd_MI_STORE_REGISTER_MEM c;
	cmd_MI_STORE_REGISTER_MEM_unpack(cs_gen(e), dw, len, &c);
	if (c.predicate_enable && !mi_predicate_value(e))
		return CS_NEXT;
	if (!cs_reg_readable(e, c.register_address))
		return mi_register_unreadable(e, d, dw, len, c.register_address);
	uint32_t v = cs_reg_read(e, c.register_address);
	return mi_write(e, d, c.use_global_gtt, c.memory_address, &v, 4);
}
