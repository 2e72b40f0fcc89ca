/* The pixel interpolator (SFID 11; PRM vol. 7 "Pixel Interpolator"):
 * what interpolateAtOffset/Sample/Centroid send. For each slot of a PS
 * thread it returns the barycentric weights (b1, b2) of a position inside
 * the slot's pixel, laid out as the PS payload's barycentrics (per 8
 * slots a register of b1 then one of b2), for PLN. The interpolator turns
 * the message into a position in the pixel: the shared or per-slot
 * offset, the position of sample n of the draw's pattern
 * (3DSTATE_SAMPLE_PATTERN, as the back end programmed it), or the pixel's
 * centroid; the owner of the PS threads evaluates the primitive there
 * through callbacks: the interpolator knows the messages, the back end the
 * primitive and the coverage. */
#ifndef GTSIM_SFID_PI_H
#define GTSIM_SFID_PI_H

#include <stdbool.h>

#include "gpu/eu/send.h"

#define PI_MAX_SAMPLES 16

struct pi_unit {
	/* Weights b1, b2 of the primitive at pixel `slot` of the running
	 * thread, offset (dx, dy) pixels from the pixel's centre; linear:
	 * screen-space (noperspective) weights, else perspective-correct.
	 * -1 when the thread has no such pixel. */
	int (*weights)(void *ctx, unsigned slot, float dx, float dy, bool linear, float b[2]);
	/* The centroid of pixel `slot` (the position the back end uses for
	 * centroid barycentrics, from the samples rasterization covered),
	 * offset from the pixel's centre; -1 when the thread has no such
	 * pixel. NULL: every pixel's centroid is its centre (one sample). */
	int (*centroid)(void *ctx, unsigned slot, float *dx, float *dy);
	void *ctx;
	unsigned samples;           /* samples per pixel the back end renders */
	/* sample s's position (s < samples), pixels from the pixel's centre */
	float sample_dx[PI_MAX_SAMPLES], sample_dy[PI_MAX_SAMPLES];
};

/* sfid_handler for EU_SFID_PI; ctx is a struct pi_unit. */
int pi_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg);

#endif
