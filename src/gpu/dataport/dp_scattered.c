/* The scattered messages of the constant cache and data cache 0 (PRM
 * vol. 7 "DWord Scattered Read/Write", "Byte Scattered Read/Write"): one
 * element per slot, SIMD8 or SIMD16, an optional header, then the slots'
 * offsets (DWord scattered: in dwords, as Mesa's load_scratch notes; byte
 * scattered: in bytes), then for a write one dword of data per slot. The
 * response is one dword per slot; a byte or word read is zero-extended.
 * DWord scattered: descriptor 9:8 = 2 SIMD8, 3 SIMD16. Byte scattered:
 * descriptor 8 SIMD16, 11:10 element size (0 byte, 1 word, 2 dword). */
#include <string.h>

#include "gpu/dataport/dp_priv.h"

static int scattered(struct dp_msg *m, unsigned simd, unsigned elem, unsigned unit, bool write)
{
	unsigned h = m->s->header, regs = simd / 8;
	if (dp_check_len(m, h + regs * (write ? 2 : 1), write ? 0 : regs))
		return -1;
	if (h && dp_payload(m, 0)[2])
		return dp_fail(m, "a header global offset (M0.2 = 0x%x) is not implemented",
			       dp_payload(m, 0)[2]);
	struct dp_surface s;
	if (dp_surface_open(m, &s))
		return -1;
	dp_tr_surface(m, &s);
	dp_tr(m, ": SIMD%u %u-byte elements at", simd, elem);
	uint32_t slots = dp_slots(m, simd);
	for (unsigned i = 0; i < simd; i++) {
		if (!(slots >> i & 1))
			continue;
		uint64_t off = (uint64_t)dp_slot(m, h, i) * unit;
		uint32_t v = 0;
		bool oob;
		int err;
		if (write) {
			v = dp_slot(m, h + regs, i);
			err = dp_write(m, &s, off, &v, elem, &oob);
		} else {
			err = dp_read(m, &s, off, &v, elem, &oob);
		}
		if (err)
			return -1;
		if (!write)
			dp_set_slot(m, 0, i, v);
		if (oob)
			m->oob |= 1u << i;
		dp_tr(m, " %u:0x%llx", i, (unsigned long long)off);
	}
	return 0;
}

int dp_dword_scattered(struct dp_msg *m)
{
	unsigned bs = m->ctrl & 3;
	if (bs < 2)
		return dp_fail(m, "block size %u (SIMD4x2 or reserved) is not implemented", bs);
	return scattered(m, bs == 3 ? 16 : 8, 4, 4, m->info->type == 11);
}

int dp_byte_scattered(struct dp_msg *m)
{
	unsigned ds = (m->ctrl >> 2) & 3;
	if (ds == 3)
		return dp_fail(m, "reserved data size 3");
	return scattered(m, m->ctrl & 1 ? 16 : 8, 1u << ds, 1, m->info->type == 12);
}
