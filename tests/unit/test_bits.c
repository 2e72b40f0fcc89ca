/* bits_count32 (common/bits.h) against counting the bits one at a time:
 * every value with one or two bits set, runs of ones at every offset and
 * a million pseudo-random values. */
#include <stdint.h>

#include "common/bits.h"
#include "test.h"

static unsigned slow(uint32_t v)
{
	unsigned n = 0;
	for (unsigned i = 0; i < 32; i++)
		n += v >> i & 1;
	return n;
}

int main(void)
{
	unsigned bad = 0;
	bad += bits_count32(0) != 0;
	bad += bits_count32(UINT32_MAX) != 32;
	for (unsigned i = 0; i < 32; i++)
		for (unsigned k = 0; k < 32; k++) {
			uint32_t v = 1u << i | 1u << k;
			bad += bits_count32(v) != (i == k ? 1u : 2u);
			uint32_t run = (uint32_t)(((1ull << (k + 1)) - 1) << i);
			bad += bits_count32(run) != slow(run);
		}
	uint32_t x = 2463534242u;
	for (unsigned n = 0; n < 1000000; n++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		bad += bits_count32(x) != slow(x);
		bad += bits_count32(x & x >> 3) != slow(x & x >> 3);
	}
	CHECK_EQ(bad, 0);
	return test_exit();
}
