/* URB writes of SIMD4x2 threads (PRM vol. 7 "URB_WRITE_HWORD /
 * URB_WRITE_OWORD", message header M0; the vec4 GS in DUAL_OBJECT and
 * DUAL_INSTANCE dispatch). Two slots, each a URB entry:
 *   M0.0, M0.1   the handles of slot 0 and slot 1 (bits 15:0),
 *   M0.3, M0.4   the slots' offsets, added to the descriptor's Global
 *                Offset with Per-Slot Offset (descriptor bit 17),
 *   M0.5 15:8    channel masks: bits 11:8 DATA[3:0] of slot 0, bits 15:12
 *                of slot 1, ANDed with the channel enables (drivers set
 *                0xff00 when they mean every channel).
 * Offsets count 256-bit units for the HWord message and 128-bit units for
 * the OWord one. With Swizzle Control URB_INTERLEAVED (descriptor bit 15)
 * data register j carries the j-th 128-bit row of both slots: DWords 3:0
 * slot 0's, 7:4 slot 1's, under channels 0-3 and 4-7 of the SIMD4x2
 * execution mask. URB_NOSWIZZLE (one slot's 256 bits a register) is not
 * implemented and faults by name. */
#include <string.h>

#include "common/trace.h"
#include "gpu/sfid/urb.h"

int urb_simd4x2_write(const struct urb_space *u, struct eu_thread *t, const struct eu_send *msg,
		      bool hword)
{
	uint32_t global = (msg->func >> 4) & 0x7ff;
	bool interleave = (msg->func >> 15) & 1, per_slot = (msg->func >> 17) & 1;
	const char *name = hword ? "URB_WRITE_HWORD" : "URB_WRITE_OWORD";
	if (!interleave) {
		TRACE_STUB_ONCE("urb: %s with URB_NOSWIZZLE not implemented", name);
		return eu_thread_fault(t, "ip 0x%x: %s with Swizzle Control URB_NOSWIZZLE is "
				       "not implemented", msg->ip, name);
	}
	if (msg->exec_size != 8)
		return eu_thread_fault(t, "ip 0x%x: %s with exec size %u (SIMD4x2 is 8)",
				       msg->ip, name, msg->exec_size);
	const uint8_t *m0 = eu_send_payload(t, msg, 0);
	if (!m0 || msg->mlen < 2)
		return eu_thread_fault(t, "ip 0x%x: %s without data (mlen %u)", msg->ip, name,
				       msg->mlen);
	unsigned rows = msg->mlen - 1u, unit_rows = hword ? 2 : 1;
	uint32_t masks = (urb_reg_dw(m0, 5) >> 8) & 0xff;
	for (unsigned s = 0; s < 2; s++) {
		unsigned enables = (msg->mask >> (4 * s)) & (masks >> (4 * s)) & 0xf;
		if (!enables)
			continue;
		uint32_t handle = urb_reg_dw(m0, s) & 0xffff;
		uint32_t row = (global + (per_slot ? urb_reg_dw(m0, 3 + s) : 0)) * unit_rows;
		const char *why = "";
		uint8_t *p = urb_entry_bytes(u, handle, row * 16, rows * 16, &why);
		if (!p)
			return eu_thread_fault(t, "ip 0x%x: %s slot %u handle 0x%x row %u, %u "
					       "rows: %s", msg->ip, name, s, handle, row, rows,
					       why);
		for (unsigned j = 0; j < rows; j++) {
			const uint8_t *reg = eu_send_payload(t, msg, 1 + j);
			for (unsigned c = 0; c < 4; c++)
				if ((enables >> c) & 1)
					memcpy(p + 16 * j + 4 * c, reg + 16 * s + 4 * c, 4);
		}
	}
	TRACE(TRACE_SEND, "urb: SIMD4x2 %s offset %u%s, %u rows, handles 0x%x 0x%x, "
	      "masks 0x%02x, exec mask 0x%x", hword ? "HWord write" : "OWord write", global,
	      per_slot ? " per-slot" : "", rows, urb_reg_dw(m0, 0) & 0xffff,
	      urb_reg_dw(m0, 1) & 0xffff, masks,
	      msg->mask);
	return 0;
}
