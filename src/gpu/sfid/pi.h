/* The pixel interpolator (SFID 11; PRM vol. 7 "Pixel Interpolator"):
 * what interpolateAtOffset/Sample/Centroid send. For each slot of a PS
 * thread it returns the barycentric weights (b1, b2) of a position inside
 * the slot's pixel, laid out as the PS payload's barycentrics (per 8
 * slots a register of b1 then one of b2), for PLN. The owner of the PS
 * threads says where each slot's pixel is through a callback: the
 * interpolator knows the messages, the back end the primitive. */
#ifndef GTSIM_SFID_PI_H
#define GTSIM_SFID_PI_H

#include <stdbool.h>

#include "gpu/eu/send.h"

struct pi_unit {
	/* Weights b1, b2 of the primitive at pixel `slot` of the running
	 * thread, offset (dx, dy) pixels from the pixel's centre; linear:
	 * screen-space (noperspective) weights, else perspective-correct.
	 * -1 when the thread has no such pixel. */
	int (*weights)(void *ctx, unsigned slot, float dx, float dy, bool linear, float b[2]);
	void *ctx;
	unsigned samples;           /* samples per pixel the back end renders */
};

/* sfid_handler for EU_SFID_PI; ctx is a struct pi_unit. */
int pi_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg);

#endif
