/* Compare functions, stencil operations and logic ops (PRM vol. 2
 * "Depth Test", "Stencil Test", "Logic Ops"). */
#include <math.h>
#include "gpu/render/om.h"

uint8_t om_stencil_op(unsigned op, uint8_t v, uint8_t ref)
{
	switch (op) {
	case SOP_ZERO: return 0;
	case SOP_REPLACE: return ref;
	case SOP_INCRSAT: return v == 255 ? 255 : v + 1;
	case SOP_DECRSAT: return v == 0 ? 0 : v - 1;
	case SOP_INCR: return (uint8_t)(v + 1);
	case SOP_DECR: return (uint8_t)(v - 1);
	case SOP_INVERT: return (uint8_t)~v;
	default: return v;   /* KEEP */
	}
}

/* The sixteen boolean functions of source and destination bits, in the
 * encoding of 3D_Logic_Op_Function. */
uint32_t om_logic_op(unsigned op, uint32_t s, uint32_t d)
{
	switch (op & 15) {
	case 0: return 0;            /* CLEAR */
	case 1: return ~(s | d);     /* NOR */
	case 2: return ~s & d;       /* AND_INVERTED */
	case 3: return ~s;           /* COPY_INVERTED */
	case 4: return s & ~d;       /* AND_REVERSE */
	case 5: return ~d;           /* INVERT */
	case 6: return s ^ d;        /* XOR */
	case 7: return ~(s & d);     /* NAND */
	case 8: return s & d;        /* AND */
	case 9: return ~(s ^ d);     /* EQUIV */
	case 10: return d;           /* NOOP */
	case 11: return ~s | d;      /* OR_INVERTED */
	case 12: return s;           /* COPY */
	case 13: return s | ~d;      /* OR_REVERSE */
	case 14: return s | d;       /* OR */
	default: return ~0u;         /* SET */
	}
}

uint32_t om_alpha_to_coverage(float alpha, unsigned n)
{
	if (!(alpha > 0))
		return 0;
	if (alpha > 1)
		alpha = 1;
	unsigned k = (unsigned)floorf(alpha * (float)n + 0.5f);
	k = k > n ? n : k;
	return k >= 32 ? ~0u : (1u << k) - 1;
}
