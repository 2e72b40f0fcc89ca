/* Register loads and stores: MI_LOAD_REGISTER_IMM/MEM/REG and
 * MI_STORE_REGISTER_MEM. In a non-privileged batch a write to a
 * privileged register turns the whole command into an MI_NOOP (seed 004). */
#include "gpu/cs/mi.h"

#include "common/trace.h"

static bool write_allowed(struct gt_engine *e, const struct cmd_desc *d, uint32_t reg)
{
	if (cs_privileged(e) || !cs_reg_is_privileged(e, reg))
		return true;
	TRACE(TRACE_CS, "%s: %s to privileged register 0x%05x in a non-privileged "
	      "batch executes as MI_NOOP", e->name, d->name, reg);
	return false;
}

MI_HANDLER(mi_load_register_imm)
{
	const struct cmd_field *reg_f = NULL, *data_f = NULL;
	for (uint32_t i = 0; i < d->num_fields; i++) {
		if (!d->fields[i].in_group)
			continue;
		if (!reg_f)
			reg_f = &d->fields[i];
		else if (!data_f)
			data_f = &d->fields[i];
	}
	if (!reg_f || !data_f)
		return cs_fault(e, "MI_LOAD_REGISTER_IMM: table has no pairs");
	if (!(len & 1))
		return cs_fault(e, "MI_LOAD_REGISTER_IMM: bad length %u", len);
	uint32_t pairs = cmd_group_count(reg_f, len);
	for (uint32_t i = 0; i < pairs; i++)
		if (!write_allowed(e, d, (uint32_t)cmd_field_value(reg_f, dw, len, i)))
			return CS_NEXT;
	/* Byte Write Disables: a set bit keeps that byte of the register. */
	uint32_t keep = 0, bwd = (uint32_t)mi_field(d, dw, len, "Byte Write Disables");
	for (int b = 0; b < 4; b++)
		if (bwd & (1u << b))
			keep |= 0xffu << (8 * b);
	for (uint32_t i = 0; i < pairs; i++) {
		uint32_t reg = (uint32_t)cmd_field_value(reg_f, dw, len, i);
		uint32_t val = (uint32_t)cmd_field_value(data_f, dw, len, i);
		if (keep)
			val = (val & ~keep) | (cs_reg_read(e, reg) & keep);
		cs_reg_write(e, reg, val);
	}
	return CS_NEXT;
}

MI_HANDLER(mi_load_register_mem)
{
	uint32_t reg = (uint32_t)mi_field(d, dw, len, "Register Address");
	bool ggtt = mi_field(d, dw, len, "Use Global GTT") != 0;
	uint32_t v;
	if (!write_allowed(e, d, reg))
		return CS_NEXT;
	enum cs_result r = mi_read(e, d, ggtt, mi_field(d, dw, len, "Memory Address"), &v, 4);
	if (r == CS_NEXT)
		cs_reg_write(e, reg, v);
	return r;
}

MI_HANDLER(mi_load_register_reg)
{
	uint32_t src = (uint32_t)mi_field(d, dw, len, "Source Register Address");
	uint32_t dst = (uint32_t)mi_field(d, dw, len, "Destination Register Address");
	if (write_allowed(e, d, dst))
		cs_reg_write(e, dst, cs_reg_read(e, src));
	return CS_NEXT;
}

MI_HANDLER(mi_store_register_mem)
{
	if (mi_field(d, dw, len, "Predicate Enable") && !mi_predicate_value(e))
		return CS_NEXT;
	uint32_t reg = (uint32_t)mi_field(d, dw, len, "Register Address");
	bool ggtt = mi_field(d, dw, len, "Use Global GTT") != 0;
	uint32_t v = cs_reg_read(e, reg);
	return mi_write(e, d, ggtt, mi_field(d, dw, len, "Memory Address"), &v, 4);
}
