/* The block messages (PRM vol. 7 "OWord Block Read/Write", "Scratch
 * Block Read/Write"): one contiguous block per message, whatever the SIMD
 * width. OWord block: header M0.2 is the offset in OWords (the unaligned
 * read: in bytes, dword aligned), descriptor 10:8 the size (0: one OWord
 * in the low half of the register, 1: in the high half, 2/3/4: 2, 4, 8
 * OWords). Scratch block (data cache 0, descriptor bit 18): 17 write, 16
 * channel mode, 13:12 registers (0: 1, 1: 2, 3: 4), 11:0 offset in
 * 32-byte units from the thread's scratch space (header M0.5). */
#include <string.h>

#include "gpu/dataport/dp_priv.h"

unsigned dp_owords_of(unsigned bs)
{
	static const unsigned n[8] = { 1, 1, 2, 4, 8, 0, 0, 0 };
	return n[bs & 7];
}

/* Copies n OWords between memory at off and buf, dword by dword (each
 * dword out of bounds on its own); OWords with an OOB dword set m->oob. */
static int block_io(struct dp_msg *m, const struct dp_surface *s, uint64_t off, uint8_t *buf,
		    unsigned n, bool write)
{
	for (unsigned d = 0; d < n * 4; d++) {
		bool oob;
		int err = write ? dp_write(m, s, off + 4ull * d, buf + 4 * d, 4, &oob)
				: dp_read(m, s, off + 4ull * d, buf + 4 * d, 4, &oob);
		if (err)
			return -1;
		if (oob)
			m->oob |= 1u << (d / 4);
	}
	return 0;
}

static int oword_block(struct dp_msg *m, bool write)
{
	unsigned bs = m->ctrl & 7, n = dp_owords_of(bs);
	if (!n)
		return dp_fail(m, "reserved block size %u", bs);
	if (!m->s->header)
		return dp_fail(m, "no header (it carries the offset)");
	unsigned regs = n <= 2 ? 1 : n / 2;
	if (dp_check_len(m, write ? 1 + regs : 1, write ? 0 : regs))
		return -1;
	struct dp_surface s;
	if (dp_surface_open(m, &s))
		return -1;
	uint32_t m02 = dp_payload(m, 0)[2];
	uint64_t off = m->info->type == 1 ? (m02 & ~3u) : (uint64_t)m02 * 16;
	/* the one-OWord forms use the low (0) or high (1) half of the register */
	unsigned half = n == 1 && bs == 1 ? 16 : 0;
	uint8_t buf[128];
	if (write)
		for (unsigned r = 0; r < regs; r++)
			memcpy(buf + 32 * r, (const uint8_t *)dp_payload(m, 1 + r) + half,
			       n == 1 ? 16 : 32);
	if (block_io(m, &s, off, buf, n, write))
		return -1;
	if (!write)
		for (unsigned r = 0; r < regs; r++)
			memcpy((uint8_t *)dp_response(m, r) + half, buf + 32 * r, n == 1 ? 16 : 32);
	dp_tr_surface(m, &s);
	dp_tr(m, ": %u OWords at +0x%llx", n, (unsigned long long)off);
	return 0;
}

int dp_oword_block_read(struct dp_msg *m)
{
	return oword_block(m, false);
}

int dp_oword_block_write(struct dp_msg *m)
{
	return oword_block(m, true);
}

int dp_scratch_block(struct dp_msg *m)
{
	uint32_t d = m->s->desc;
	bool write = (d >> 17) & 1;
	if ((d >> 16) & 1)
		return dp_fail(m, "the DWord channel mode is not implemented");
	unsigned bs = (d >> 12) & 3, regs = bs == 3 ? 4 : bs + 1;
	if (bs == 2)
		return dp_fail(m, "reserved block size 2");
	if (!m->s->header)
		return dp_fail(m, "no header (it carries the scratch space pointer)");
	if (dp_check_len(m, write ? 1 + regs : 1, write ? 0 : regs))
		return -1;
	/* the scratch space: stateless from the header's M0.5 and M0.3 */
	m->bti = DP_BTI_STATELESS;
	struct dp_surface s;
	if (dp_surface_open(m, &s))
		return -1;
	uint64_t off = (uint64_t)(d & 0xfff) * 32;
	uint8_t buf[128];
	if (write)
		for (unsigned r = 0; r < regs; r++)
			memcpy(buf + 32 * r, dp_payload(m, 1 + r), 32);
	if (block_io(m, &s, off, buf, regs * 2, write))
		return -1;
	if (!write)
		for (unsigned r = 0; r < regs; r++)
			memcpy(dp_response(m, r), buf + 32 * r, 32);
	dp_tr_surface(m, &s);
	dp_tr(m, ": %u registers at +0x%llx", regs, (unsigned long long)off);
	return 0;
}
