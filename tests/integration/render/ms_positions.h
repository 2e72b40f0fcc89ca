/* The standard sample positions in 1/16 pixel from the pixel's upper left
 * corner (Direct3D's, the offsets Mesa writes into 3DSTATE_SAMPLE_PATTERN:
 * intel_sample_positions.h), written here as the tests' oracle, and the
 * 3DSTATE_SAMPLE_PATTERN that programs them. Include after
 * backend_fixture.h. */
#ifndef GTSIM_TEST_MS_POSITIONS_H
#define GTSIM_TEST_MS_POSITIONS_H

static const uint8_t pos2[2][2] = { { 12, 12 }, { 4, 4 } };
static const uint8_t pos4[4][2] = { { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 } };
static const uint8_t pos8[8][2] = { { 9, 5 }, { 7, 11 }, { 13, 9 }, { 5, 3 },
				    { 3, 13 }, { 1, 7 }, { 11, 15 }, { 15, 1 } };
static const uint8_t pos16[16][2] = { { 9, 9 }, { 7, 5 }, { 5, 10 }, { 12, 7 },
				      { 3, 6 }, { 10, 13 }, { 13, 11 }, { 11, 3 },
				      { 6, 14 }, { 8, 1 }, { 4, 2 }, { 2, 12 },
				      { 0, 8 }, { 15, 4 }, { 14, 15 }, { 1, 0 } };

static inline const uint8_t (*positions(unsigned n))[2]
{
	return n == 2 ? pos2 : n == 4 ? pos4 : n == 8 ? pos8 : pos16;
}

static inline void sample_pattern(unsigned n)
{
	char xf[40], yf[40];
	const uint8_t (*p)[2] = positions(n);
	for (unsigned s = 0; s < n; s++) {
		snprintf(xf, sizeof(xf), "%ux Sample%u X Offset", n, s);
		snprintf(yf, sizeof(yf), "%ux Sample%u Y Offset", n, s);
		REC("3DSTATE_SAMPLE_PATTERN", { xf, p[s][0] }, { yf, p[s][1] });
	}
}

#endif
