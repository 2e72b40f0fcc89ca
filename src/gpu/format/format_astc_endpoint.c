/* ASTC's LDR colour endpoint modes and its partition function (Khronos
 * Data Format Specification, ASTC: "LDR Endpoint Decoding", "Partition
 * Pattern Generation"). */
#include "gpu/format/format_astc.h"

static int clamp255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* The offset a (7 bits signed after the transfer) takes the top bit of b,
 * the base b its own upper seven bits. */
static void bit_transfer_signed(int *a, int *b)
{
	*b >>= 1;
	*b |= *a & 0x80;
	*a >>= 1;
	*a &= 0x3f;
	if (*a & 0x20)
		*a -= 0x40;
}

static void set(int e[4], int r, int g, int b, int a)
{
	e[0] = r;
	e[1] = g;
	e[2] = b;
	e[3] = a;
}

/* Blue contraction: R and G halfway towards B. */
static void blue_contract(int e[4], int r, int g, int b, int a)
{
	set(e, (r + b) >> 1, (g + b) >> 1, b, a);
}

int fmt_astc_endpoints(unsigned cem, const uint8_t *val, int e0[4], int e1[4])
{
	int v[8];
	for (int i = 0; i < 8; i++)
		v[i] = i < 2 * (int)((cem >> 2) + 1) ? val[i] : 0;
	switch (cem) {
	case 0:         /* luminance, direct */
		set(e0, v[0], v[0], v[0], 255);
		set(e1, v[1], v[1], v[1], 255);
		return 0;
	case 1: {       /* luminance, base + offset */
		int l0 = (v[0] >> 2) | (v[1] & 0xc0);
		int l1 = l0 + (v[1] & 0x3f);
		if (l1 > 255)
			l1 = 255;
		set(e0, l0, l0, l0, 255);
		set(e1, l1, l1, l1, 255);
		return 0;
	}
	case 4:         /* luminance + alpha, direct */
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, v[1], v[1], v[1], v[3]);
		return 0;
	case 5:         /* luminance + alpha, base + offset */
		bit_transfer_signed(&v[1], &v[0]);
		bit_transfer_signed(&v[3], &v[2]);
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, clamp255(v[0] + v[1]), clamp255(v[0] + v[1]), clamp255(v[0] + v[1]),
		    clamp255(v[2] + v[3]));
		return 0;
	case 6:         /* RGB, base + scale */
	case 10:        /* RGB base + scale, two alphas */
		set(e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8,
		    cem == 10 ? v[4] : 255);
		set(e1, v[0], v[1], v[2], cem == 10 ? v[5] : 255);
		return 0;
	case 8:         /* RGB, direct */
	case 12: {      /* RGBA, direct */
		int a0 = cem == 12 ? v[6] : 255, a1 = cem == 12 ? v[7] : 255;
		if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
			set(e0, v[0], v[2], v[4], a0);
			set(e1, v[1], v[3], v[5], a1);
		} else {
			blue_contract(e0, v[1], v[3], v[5], a1);
			blue_contract(e1, v[0], v[2], v[4], a0);
		}
		return 0;
	}
	case 9:         /* RGB, base + offset */
	case 13: {      /* RGBA, base + offset */
		bit_transfer_signed(&v[1], &v[0]);
		bit_transfer_signed(&v[3], &v[2]);
		bit_transfer_signed(&v[5], &v[4]);
		if (cem == 13)
			bit_transfer_signed(&v[7], &v[6]);
		else
			v[6] = 255, v[7] = 0;
		int s[4] = { v[0] + v[1], v[2] + v[3], v[4] + v[5], v[6] + v[7] };
		if (v[1] + v[3] + v[5] >= 0) {
			set(e0, v[0], v[2], v[4], v[6]);
			set(e1, s[0], s[1], s[2], s[3]);
		} else {
			blue_contract(e0, s[0], s[1], s[2], s[3]);
			blue_contract(e1, v[0], v[2], v[4], v[6]);
		}
		for (int c = 0; c < 4; c++) {
			e0[c] = clamp255(e0[c]);
			e1[c] = clamp255(e1[c]);
		}
		return 0;
	}
	default:        /* 2, 3, 7, 11, 14, 15: HDR */
		return -1;
	}
}

static uint32_t hash52(uint32_t p)
{
	p ^= p >> 15;
	p -= p << 17;
	p += p << 7;
	p += p << 4;
	p ^= p >> 5;
	p += p << 16;
	p ^= p >> 7;
	p ^= p >> 3;
	p ^= p << 6;
	p ^= p >> 17;
	return p;
}

unsigned fmt_astc_partition(unsigned seed, unsigned x, unsigned y, unsigned parts,
			    unsigned texels)
{
	if (parts < 2)
		return 0;
	if (texels < 31) {
		x <<= 1;
		y <<= 1;
	}
	seed += (parts - 1) * 1024;
	uint32_t r = hash52(seed);
	unsigned s[12];
	static const uint8_t at[12] = { 0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26, 30 };
	for (int i = 0; i < 12; i++) {
		uint32_t bits = i == 11 ? (r >> 30 | r << 2) : r >> at[i];
		s[i] = (bits & 0xf) * (bits & 0xf);
	}
	unsigned sh1, sh2;
	if (seed & 1) {
		sh1 = seed & 2 ? 4 : 5;
		sh2 = parts == 3 ? 6 : 5;
	} else {
		sh1 = parts == 3 ? 6 : 5;
		sh2 = seed & 2 ? 4 : 5;
	}
	unsigned sh3 = seed & 0x10 ? sh1 : sh2;
	for (int i = 0; i < 8; i++)
		s[i] >>= i % 2 ? sh2 : sh1;
	for (int i = 8; i < 12; i++)
		s[i] >>= sh3;
	/* z = 0: the seeds 9..12 (s[8..11]) weigh nothing */
	unsigned a = (s[0] * x + s[1] * y + (r >> 14)) & 0x3f;
	unsigned b = (s[2] * x + s[3] * y + (r >> 10)) & 0x3f;
	unsigned c = parts > 2 ? (s[4] * x + s[5] * y + (r >> 6)) & 0x3f : 0;
	unsigned d = parts > 3 ? (s[6] * x + s[7] * y + (r >> 2)) & 0x3f : 0;
	if (a >= b && a >= c && a >= d)
		return 0;
	if (b >= c && b >= d)
		return 1;
	return c >= d ? 2 : 3;
}
