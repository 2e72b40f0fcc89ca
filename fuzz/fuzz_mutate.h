/* Mutations of a valid command stream or state buffer, for the draw and
 * walker targets: each picks a dword and changes bits of it (one bit, a
 * field of 1-32 bits set to a value, a mask XORed, the whole dword
 * replaced, cleared or all ones). Which dword and which bits come from the
 * input, so libFuzzer learns the places where a change reaches further. */
#ifndef GTSIM_FUZZ_MUTATE_H
#define GTSIM_FUZZ_MUTATE_H

#include "fuzz_input.h"

static inline void fuzz_mutate_dword(struct fuzz_input *in, uint32_t *dw)
{
	uint8_t op = fuzz_u8(in);
	switch (op % 6) {
	case 0:
		*dw ^= 1u << (fuzz_u8(in) % 32);
		break;
	case 1: {   /* a field: bits lo..lo+width-1 set to a value */
		unsigned lo = fuzz_u8(in) % 32;
		unsigned width = 1 + fuzz_u8(in) % (32 - lo);
		uint32_t mask = width == 32 ? ~0u : ((1u << width) - 1) << lo;
		uint32_t v = (uint32_t)fuzz_size(in, width) << lo;
		*dw = (*dw & ~mask) | (v & mask);
		break;
	}
	case 2:
		*dw ^= fuzz_u32(in);
		break;
	case 3:
		*dw = fuzz_u32(in);
		break;
	case 4:
		*dw = 0;
		break;
	default:
		*dw = ~0u;
		break;
	}
}

/* count mutations of dw[0..n). */
static inline void fuzz_mutate_dwords(struct fuzz_input *in, uint32_t *dw, unsigned n,
				      unsigned count)
{
	for (unsigned i = 0; i < count && n; i++)
		fuzz_mutate_dword(in, &dw[fuzz_pick(in, n)]);
}

#endif
