/* Packers specialised per render target format (pack_fast.h). Each one is
 * format_pack()'s conversion for its layout written out (PRM vol. 7
 * "Render Target Write" data conversion): UNORM clamps to [0, 1] (NaN to
 * 0) and rounds x * (2^n - 1) to nearest, halves up, computed in double
 * where the product is exact; FLOAT16 rounds to nearest even
 * (fmt_float_to_half); 32-bit FLOAT/UINT/SINT channels are copied; 8-bit
 * UINT clamps. Channel positions are the format name's order from bit 0
 * (R8G8B8A8: R in bits 7:0). */
#include <string.h>

#include "common/clones.h"
#include "gpu/format/pack_fast.h"

static inline void put32(void *dst, uint32_t v)
{
	memcpy(dst, &v, 4);
}

static inline void pack_rgba8_unorm(const union fmt_value in[4], void *dst)
{
	put32(dst, fmt_float_to_unorm(in[0].f, 8) | fmt_float_to_unorm(in[1].f, 8) << 8 |
		   fmt_float_to_unorm(in[2].f, 8) << 16 |
		   fmt_float_to_unorm(in[3].f, 8) << 24);
}

static inline void pack_bgra8_unorm(const union fmt_value in[4], void *dst)
{
	put32(dst, fmt_float_to_unorm(in[2].f, 8) | fmt_float_to_unorm(in[1].f, 8) << 8 |
		   fmt_float_to_unorm(in[0].f, 8) << 16 |
		   fmt_float_to_unorm(in[3].f, 8) << 24);
}

static inline void pack_rgb10a2_unorm(const union fmt_value in[4], void *dst)
{
	put32(dst, fmt_float_to_unorm(in[0].f, 10) | fmt_float_to_unorm(in[1].f, 10) << 10 |
		   fmt_float_to_unorm(in[2].f, 10) << 20 | fmt_float_to_unorm(in[3].f, 2) << 30);
}

static inline void pack_bgr10a2_unorm(const union fmt_value in[4], void *dst)
{
	put32(dst, fmt_float_to_unorm(in[2].f, 10) | fmt_float_to_unorm(in[1].f, 10) << 10 |
		   fmt_float_to_unorm(in[0].f, 10) << 20 | fmt_float_to_unorm(in[3].f, 2) << 30);
}

static inline void pack_b5g6r5_unorm(const union fmt_value in[4], void *dst)
{
	uint16_t v = (uint16_t)(fmt_float_to_unorm(in[2].f, 5) | fmt_float_to_unorm(in[1].f, 6) << 5 |
				fmt_float_to_unorm(in[0].f, 5) << 11);
	memcpy(dst, &v, 2);
}

static inline void pack_r8_unorm(const union fmt_value in[4], void *dst)
{
	*(uint8_t *)dst = (uint8_t)fmt_float_to_unorm(in[0].f, 8);
}

static inline void pack_rg8_unorm(const union fmt_value in[4], void *dst)
{
	uint16_t v = (uint16_t)(fmt_float_to_unorm(in[0].f, 8) | fmt_float_to_unorm(in[1].f, 8) << 8);
	memcpy(dst, &v, 2);
}

static inline void pack_rgba16_unorm(const union fmt_value in[4], void *dst)
{
	uint16_t v[4];
	for (int c = 0; c < 4; c++)
		v[c] = (uint16_t)fmt_float_to_unorm(in[c].f, 16);
	memcpy(dst, v, 8);
}

static inline void pack_rgba16_float(const union fmt_value in[4], void *dst)
{
	uint16_t v[4];
	for (int c = 0; c < 4; c++)
		v[c] = fmt_float_to_half(in[c].f);
	memcpy(dst, v, 8);
}

static inline void pack_rg16_float(const union fmt_value in[4], void *dst)
{
	uint16_t v[2] = { fmt_float_to_half(in[0].f), fmt_float_to_half(in[1].f) };
	memcpy(dst, v, 4);
}

