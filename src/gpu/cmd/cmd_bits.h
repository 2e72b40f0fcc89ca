/* Bit access for the generated pack/unpack functions (cmd_structs.c) and
 * the table-driven field access of cmd.c. Bits are counted from bit 0 of
 * dw[0] (DWord n bit b is bit n*32+b); dwords at or past len read as 0 and
 * are never written. */
#ifndef GTSIM_CMD_CMD_BITS_H
#define GTSIM_CMD_CMD_BITS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t cmd_dword_at(const uint32_t *dw, uint32_t len, uint64_t n)
{
	return n < len ? dw[n] : 0;
}

/* width (1..64) bits starting at bit start, shifted down to bit 0. */
static inline uint64_t cmd_bits(const uint32_t *dw, uint32_t len, uint64_t start, unsigned width)
{
	uint64_t first = start / 32;
	unsigned lo = (unsigned)(start % 32);
	uint64_t v = cmd_dword_at(dw, len, first) >> lo;
	if (lo + width > 32)
		v |= (uint64_t)cmd_dword_at(dw, len, first + 1) << (32 - lo);
	if (lo + width > 64)
		v |= (uint64_t)cmd_dword_at(dw, len, first + 2) << (64 - lo);
	return width >= 64 ? v : v & ((1ull << width) - 1);
}

/* The same, sign extended from the field's top bit. */
static inline int64_t cmd_bits_signed(const uint32_t *dw, uint32_t len, uint64_t start, unsigned width)
{
	uint64_t v = cmd_bits(dw, len, start, width);
	if (width < 64 && (v >> (width - 1)) & 1)
		v |= ~0ull << width;
	return (int64_t)v;
}

/* Addresses and offsets keep their bits in place: a field at bits 47:6 of
 * its dword pair yields the byte address (its low bits zero). */
static inline uint64_t cmd_bits_in_place(const uint32_t *dw, uint32_t len, uint64_t start, unsigned width)
{
	return cmd_bits(dw, len, start, width) << (start % 32);
}

static inline float cmd_bits_float(const uint32_t *dw, uint32_t len, uint64_t start)
{
	uint32_t u = (uint32_t)cmd_bits(dw, len, start, 32);
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Store the low width bits of value at bit start; -1 (and nothing
 * written) when value has bits above width or the field is past len. */
static inline int cmd_put(uint32_t *dw, uint32_t len, uint64_t start, unsigned width, uint64_t value)
{
	uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
	if (value & ~mask || (start + width - 1) / 32 >= len)
		return -1;
	for (unsigned bit = 0; bit < width; ) {
		uint64_t pos = start + bit;
		uint32_t n = (uint32_t)(pos / 32), b = (uint32_t)(pos % 32);
		unsigned take = 32 - b;
		if (take > width - bit)
			take = width - bit;
		uint32_t m = take == 32 ? ~0u : ((1u << take) - 1) << b;
		dw[n] = (dw[n] & ~m) | ((uint32_t)(value >> bit) << b & m);
		bit += take;
	}
	return 0;
}

static inline int cmd_put_signed(uint32_t *dw, uint32_t len, uint64_t start, unsigned width, int64_t value)
{
	if (width < 64 && (value < -(1ll << (width - 1)) || value >= (1ll << (width - 1))))
		return -1;
	return cmd_put(dw, len, start, width,
		       width >= 64 ? (uint64_t)value : (uint64_t)value & ((1ull << width) - 1));
}

/* An address or offset in place: its bits below the field must be 0. */
static inline int cmd_put_in_place(uint32_t *dw, uint32_t len, uint64_t start, unsigned width, uint64_t value)
{
	unsigned lo = (unsigned)(start % 32);
	if (value & ((1ull << lo) - 1))
		return -1;
	return cmd_put(dw, len, start, width, value >> lo);
}

static inline int cmd_put_float(uint32_t *dw, uint32_t len, uint64_t start, float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return cmd_put(dw, len, start, 32, u);
}

/* A command's header dword: the opcode bits and DWord Length for len. */
static inline int cmd_put_header(uint32_t *dw, uint32_t len, uint64_t bit, uint32_t match,
				 uint32_t mask, uint32_t len_mask, uint32_t bias)
{
	(void)mask;
	if (bit % 32 || bit / 32 >= len)
		return -1;
	uint32_t *d = dw + bit / 32;
	*d = (*d & ~len_mask) | match;
	if (len_mask) {
		unsigned shift = (unsigned)__builtin_ctz(len_mask);
		uint32_t n = len - (uint32_t)(bit / 32);
		if (n < bias || ((n - bias) << shift & ~len_mask))
			return -1;
		*d |= (n - bias) << shift;
	}
	return 0;
}

/* Elements of size bits from bit start that fit in len dwords. */
static inline uint32_t cmd_group_count(uint64_t start, uint64_t size, uint32_t len)
{
	uint64_t bits = (uint64_t)len * 32;
	if (bits <= start || !size)
		return 0;
	return (uint32_t)((bits - start) / size);
}

#endif
