/* Bit counts on hot paths. The build's baseline x86-64 has no popcnt
 * instruction, so __builtin_popcount there is a call into libgcc
 * (__popcountdi2, a table walk); this is the shift-and-add count, a dozen
 * ALU operations inline. */
#ifndef GTSIM_COMMON_BITS_H
#define GTSIM_COMMON_BITS_H

#include <stdint.h>

static inline unsigned bits_count32(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	v = (v + (v >> 4)) & 0x0f0f0f0fu;
	return (v * 0x01010101u) >> 24;
}

#endif