static inline void pack_r16_float(const union fmt_value in[4], void *dst)
{
	uint16_t v = fmt_float_to_half(in[0].f);
	memcpy(dst, &v, 2);
}

static inline void copy_128(const union fmt_value in[4], void *dst)
{
	memcpy(dst, in, 16);
}

static inline void copy_64(const union fmt_value in[4], void *dst)
{
	memcpy(dst, in, 8);
}

static inline void copy_32(const union fmt_value in[4], void *dst)
{
	memcpy(dst, in, 4);
}

static inline void pack_rgba8_uint(const union fmt_value in[4], void *dst)
{
	uint8_t v[4];
	for (int c = 0; c < 4; c++)
		v[c] = (uint8_t)(in[c].u > 255 ? 255 : in[c].u);
	memcpy(dst, v, 4);
}

/* The same packers eight elements at a time, from the render target write
 * message's layout (channel c of element i: dword i of ch[c]): each
 * element goes through its single-element packer, inlined, so the result
 * is the same bit for bit; the loop is left to the compiler to vectorise. */
#define PACK8(fn, bytes)                                                          \
	static void fn##_8(const uint8_t *const ch[4], void *dst)                 \
	{                                                                         \
		for (unsigned i = 0; i < 8; i++) {                                \
			union fmt_value in[4];                                    \
			for (unsigned c = 0; c < 4; c++)                          \
				memcpy(&in[c], ch[c] + 4 * i, 4);                 \
			fn(in, (uint8_t *)dst + (bytes) * i);                     \
		}                                                                 \
	}

/* RGBA8/BGRA8 UNORM on vectors of eight lanes (GCC vector extensions; AVX2
 * where the host has it), the same bits as pack_rgba8_unorm() in integer
 * arithmetic. After the clamps (as masks: a NaN compares false, 0), c in
 * [0, 1] is M * 2^(e - 150) with M the 24-bit significand and e the biased
 * exponent (e = 127 for 1.0), and unorm()'s result, the exact
 * c * 255 + 0.5 truncated (exact in double: 32 significant bits, and
 * where the half does not fit, c < 2^-22, the result is 0 either way), is
 * floor(255M / 2^(150 - e) + 1/2) = ((255M >> (149 - e)) + 1) >> 1
 * (floor((floor(a) + 1) / 2) = floor((a + 1) / 2)); 255M < 2^32. A shift
 * of 32 or more (c < 2^-9, zero and denormals included) gives 0, as
 * 255c + 0.5 < 1 does. */
typedef float pk_v8f __attribute__((vector_size(32)));
typedef int32_t pk_v8i __attribute__((vector_size(32)));
typedef uint32_t pk_v8u __attribute__((vector_size(32)));

GT_CLONES("avx2", "default")
static void unorm8_8(const uint8_t *const ch[4], const unsigned shift[4], void *dst)
{
	const pk_v8f zero = { 0 }, one = zero + 1;
	pk_v8u out = { 0 };
	for (unsigned c = 0; c < 4; c++) {
		pk_v8f f;
		memcpy(&f, ch[c], sizeof(f));
		pk_v8i x = (pk_v8i)f & (f > zero);                    /* NaN, <= 0 -> +0 */
		pk_v8i below = (pk_v8f)x < one;
		x = (x & below) | ((pk_v8i)one & ~below);             /* >= 1 -> 1 */
		pk_v8u b = (pk_v8u)x;
		pk_v8u m = (b & 0x7fffff) | 0x800000, sh = 149 - (b >> 23);
		pk_v8u m255 = (m << 8) - m;
		pk_v8u r = (((m255 >> (sh & 31)) + 1) >> 1) & (pk_v8u)(sh < 32);
		out |= r << shift[c];
	}
	memcpy(dst, &out, sizeof(out));
}

static void pack_rgba8_unorm_8(const uint8_t *const ch[4], void *dst)
{
	static const unsigned shift[4] = { 0, 8, 16, 24 };
	unorm8_8(ch, shift, dst);
}

