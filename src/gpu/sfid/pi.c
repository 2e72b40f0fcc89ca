/* The pixel interpolator's messages (pi.h), descriptor as Mesa's
 * brw_pixel_interp_desc sets it: 13:12 type (0 shared offset, 1 sample
 * position, 2 centroid, 3 per-slot offset), 14 noperspective, 16 SIMD16,
 * 7:0 the message data (shared offset: X 3:0 and Y 7:4, signed 1/16
 * pixel; sample: the index in 7:4). Per-slot offset payload: X then Y
 * offsets, signed integers in 1/16 pixel (S0.4 as Mesa clamps them to
 * [-8, 7]), one register per 8 slots each. The other types carry one
 * ignored register whatever the SIMD width (Mesa's dummy payload, mlen 1).
 * Offsets are from the pixel's centre; a sample's position comes from the
 * draw's sample pattern (a one-sample draw: the centre); an index past the
 * pattern's samples (undefined in GLSL) faults naming it. */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/sfid/pi.h"

static int nibble(uint32_t v)
{
	return (int)(v & 15) - (v & 8 ? 16 : 0);
}

int pi_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	static const char *const names[4] = { "shared offset", "sample", "centroid",
					      "per-slot offset" };
	const struct pi_unit *u = ctx;
	uint32_t d = msg->desc;
	unsigned type = (d >> 12) & 3, simd = (d >> 16) & 1 ? 16 : 8, regs = simd / 8;
	bool linear = (d >> 14) & 1;
	if (!u || !u->weights)
		return eu_thread_fault(t, "ip 0x%x: pixel interpolator %s: the stage has no "
				       "pixels to interpolate", msg->ip, names[type]);
	if ((d >> 15) & 1)
		return eu_thread_fault(t, "ip 0x%x: pixel interpolator: coarse pixel rate is "
				       "not a Gen8/9 message", msg->ip);
	unsigned mlen = type == 3 ? 2 * regs : 1;
	if (msg->header || msg->mlen != mlen || msg->rlen != 2 * regs)
		return eu_thread_fault(t, "ip 0x%x: pixel interpolator %s SIMD%u: mlen %u rlen "
				       "%u%s where the layout has %u and %u", msg->ip, names[type],
				       simd, msg->mlen, msg->rlen, msg->header ? " header" : "",
				       mlen, 2 * regs);
	float dx = 0, dy = 0;
	if (type == 0) {
		dx = nibble(d) / 16.0f;
		dy = nibble(d >> 4) / 16.0f;
	} else if (type == 1) {
		unsigned sample = (d >> 4) & 15;
		if (sample >= u->samples || sample >= PI_MAX_SAMPLES)
			return eu_thread_fault(t, "ip 0x%x: pixel interpolator sample %u of a %u-sample "
					       "pattern", msg->ip, sample, u->samples);
		if (u->samples > 1) {
			dx = u->sample_dx[sample];
			dy = u->sample_dy[sample];
		}
	} else if (type == 2 && u->samples > 1 && !u->centroid) {
		return eu_thread_fault(t, "ip 0x%x: pixel interpolator centroid: the stage gives "
				       "no coverage for %u samples", msg->ip, u->samples);
	}
	for (unsigned i = 0; i < simd; i++) {
		if (!(msg->mask >> i & 1))
			continue;
		if (type == 3) {
			int32_t ox, oy;
			memcpy(&ox, eu_send_payload(t, msg, i / 8) + 4 * (i % 8), 4);
			memcpy(&oy, eu_send_payload(t, msg, regs + i / 8) + 4 * (i % 8), 4);
			dx = (float)ox / 16.0f;
			dy = (float)oy / 16.0f;
		} else if (type == 2 && u->centroid && u->centroid(u->ctx, msg->group + i, &dx, &dy)) {
			return eu_thread_fault(t, "ip 0x%x: pixel interpolator: slot %u has no pixel",
					       msg->ip, msg->group + i);
		}
		float b[2];
		if (u->weights(u->ctx, msg->group + i, dx, dy, linear, b))
			return eu_thread_fault(t, "ip 0x%x: pixel interpolator: slot %u has no pixel",
					       msg->ip, msg->group + i);
		uint8_t *r1 = eu_send_response(t, msg, (i / 8) * 2), *r2 = r1 + 32;
		memcpy(r1 + 4 * (i % 8), &b[0], 4);
		memcpy(r2 + 4 * (i % 8), &b[1], 4);
		TRACE(TRACE_SEND, "pixel interpolator %s%s slot %u at %+.4f %+.4f: %g %g",
		      names[type], linear ? " linear" : "", i, dx, dy, b[0], b[1]);
	}
	return 0;
}
