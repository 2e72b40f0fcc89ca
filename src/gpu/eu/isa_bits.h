/* Bit fields of a 128-bit native instruction held as two little-endian
 * qwords. Field positions follow the Gen8 PRM "EU Instruction Format"
 * numbering (bit 0 = lowest bit of the first dword). */
#ifndef GTSIM_EU_ISA_BITS_H
#define GTSIM_EU_ISA_BITS_H

#include <stdint.h>

static inline uint64_t isa_get(const uint64_t q[2], unsigned hi, unsigned lo)
{
	unsigned w = lo / 64, h = hi % 64, l = lo % 64;
	uint64_t mask = ~0ull >> (63 - (h - l));
	return (q[w] >> l) & mask;
}

static inline void isa_set(uint64_t q[2], unsigned hi, unsigned lo, uint64_t v)
{
	unsigned w = lo / 64, h = hi % 64, l = lo % 64;
	uint64_t mask = ~0ull >> (63 - (h - l));
	q[w] = (q[w] & ~(mask << l)) | ((v & mask) << l);
}

static inline uint64_t isa_get64(uint64_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & (~0ull >> (63 - (hi - lo)));
}

static inline void isa_set64(uint64_t *v, unsigned hi, unsigned lo, uint64_t x)
{
	uint64_t mask = ~0ull >> (63 - (hi - lo));
	*v = (*v & ~(mask << lo)) | ((x & mask) << lo);
}

#endif
