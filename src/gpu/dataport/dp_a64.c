/* The A64 messages of data cache 1 (PRM vol. 7 "A64 ..."; Mesa's
 * GFX8/9_DATAPORT_DC_PORT1_A64_*): the untyped, scattered and atomic
 * messages with a 64-bit graphics address per slot instead of a surface
 * offset (two registers per 8 slots), no binding table and no bounds
 * (an unmapped address is a page fault), and the OWord block messages
 * with the address in header M0.1:M0.0. Control bits as Mesa's
 * brw_dp_a64_*_desc set them: untyped: 11:8 channel mask, 13:12 SIMD mode
 * (1 SIMD16, 2 SIMD8); scattered: 9:8 subtype (0 byte scattered), 11:10
 * element size (0 byte, 1 word, 2 dword), 12 SIMD16; atomics (SIMD8):
 * 11:8 operation, 12 64-bit data, 13 return; OWord block: 10:8 size as
 * the OWord block messages, 12:11 non-zero for a dword-aligned address. */
#include <string.h>

#include "gpu/dataport/dp_priv.h"

/* The 64-bit address of slot i of the vector at payload register k. */
static uint64_t addr64(struct dp_msg *m, unsigned k, unsigned i)
{
	return (uint64_t)dp_slot(m, k, (i / 4) * 8 + (i % 4) * 2) |
	       (uint64_t)dp_slot(m, k, (i / 4) * 8 + (i % 4) * 2 + 1) << 32;
}

int dp_a64_untyped_rw(struct dp_msg *m)
{
	bool write = m->info->type == 0x19;
	unsigned cmask = m->ctrl & 15, mode = (m->ctrl >> 4) & 3;
	unsigned simd = mode == 1 ? 16 : mode == 2 ? 8 : 0, h = m->s->header;
	if (!simd)
		return dp_fail(m, "SIMD mode %u is not implemented", mode);
	if (cmask == 15)
		return dp_fail(m, "every channel masked");
	unsigned nch = 4 - (unsigned)__builtin_popcount(cmask), regs = simd / 8;
	if (dp_check_len(m, h + 2 * regs + (write ? nch * regs : 0), write ? 0 : nch * regs))
		return -1;
	struct dp_surface s;
	dp_surface_a64(&s);
	uint64_t addr[DP_MAX_SLOTS];
	for (unsigned i = 0; i < simd; i++)
		addr[i] = addr64(m, h, i);
	dp_tr_surface(m, &s);
	return dp_untyped_slots(m, &s, addr, simd, cmask, write, h + 2 * regs);
}

int dp_a64_scattered(struct dp_msg *m)
{
	bool write = m->info->type == 0x1a;
	unsigned sub = m->ctrl & 3, ds = (m->ctrl >> 2) & 3, simd = (m->ctrl >> 4) & 1 ? 16 : 8;
	unsigned regs = simd / 8, h = m->s->header;
	if (sub != 0)
		return dp_fail(m, "subtype %u (only byte scattered is implemented)", sub);
	if (ds == 3)
		return dp_fail(m, "reserved element size 3");
	if (dp_check_len(m, h + 2 * regs + (write ? regs : 0), write ? 0 : regs))
		return -1;
	struct dp_surface s;
	dp_surface_a64(&s);
	dp_tr_surface(m, &s);
	dp_tr(m, ": SIMD%u %u-byte elements at", simd, 1u << ds);
	uint32_t slots = dp_slots(m, simd);
	for (unsigned i = 0; i < simd; i++) {
		if (!(slots >> i & 1))
			continue;
		uint64_t a = addr64(m, h, i);
		uint32_t v = 0;
		bool oob;
		if (write) {
			v = dp_slot(m, h + 2 * regs, i);
			if (dp_write(m, &s, a, &v, 1u << ds, &oob))
				return -1;
		} else {
			if (dp_read(m, &s, a, &v, 1u << ds, &oob))
				return -1;
			dp_set_slot(m, 0, i, v);
		}
		dp_tr(m, " %u:0x%llx", i, (unsigned long long)a);
	}
	return 0;
}

static int a64_atomic(struct dp_msg *m, bool is_float)
{
	unsigned op = m->ctrl & 15, h = m->s->header;
	bool ret_data = (m->ctrl >> 5) & 1;
	if (!is_float && (m->ctrl >> 4) & 1)
		return dp_fail(m, "64-bit atomics are not implemented");
	if (is_float ? op < 1 || op > 3 : op < 1)
		return dp_fail(m, "reserved atomic operation %u", op);
	unsigned nsrc = is_float ? dp_fop_sources(op) : dp_aop_sources(op);
	if (dp_check_len(m, h + 2 + nsrc, ret_data ? 1 : 0))
		return -1;
	struct dp_surface s;
	dp_surface_a64(&s);
	dp_tr_surface(m, &s);
	dp_tr(m, ": op %u%s:", op, ret_data ? " return" : "");
	uint32_t slots = dp_slots(m, 8);
	for (unsigned i = 0; i < 8; i++) {
		if (!(slots >> i & 1))
			continue;
		uint32_t s0 = nsrc > 0 ? dp_slot(m, h + 2, i) : 0;
		uint32_t s1 = nsrc > 1 ? dp_slot(m, h + 3, i) : 0;
		uint32_t r;
		if (dp_atomic_slot(m, &s, addr64(m, h, i), is_float, op, s0, s1, &r, i))
			return -1;
		if (ret_data)
			dp_set_slot(m, 0, i, r);
	}
	return 0;
}

int dp_a64_atomic(struct dp_msg *m)
{
	return a64_atomic(m, false);
}

int dp_a64_atomic_float(struct dp_msg *m)
{
	return a64_atomic(m, true);
}

int dp_a64_oword_block(struct dp_msg *m)
{
	bool write = m->info->type == 0x15;
	unsigned bs = m->ctrl & 7, n = dp_owords_of(bs), regs = n <= 2 ? 1 : n / 2;
	if (!n)
		return dp_fail(m, "reserved block size %u", bs);
	if (!m->s->header)
		return dp_fail(m, "no header (it carries the address)");
	if (dp_check_len(m, write ? 1 + regs : 1, write ? 0 : regs))
		return -1;
	const uint32_t *hd = dp_payload(m, 0);
	bool aligned = ((m->ctrl >> 3) & 3) == 0;
	uint64_t a = ((uint64_t)hd[1] << 32 | hd[0]) & (aligned ? ~15ull : ~3ull);
	struct dp_surface s;
	dp_surface_a64(&s);
	unsigned half = n == 1 && bs == 1 ? 16 : 0, len = n == 1 ? 16 : 32;
	bool oob;
	for (unsigned r = 0; r < regs; r++) {
		uint64_t at = a + 32ull * r;
		if (write ? dp_write(m, &s, at, (const uint8_t *)dp_payload(m, 1 + r) + half, len, &oob)
			  : dp_read(m, &s, at, (uint8_t *)dp_response(m, r) + half, len, &oob))
			return -1;
	}
	dp_tr_surface(m, &s);
	dp_tr(m, ": %u OWords at 0x%llx", n, (unsigned long long)a);
	return 0;
}
