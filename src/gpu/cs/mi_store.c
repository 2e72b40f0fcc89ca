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
	struct cmd_MI_STORE_DATA_IMM c;
	cmd_MI_STORE_DATA_IMM_unpack(cs_gen(e), dw, len, &c);
	uint32_t n = len > 3 ? len - 3 : 0;
	if (n > 2)
		return cs_fault(e, "MI_STORE_DATA_IMM: bad length %u", len);
	return mi_write(e, d, c.use_global_gtt, c.address, dw + 3, n * 4);
}

/* Writes into the hardware status page (always the GGTT); Offset, bits
 * 11:2 of DWord 1, is a dword index. The kernel model reads the seqno
 * there from other host threads with atomic loads (engine_hws_seqno), so
 * each dword is an atomic release store: a plain copy would be a data
 * race (ThreadSanitizer reported it) and could be seen torn. The status
 * page is one 4 KiB page and the index is in dwords, so every dword is
 * 4-byte aligned and on one page. */
MI_HANDLER(mi_store_data_index)
{
	struct cmd_MI_STORE_DATA_INDEX c;
	cmd_MI_STORE_DATA_INDEX_unpack(cs_gen(e), dw, len, &c);
	uint32_t n = len > 2 ? len - 2 : 0;
	if (n > 2)
		return cs_fault(e, "MI_STORE_DATA_INDEX: bad length %u", len);
	uint64_t addr = (uint64_t)e->hws_pga + c.offset * 4ull;
	struct gt_vm vm = cs_vm_for(e, true);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t avail;
		uint32_t *p = vm_map(&vm, addr + 4 * i, true, &avail);
		if (!p || avail < 4 || ((uintptr_t)p & 3))
			return mi_write(e, d, true, addr, dw + 2, n * 4);
		__atomic_store_n(p, dw[2 + i], __ATOMIC_RELEASE);
	}
	return CS_NEXT;
}

MI_HANDLER(mi_copy_mem_mem)
{
	struct cmd_MI_COPY_MEM_MEM c;
	cmd_MI_COPY_MEM_MEM_unpack(cs_gen(e), dw, len, &c);
	uint32_t v;
	enum cs_result r = mi_read(e, d, c.use_global_gtt_source, c.source_memory_address, &v, 4);
	if (r != CS_NEXT)
		return r;
	return mi_write(e, d, c.use_global_gtt_destination, c.destination_memory_address, &v, 4);
}

static uint64_t timestamp(struct gt_engine *e)
{
	return cs_reg_read64(e, e->base + RING_TIMESTAMP);
}

/* MI_REPORT_PERF_COUNT (BDW/SKL PRM vol. 2a; the OA report layout of
 * vol. 14 "Observability"): writes a 64-byte report at Memory Address
 * (64-byte aligned): dword 0 the Report ID, dword 1 the GPU timestamp's low
 * 32 bits (RING_TIMESTAMP, as the OA unit stamps its reports). gtsim has no
 * OA unit, so the rest (context ID, GPU clock ticks, the A/B/C counters) is
 * that of a unit that never counted: zero. The report is the size of the
 * smallest Gen8/9 OA format (A12, C4_B8); OACONTROL's format is not read. */
MI_HANDLER(mi_report_perf_count)
{
	struct cmd_MI_REPORT_PERF_COUNT c;
	cmd_MI_REPORT_PERF_COUNT_unpack(cs_gen(e), dw, len, &c);
	uint32_t report[16] = { c.report_id, (uint32_t)timestamp(e) };
	TRACE(TRACE_CS, "%s: MI_REPORT_PERF_COUNT id 0x%x at 0x%llx", e->name, c.report_id,
	      (unsigned long long)c.memory_address);
	return mi_write(e, d, c.use_global_gtt, c.memory_address, report, sizeof(report));
}

/* MI_FLUSH_DW post-sync: 1 writes the immediate data (a dword, or a qword
 * when the command has 5 dwords), 3 writes TIMESTAMP. */
MI_HANDLER(mi_flush_dw)
{
	struct cmd_MI_FLUSH_DW c;
	cmd_MI_FLUSH_DW_unpack(cs_gen(e), dw, len, &c);
	bool ggtt = c.destination_address_type != 0;
	uint64_t addr = c.address;
	if (c.store_data_index) {
		addr = (uint64_t)e->hws_pga + (addr & 0xfff);
		ggtt = true;
	}
	if (c.post_sync_operation == 1) {
		uint32_t data[2] = { len > 3 ? dw[3] : 0, len > 4 ? dw[4] : 0 };
		return mi_write(e, d, ggtt, addr, data, len > 4 ? 8 : 4);
	}
	if (c.post_sync_operation == 3) {
		uint64_t ts = timestamp(e);
		return mi_write(e, d, ggtt, addr, &ts, 8);
	}
	if (c.post_sync_operation == 2)
		return cs_fault(e, "MI_FLUSH_DW: reserved post-sync operation 2");
	return CS_NEXT;
}

/* PIPE_CONTROL post-sync (BDW PRM vol. 2a): 1 writes the QWord immediate
 * data, 2 the REG_PS_DEPTH_COUNT register, 3 TIMESTAMP; through the GGTT when
 * Destination Address Type is 1. With LRI Post-Sync Operation set
 * (MMIO_WRITE_IMMEDIATE_DATA, with Post-Sync Operation "Write Immediate
 * Data"), the low dword of Immediate Data goes to the MMIO register at
 * Address bits 22:2 instead of memory. */
MI_HANDLER(mi_pipe_control)
{
	struct cmd_PIPE_CONTROL c;
	cmd_PIPE_CONTROL_unpack(cs_gen(e), dw, len, &c);
	uint64_t addr = c.address, v;
	bool ggtt = c.destination_address_type != 0;

	if (c.lri_post_sync_operation) {
		if (c.post_sync_operation != 1)
			return cs_not_implemented(e, d, dw, len, "with LRI post-sync and "
						  "no Write Immediate Data");
		uint32_t reg = (uint32_t)addr & 0x7ffffc;
		if (!mi_register_write_allowed(e, d, reg))
			return CS_NEXT;
		if (!cs_reg_known(e, reg))
			return mi_register_unknown(e, d, dw, len, reg);
		cs_reg_write(e, reg, (uint32_t)c.immediate_data);
		return CS_NEXT;
	}
	if (c.store_data_index) {
		addr = (uint64_t)e->hws_pga + (addr & 0xfff);
		ggtt = true;
	}
	switch (c.post_sync_operation) {
	case 1: v = c.immediate_data; break;
	case 2: v = cs_reg_read64(e, REG_PS_DEPTH_COUNT); break;
	case 3: v = timestamp(e); break;
	default: return CS_NEXT;
	}
	/* The QWord goes to a QWord-aligned address: bit 2 of Address is
	 * dropped (IGT's gem_pipe_control_store_loop sets it, the gen4-7
	 * "global GTT" bit, and on BDW/SKL reads its value at the aligned
	 * address). */
	return mi_write(e, d, ggtt, addr & ~7ull, &v, 8);
}
