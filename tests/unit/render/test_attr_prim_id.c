/* 3DSTATE_SBE's Primitive ID Override (BDW PRM vol. 2a 3DSTATE_SBE DWord 1:
 * Primitive ID Override Attribute Select 4:0, Component X..W 16..19): the
 * selected attribute's enabled components take the primitive's ID, an
 * integer, constant over the primitive; the other components and
 * attributes keep their VUE rows. Expected values worked out by hand. */
#include <string.h>

#include "test.h"
#include "gpu/render/wm_draw.h"

static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

int main(void)
{
	/* three vertices, VUE rows 0..2: row r of vertex i = (10r+i, 1, 2, 3) */
	float v[3][3][4];
	for (int i = 0; i < 3; i++)
		for (int r = 0; r < 3; r++) {
			float row[4] = { (float)(10 * r + i), 1, 2, 3 };
			memcpy(v[i][r], row, sizeof(row));
		}
	const float (*rows[3])[4] = { v[0], v[1], v[2] };
	struct sbe_state sbe = { .num_attrs = 3, .prim_id_attr = 1, .prim_id_comps = 0x9 };
	struct wm_prim p;
	memset(&p, 0, sizeof(p));
	attr_setup(&p, &sbe, rows, v[0], 3, 1234);
	/* attribute 1, X and W: the ID in every vertex (a0 = 1234, no slope) */
	CHECK_EQ(bits(p.setup[1][0][3]), 1234);
	CHECK_EQ(bits(p.setup[1][0][0]), 0);
	CHECK_EQ(bits(p.setup[1][0][1]), 0);
	CHECK_EQ(bits(p.setup[1][3][3]), 1234);
	/* Y and Z of attribute 1 and all of attributes 0 and 2: the rows */
	CHECK(p.setup[1][1][3] == 1.0f);
	CHECK(p.setup[1][2][3] == 2.0f);
	CHECK(p.setup[0][0][3] == 0.0f && p.setup[0][0][0] == 1.0f && p.setup[0][0][1] == 2.0f);
	CHECK(p.setup[2][0][3] == 20.0f);
	/* no components enabled: nothing overridden */
	sbe.prim_id_comps = 0;
	attr_setup(&p, &sbe, rows, v[0], 3, 1234);
	CHECK(p.setup[1][0][3] == 10.0f && p.setup[1][3][3] == 3.0f);
	return test_exit();
}
