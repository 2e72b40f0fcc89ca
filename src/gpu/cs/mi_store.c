/* Commands that write memory: MI_STORE_DATA_IMM, MI_STORE_DATA_INDEX,
 * MI_COPY_MEM_MEM, MI_FLUSH_DW and PIPE_CONTROL post-sync operations.
 * Caches are not modelled, so flushes and invalidations do nothing. */
#include "gpu/cs/mi.h"

#include "common/trace.h"

enum cs_result mi_write(struct gt_engine *e, const struct cmd_desc *d, bool ggtt,
			uint64_t addr, const void *src, size_t n)
{
	struct gt_vm vm = cs_vm_for(e, ggtt);
	if (vm_write(&vm, addr, src, n))
		return cs_fault(e, "%s: write of %zu bytes to unmapped %s address 0x%llx",
				d->name, n, vm.ggtt ? "GGTT" : "PPGTT",
				(unsigned long long)addr);
	return CS_NEXT;
}

enum cs_result mi_read(struct gt_engine *e, const struct cmd_desc *d, bool ggtt,
		       uint64_t addr, void *dst, size_t n)
{
	struct gt_vm vm = cs_vm_for(e, ggtt);
	if (vm_read(&vm, addr, dst, n))
		return cs_fault(e, "%s: read of %zu bytes from unmapped %s address 0x%llx",
				d->name, n, vm.ggtt ? "GGTT" : "PPGTT",
				(unsigned long long)addr);
	return CS_NEXT;
}

/* The dwords after the address are stored: one (DWord Length 2) or two
 * (DWord Length 3, Store Qword). */
MI_HANDLER(mi_store_data_imm)
{
	bool ggtt = mi_field(d, dw, len, "Use Global GTT") != 0;
	uint64_t addr = mi_field(d, dw, len, "Address");
	uint32_t n = len > 3 ? len - 3 : 0;
	if (n > 2)
		return cs_fault(e, "MI_STORE_DATA_IMM: bad length %u", len);
	return mi_write(e, d, ggtt, addr, dw + 3, n * 4);
}

/* Writes into the hardware status page (always the GGTT); Offset, bits
 * 11:2 of DWord 1, is a dword index. */
MI_HANDLER(mi_store_data_index)
{
	uint64_t off = mi_field(d, dw, len, "Offset") * 4;
	uint32_t n = len > 2 ? len - 2 : 0;
	if (n > 2)
		return cs_fault(e, "MI_STORE_DATA_INDEX: bad length %u", len);
	return mi_write(e, d, true, (uint64_t)e->hws_pga + off, dw + 2, n * 4);
}

MI_HANDLER(mi_copy_mem_mem)
{
	bool dst_ggtt = mi_field(d, dw, len, "Use Global GTT Destination") != 0;
	bool src_ggtt = mi_field(d, dw, len, "Use Global GTT Source") != 0;
	uint32_t v;
	enum cs_result r = mi_read(e, d, src_ggtt,
				   mi_field(d, dw, len, "Source Memory Address"), &v, 4);
	if (r != CS_NEXT)
		return r;
	return mi_write(e, d, dst_ggtt,
			mi_field(d, dw, len, "Destination Memory Address"), &v, 4);
}

static uint64_t timestamp(struct gt_engine *e)
{
	return cs_reg_read64(e, e->base + RING_TIMESTAMP);
}

/* MI_FLUSH_DW post-sync: 1 writes the immediate data (a dword, or a qword
 * when the command has 5 dwords), 3 writes TIMESTAMP. */
MI_HANDLER(mi_flush_dw)
{
	uint32_t op = (uint32_t)mi_field(d, dw, len, "Post-Sync Operation");
	bool ggtt = mi_field(d, dw, len, "Destination Address Type") != 0;
	uint64_t addr = mi_field(d, dw, len, "Address");
	if (mi_field(d, dw, len, "Store Data Index")) {
		addr = (uint64_t)e->hws_pga + (addr & 0xfff);
		ggtt = true;
	}
	if (op == 1) {
		uint32_t data[2] = { len > 3 ? dw[3] : 0, len > 4 ? dw[4] : 0 };
		return mi_write(e, d, ggtt, addr, data, len > 4 ? 8 : 4);
	}
	if (op == 3) {
		uint64_t ts = timestamp(e);
		return mi_write(e, d, ggtt, addr, &ts, 8);
	}
	if (op == 2)
		return cs_fault(e, "MI_FLUSH_DW: reserved post-sync operation 2");
	return CS_NEXT;
}

/* PIPE_CONTROL post-sync (BDW PRM vol. 2a): 1 writes the QWord immediate
 * data, 2 the PS_DEPTH_COUNT register, 3 TIMESTAMP; through the GGTT when
 * Destination Address Type is 1. */
MI_HANDLER(mi_pipe_control)
{
	uint32_t op = (uint32_t)mi_field(d, dw, len, "Post Sync Operation");
	bool ggtt = mi_field(d, dw, len, "Destination Address Type") != 0;
	uint64_t addr = mi_field(d, dw, len, "Address");
	uint64_t v;

	if (mi_field(d, dw, len, "Store Data Index")) {
		addr = (uint64_t)e->hws_pga + (addr & 0xfff);
		ggtt = true;
	}
	switch (op) {
	case 1: v = mi_field(d, dw, len, "Immediate Data"); break;
	case 2: v = cs_reg_read64(e, PS_DEPTH_COUNT); break;
	case 3: v = timestamp(e); break;
	default: return CS_NEXT;
	}
	if (mi_field(d, dw, len, "LRI Post Sync Operation"))
		TRACE(TRACE_STUB, "%s: PIPE_CONTROL LRI post-sync not modelled", e->name);
	return mi_write(e, d, ggtt, addr, &v, 8);
}
