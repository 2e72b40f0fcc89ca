/* send/sendc: decode the message descriptor (PRM vol. 7 "send": desc 28:25
 * message length, 24:20 response length, 19 header present, 18:0 function
 * control; the SFID and EOT come from the instruction) and hand the
 * payload to the shared function registered for the SFID (send.h). */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/exec_internal.h"
#include "gpu/eu/opcodes.h"
#include "gpu/eu/send.h"

uint32_t exec_send(struct eu_thread *t, const struct exec_op *op, uint32_t en)
{
	const struct eu_inst *in = &op->inst;
	struct eu_send m;
	memset(&m, 0, sizeof(m));
	m.sfid = in->sfid;
	m.desc = in->desc;
	if (in->desc_is_reg)
		memcpy(&m.desc, eu_arf(t, EU_ARF_A0), 4);
	m.ex_desc = in->ex_desc;
	if (in->ex_desc_is_reg)    /* sends: a0.<subnr>, a dword (ex_desc_subnr <= 7) */
		memcpy(&m.ex_desc, eu_arf(t, EU_ARF_A0) + 4 * (in->ex_desc_subnr & 7), 4);
	m.mlen = (m.desc >> 25) & 15;
	m.rlen = (m.desc >> 20) & 31;
	m.header = (m.desc >> 19) & 1;
	m.func = m.desc & 0x7ffff;
	m.eot = in->eot;
	m.sendc = in->opcode == EU_OP_SENDC || in->opcode == EU_OP_SENDSC;
	m.split = in->opcode == EU_OP_SENDS || in->opcode == EU_OP_SENDSC;
	m.exec_size = op->exec_size;
	m.group = op->group;
	m.mask = en;
	m.ip = op->offset;
	if (in->src[0].file != EU_FILE_GRF || in->src[0].addr_mode != EU_ADDR_DIRECT) {
		eu_thread_fault(t, "ip 0x%x: send payload is not a GRF", op->offset);
		return op->index;
	}
	m.src = in->src[0].nr;
	bool dst_null = in->dst.file == EU_FILE_ARF && (in->dst.nr & 0xf0) == EU_ARF_NULL;
	/* without a response the destination is not written: IGT's gpgpu and
	 * media fill kernels name acc0 there (and run on the hardware) */
	if (!m.rlen && in->dst.file != EU_FILE_GRF)
		dst_null = true;
	if (!dst_null && in->dst.file != EU_FILE_GRF) {
		eu_thread_fault(t, "ip 0x%x: send response register is not a GRF", op->offset);
		return op->index;
	}
	m.dst = dst_null ? 0 : in->dst.nr;
	if (m.mlen == 0 || m.src + m.mlen > EU_GRF_COUNT) {
		eu_thread_fault(t, "ip 0x%x: send payload g%u..+%u past the GRF file",
				op->offset, m.src, m.mlen);
		return op->index;
	}
	if (m.split) {
		/* Gen9 split send: the second part (ex_desc 9:6 registers)
		 * starts at src1; the SFID may also sit in ex_desc 3:0 */
		m.ex_mlen = (m.ex_desc >> 6) & 15;
		if (!m.sfid)
			m.sfid = m.ex_desc & 15;
		if (m.ex_mlen) {
			if (in->src[1].file != EU_FILE_GRF || in->src[1].addr_mode != EU_ADDR_DIRECT ||
			    in->src[1].nr + m.ex_mlen > EU_GRF_COUNT) {
				eu_thread_fault(t, "ip 0x%x: sends second payload g%u..+%u is not "
						"inside the GRF file", op->offset, in->src[1].nr, m.ex_mlen);
				return op->index;
			}
			m.src2 = in->src[1].nr;
			m.mlen = (uint8_t)(m.mlen + m.ex_mlen);
		}
	}
	if (m.rlen && (dst_null || m.dst + m.rlen > EU_GRF_COUNT)) {
		eu_thread_fault(t, "ip 0x%x: send response of %u registers at %s%u",
				op->offset, m.rlen, dst_null ? "null" : "g", m.dst);
		return op->index;
	}
	if (trace_on(TRACE_SEND)) {
		char to[16] = "null";
		if (m.rlen)
			snprintf(to, sizeof(to), "g%u", m.dst);
		trace_printf(TRACE_SEND, "ip 0x%04x %s(%u) sfid %u %s desc 0x%08x ex_desc "
			     "0x%08x mlen %u rlen %u%s func 0x%05x g%u -> %s mask 0x%x%s",
			     op->offset, eu_opcode_name(op->opcode), m.exec_size, m.sfid,
			     sfid_name(m.sfid), m.desc, m.ex_desc, m.mlen, m.rlen,
			     m.header ? " header" : "", m.func, m.src, to, m.mask,
			     m.eot ? " EOT" : "");
	}
	/* handlers see plain IEEE; inside exec_run by the words it read */
	bool in_run = t->fp_on;
	unsigned host_fp = 0;
	if (in_run)
		exec_fp_ieee(t);
	else
		host_fp = exec_host_daz(false);
	int err = sfid_dispatch(t->sfids, t, &m);
	/* after the thread's end (EOT) nothing runs in the EU's mode: the
	 * host's own comes back when exec_run returns (two MXCSR loads a
	 * thread fewer: 2% of a trivial pixel shader's time) */
	if ((err || !m.eot) && in_run)
		exec_fp_eu(t);
	else if (err || !m.eot)
		exec_host_restore(host_fp);
	if (err)
		return op->index;
	if (m.eot) {
		t->state = EU_THREAD_DONE;
		return op->index;
	}
	return op->index + 1;
}

uint32_t exec_illegal(struct eu_thread *t, const struct exec_op *op, uint32_t en)
{
	(void)en;
	eu_thread_fault(t, "ip 0x%x: %s (opcode 0x%02x): %s", op->offset,
			eu_opcode_name(op->opcode), op->opcode,
			op->illegal ? op->illegal : "undefined opcode");
	return op->index;
}
