/* A fuzz input read as a stream of choices (like LLVM's
 * FuzzedDataProvider): each harness turns the bytes into structured calls
 * by taking small integers, ranges and byte blocks off the front. Once the
 * bytes run out every read returns zeros, so a harness never has to check
 * for the end; fuzz_left() says when to stop a loop. */
#ifndef GTSIM_FUZZ_INPUT_H
#define GTSIM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct fuzz_input {
	const uint8_t *p;
	size_t left;
};

static inline struct fuzz_input fuzz_input(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	return in;
}

static inline size_t fuzz_left(const struct fuzz_input *in)
{
	return in->left;
}

/* n bytes into out (zeros past the end of the input). */
static inline void fuzz_bytes(struct fuzz_input *in, void *out, size_t n)
{
	size_t k = n < in->left ? n : in->left;
	memcpy(out, in->p, k);
	memset((uint8_t *)out + k, 0, n - k);
	in->p += k;
	in->left -= k;
}

static inline uint8_t fuzz_u8(struct fuzz_input *in)
{
	uint8_t v;
	fuzz_bytes(in, &v, 1);
	return v;
}

static inline uint16_t fuzz_u16(struct fuzz_input *in)
{
	uint16_t v;
	fuzz_bytes(in, &v, 2);
	return v;
}

static inline uint32_t fuzz_u32(struct fuzz_input *in)
{
	uint32_t v;
	fuzz_bytes(in, &v, 4);
	return v;
}

static inline uint64_t fuzz_u64(struct fuzz_input *in)
{
	uint64_t v;
	fuzz_bytes(in, &v, 8);
	return v;
}

/* A value in [0, n) (0 when n is 0). */
static inline unsigned fuzz_pick(struct fuzz_input *in, unsigned n)
{
	if (n <= 1)
		return 0;
	return n <= 256 ? fuzz_u8(in) % n : fuzz_u16(in) % n;
}

static inline int fuzz_bool(struct fuzz_input *in)
{
	return fuzz_u8(in) & 1;
}

/* A size or count biased to the interesting values: small ones, values
 * near powers of two and near the limits of a field of `bits` bits. */
static inline uint64_t fuzz_size(struct fuzz_input *in, unsigned bits)
{
	uint8_t how = fuzz_u8(in);
	uint64_t max = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	switch (how & 7) {
	case 0: case 1: case 2:
		return fuzz_u8(in);
	case 3: {   /* 2^k + small delta */
		unsigned k = fuzz_u8(in) % (bits ? bits : 1);
		int d = (int8_t)fuzz_u8(in) % 4;
		return ((1ull << k) + (uint64_t)(int64_t)d) & max;
	}
	case 4:     /* near the field's maximum */
		return max - fuzz_u8(in) % 8;
	case 5:     /* a page multiple */
		return ((uint64_t)fuzz_u16(in) << 12) & max;
	default:
		return fuzz_u64(in) & max;
	}
}

#endif
