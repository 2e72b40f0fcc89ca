/* Depth compare functions and stencil operations against their
 * definitions (PRM vol. 2 "Depth Test", "Stencil Test"). */
#include "gpu/render/om.h"
#include "test.h"

int main(void)
{
	/* func: src (incoming) against dst (stored) */
	static const struct { unsigned f; int lt, eq, gt; } cmp[] = {
		{ CMP_ALWAYS, 1, 1, 1 }, { CMP_NEVER, 0, 0, 0 }, { CMP_LESS, 1, 0, 0 },
		{ CMP_EQUAL, 0, 1, 0 }, { CMP_LEQUAL, 1, 1, 0 }, { CMP_GREATER, 0, 0, 1 },
		{ CMP_NOTEQUAL, 1, 0, 1 }, { CMP_GEQUAL, 0, 1, 1 },
	};
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(om_compare(cmp[i].f, 0.25f, 0.5f), cmp[i].lt);
		CHECK_EQ(om_compare(cmp[i].f, 0.5f, 0.5f), cmp[i].eq);
		CHECK_EQ(om_compare(cmp[i].f, 0.75f, 0.5f), cmp[i].gt);
		CHECK_EQ(om_compare_u(cmp[i].f, 3, 200), cmp[i].lt);
		CHECK_EQ(om_compare_u(cmp[i].f, 200, 200), cmp[i].eq);
		CHECK_EQ(om_compare_u(cmp[i].f, 201, 200), cmp[i].gt);
	}
	/* stencil ops on 8-bit values, reference 0x5a */
	CHECK_EQ(om_stencil_op(SOP_KEEP, 7, 0x5a), 7);
	CHECK_EQ(om_stencil_op(SOP_ZERO, 7, 0x5a), 0);
	CHECK_EQ(om_stencil_op(SOP_REPLACE, 7, 0x5a), 0x5a);
	CHECK_EQ(om_stencil_op(SOP_INCRSAT, 255, 0x5a), 255);
	CHECK_EQ(om_stencil_op(SOP_INCRSAT, 7, 0x5a), 8);
	CHECK_EQ(om_stencil_op(SOP_DECRSAT, 0, 0x5a), 0);
	CHECK_EQ(om_stencil_op(SOP_DECRSAT, 7, 0x5a), 6);
	CHECK_EQ(om_stencil_op(SOP_INCR, 255, 0x5a), 0);
	CHECK_EQ(om_stencil_op(SOP_DECR, 0, 0x5a), 255);
	CHECK_EQ(om_stencil_op(SOP_INVERT, 0x0f, 0x5a), 0xf0);
	return test_exit();
}