static void pack_bgra8_unorm_8(const uint8_t *const ch[4], void *dst)
{
	static const unsigned shift[4] = { 16, 8, 0, 24 };
	unorm8_8(ch, shift, dst);
}

PACK8(pack_rgb10a2_unorm, 4)
PACK8(pack_bgr10a2_unorm, 4)
PACK8(pack_b5g6r5_unorm, 2)
PACK8(pack_r8_unorm, 1)
PACK8(pack_rg8_unorm, 2)
PACK8(pack_rgba16_unorm, 8)
PACK8(pack_rgba16_float, 8)
PACK8(pack_rg16_float, 4)
PACK8(pack_r16_float, 2)
PACK8(copy_128, 16)
PACK8(copy_64, 8)
PACK8(copy_32, 4)
PACK8(pack_rgba8_uint, 4)

fmt_pack8_fn format_pack8_fast(uint32_t number)
{
	switch (number) {
	case FMT_R8G8B8A8_UNORM: return pack_rgba8_unorm_8;
	case FMT_B8G8R8A8_UNORM: return pack_bgra8_unorm_8;
	case FMT_R10G10B10A2_UNORM: return pack_rgb10a2_unorm_8;
	case FMT_B10G10R10A2_UNORM: return pack_bgr10a2_unorm_8;
	case FMT_B5G6R5_UNORM: return pack_b5g6r5_unorm_8;
	case FMT_R8_UNORM: return pack_r8_unorm_8;
	case FMT_R8G8_UNORM: return pack_rg8_unorm_8;
	case FMT_R16G16B16A16_UNORM: return pack_rgba16_unorm_8;
	case FMT_R16G16B16A16_FLOAT: return pack_rgba16_float_8;
	case FMT_R16G16_FLOAT: return pack_rg16_float_8;
	case FMT_R16_FLOAT: return pack_r16_float_8;
	case FMT_R32G32B32A32_FLOAT:
	case FMT_R32G32B32A32_UINT:
	case FMT_R32G32B32A32_SINT: return copy_128_8;
	case FMT_R32G32_FLOAT:
	case FMT_R32G32_UINT:
	case FMT_R32G32_SINT: return copy_64_8;
	case FMT_R32_FLOAT:
	case FMT_R32_UINT:
	case FMT_R32_SINT: return copy_32_8;
	case FMT_R8G8B8A8_UINT: return pack_rgba8_uint_8;
	default: return NULL;
	}
}

fmt_pack_fn format_pack_fast(uint32_t number)
{
	switch (number) {
	case FMT_R8G8B8A8_UNORM: return pack_rgba8_unorm;
	case FMT_B8G8R8A8_UNORM: return pack_bgra8_unorm;
	case FMT_R10G10B10A2_UNORM: return pack_rgb10a2_unorm;
	case FMT_B10G10R10A2_UNORM: return pack_bgr10a2_unorm;
	case FMT_B5G6R5_UNORM: return pack_b5g6r5_unorm;
	case FMT_R8_UNORM: return pack_r8_unorm;
	case FMT_R8G8_UNORM: return pack_rg8_unorm;
	case FMT_R16G16B16A16_UNORM: return pack_rgba16_unorm;
	case FMT_R16G16B16A16_FLOAT: return pack_rgba16_float;
	case FMT_R16G16_FLOAT: return pack_rg16_float;
	case FMT_R16_FLOAT: return pack_r16_float;
	case FMT_R32G32B32A32_FLOAT:
	case FMT_R32G32B32A32_UINT:
	case FMT_R32G32B32A32_SINT: return copy_128;
	case FMT_R32G32_FLOAT:
	case FMT_R32G32_UINT:
	case FMT_R32G32_SINT: return copy_64;
	case FMT_R32_FLOAT:
	case FMT_R32_UINT:
	case FMT_R32_SINT: return copy_32;
	case FMT_R8G8B8A8_UINT: return pack_rgba8_uint;
	default: return NULL;
	}
}
