/* Untyped surface read and write (PRM vol. 7 "Untyped Surface
 * Read/Write"; data cache 1 types 1 and 9): for each slot a byte offset
 * (dword aligned) and up to four consecutive dwords, the channels R, G, B,
 * A at offset + 0, 4, 8, 12. Descriptor 11:8 is the channel mask (a set
 * bit skips the channel, Mesa's brw_mdc_cmask), 13:12 the SIMD mode (1
 * SIMD16, 2 SIMD8; 0 SIMD4x2 is the vec4 back end's). Payload: an optional
 * header, the offsets (1 register per 8 slots), then for a write the data
 * channel by channel; a read returns the enabled channels the same way.
 * Each dword is bounded on its own. */
#include "gpu/dataport/dp_priv.h"

int dp_untyped_slots(struct dp_msg *m, const struct dp_surface *s, const uint64_t *addr,
		     unsigned simd, unsigned cmask, bool write, unsigned data_reg)
{
	unsigned regs = simd / 8, k = 0;
	uint32_t slots = dp_slots(m, simd);
	for (unsigned c = 0; c < 4; c++) {
		if (cmask >> c & 1)
			continue;
		for (unsigned i = 0; i < simd; i++) {
			if (!(slots >> i & 1))
				continue;
			uint64_t off = addr[i] + 4ull * c;
			uint32_t v = 0;
			bool oob;
			int err;
			if (write) {
				v = dp_slot(m, data_reg + k * regs, i);
				err = dp_write(m, s, off, &v, 4, &oob);
			} else {
				err = dp_read(m, s, off, &v, 4, &oob);
			}
			if (err)
				return -1;
			if (!write)
				dp_set_slot(m, k * regs, i, v);
			if (oob)
				m->oob |= 1u << i;
		}
		k++;
	}
	dp_tr(m, ": SIMD%u channels %s%s%s%s at", simd, cmask & 1 ? "" : "R",
	      cmask & 2 ? "" : "G", cmask & 4 ? "" : "B", cmask & 8 ? "" : "A");
	for (unsigned i = 0; i < simd; i++)
		if (slots >> i & 1)
			dp_tr(m, " %u:0x%llx", i, (unsigned long long)addr[i]);
	return 0;
}

/* SIMD8 or 16 from the SIMD mode of descriptor 13:12; 0 for SIMD4x2. */
static unsigned simd_of(unsigned mode)
{
	return mode == 1 ? 16 : mode == 2 ? 8 : 0;
}

int dp_untyped_rw(struct dp_msg *m)
{
	bool write = m->info->type == 9;
	unsigned cmask = m->ctrl & 15, simd = simd_of(m->ctrl >> 4);
	if (!simd)
		return dp_fail(m, "SIMD mode %u (SIMD4x2 or reserved) is not implemented",
			       m->ctrl >> 4);
	if (cmask == 15)
		return dp_fail(m, "every channel masked");
	unsigned nch = 4 - (unsigned)__builtin_popcount(cmask), regs = simd / 8;
	unsigned h = m->s->header;
	if (dp_check_len(m, h + regs + (write ? nch * regs : 0), write ? 0 : nch * regs))
		return -1;
	struct dp_surface s;
	if (dp_surface_open(m, &s))
		return -1;
	uint64_t addr[DP_MAX_SLOTS];
	for (unsigned i = 0; i < simd; i++)
		addr[i] = dp_slot(m, h, i);
	dp_tr_surface(m, &s);
	return dp_untyped_slots(m, &s, addr, simd, cmask, write, h + regs);
}
