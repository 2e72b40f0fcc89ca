/* URB messages (PRM vol. 7 "URB SIMD8 Write/Read"): payload register 0
 * holds one handle per slot (bits 15:0), then optional per-slot offsets
 * (descriptor bit 17), optional channel masks in bits 23:16 (bit 15, writes
 * only), then the data: data register j carries DWord j of each slot's
 * 128-bit rows starting at (global offset + slot offset) * 4 DWords. */
#include "gpu/sfid/urb.h"

#include <string.h>

#include "common/trace.h"

enum {
	URB_OP_WRITE_HWORD = 0,
	URB_OP_WRITE_OWORD = 1,
	URB_OP_SIMD8_WRITE = 7,
	URB_OP_SIMD8_READ = 8,
};

uint8_t *urb_entry_bytes(const struct urb_space *u, uint32_t handle, uint32_t off,
			 uint32_t n, const char **why)
{
	uint64_t at = (uint64_t)handle * 64;
	for (int p = 0; p < URB_NUM_PARTS; p++) {
		uint32_t eb = u->part[p].entry_bytes;
		if (!eb || at < u->part[p].first ||
		    at >= u->part[p].first + (uint64_t)eb * u->part[p].entries)
			continue;
		if ((at - u->part[p].first) % eb) {
			*why = "handle is not the start of an entry";
			return NULL;
		}
		if ((uint64_t)off + n > eb) {
			*why = "offset past the end of the entry";
			return NULL;
		}
		if (at + off + n > u->bytes) {
			*why = "entry past the end of the URB";
			return NULL;
		}
		return u->mem + at + off;
	}
	*why = "handle outside every URB partition";
	return NULL;
}

int urb_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	const struct urb_space *u = ctx;
	unsigned opcode = msg->func & 0xf;
	uint32_t global = (msg->func >> 4) & 0x7ff;
	bool masked = (msg->func >> 15) & 1, per_slot = (msg->func >> 17) & 1;
	bool write = opcode == URB_OP_SIMD8_WRITE;

	if (opcode == URB_OP_WRITE_HWORD || opcode == URB_OP_WRITE_OWORD)
		return urb_simd4x2_write(u, t, msg, opcode == URB_OP_WRITE_HWORD);
	if (opcode != URB_OP_SIMD8_WRITE && opcode != URB_OP_SIMD8_READ) {
		TRACE_STUB_ONCE("urb: message opcode %u not implemented", opcode);
		return eu_thread_fault(t, "ip 0x%x: URB opcode %u not implemented",
				       msg->ip, opcode);
	}
	if (msg->exec_size > 8)
		return eu_thread_fault(t, "ip 0x%x: URB SIMD8 message with exec size %u",
				       msg->ip, msg->exec_size);
	const uint8_t *handles = eu_send_payload(t, msg, 0);
	unsigned k = 1;
	const uint8_t *offsets = per_slot ? eu_send_payload(t, msg, k++) : NULL;
	const uint8_t *masks = write && masked ? eu_send_payload(t, msg, k++) : NULL;
	if (!handles || (per_slot && !offsets) || (write && masked && !masks))
		return eu_thread_fault(t, "ip 0x%x: URB message too short (mlen %u)",
				       msg->ip, msg->mlen);
	unsigned ndata = write ? msg->mlen - k : msg->rlen;
	if (!write && msg->mlen != k)
		return eu_thread_fault(t, "ip 0x%x: URB read with mlen %u", msg->ip, msg->mlen);

	for (unsigned c = 0; c < 8; c++) {
		if (!((msg->mask >> c) & 1))
			continue;
		uint32_t handle = urb_reg_dw(handles, c) & 0xffff;
		uint32_t row = global + (offsets ? urb_reg_dw(offsets, c) : 0);
		uint32_t cmask = masks ? (urb_reg_dw(masks, c) >> 16) & 0xff : 0xff;
		const char *why = "";
		uint8_t *p = urb_entry_bytes(u, handle, row * 16, ndata * 4, &why);
		if (!p)
			return eu_thread_fault(t, "ip 0x%x: URB %s slot %u handle 0x%x "
					       "offset %u, %u dwords: %s", msg->ip,
					       write ? "write" : "read", c, handle, row,
					       ndata, why);
		for (unsigned j = 0; j < ndata; j++) {
			if (write) {
				if ((cmask >> (j % 4)) & 1)
					memcpy(p + 4 * j, eu_send_payload(t, msg, k + j) + 4 * c, 4);
			} else {
				memcpy(eu_send_response(t, msg, j) + 4 * c, p + 4 * j, 4);
			}
		}
	}
	TRACE(TRACE_SEND, "urb: SIMD8 %s offset %u%s%s, %u dwords, mask 0x%x",
	      write ? "write" : "read", global, per_slot ? " per-slot" : "",
	      masks ? " masked" : "", ndata, msg->mask);
	return 0;
}
