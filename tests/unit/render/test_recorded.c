/* The render units read recorded commands by id through their typed
 * structs (render/recorded.h). Headers and bit positions below are the
 * PRM's (vol. 2a), encoded by hand: 3DSTATE_VS is 0x7810xxxx,
 * 3DSTATE_VF_COMPONENT_PACKING (gen9 only) 0x7855xxxx, and 3DSTATE_VF_SGVS
 * (0x784a0000, 2 dwords) has in DWord 1 VertexID Element Offset 5:0,
 * Component Number 14:13, Enable 15 and InstanceID Element Offset 21:16,
 * Component Number 30:29, Enable 31. */
#include <string.h>

#include "gpu/render/recorded.h"
#include "test.h"

RENDER_RECORDED(3DSTATE_VF_SGVS)

static void by_id(void)
{
	const struct cmd_desc *d = render_cmd_desc(8, CMD_ID_3DSTATE_VS);
	CHECK(d != NULL);
	CHECK_STR(d->name, "3DSTATE_VS");
	CHECK_EQ(d->match, 0x78100000u);
	CHECK(render_cmd_desc(8, CMD_ID_3DSTATE_VF_COMPONENT_PACKING) == NULL);
	d = render_cmd_desc(9, CMD_ID_3DSTATE_VF_COMPONENT_PACKING);
	CHECK(d != NULL);
	CHECK_EQ(d->match, 0x78550000u);
	CHECK(render_cmd_desc(7, CMD_ID_3DSTATE_VS) == NULL);
	CHECK(render_cmd_desc(9, CMD_ID_COUNT) == NULL);
}

static void recorded(int gen)
{
	struct cs_state *st = cs_state_create();
	struct cmd_3DSTATE_VF_SGVS v;
	memset(&v, 0xff, sizeof(v));
	/* never recorded: zeros */
	CHECK(!recorded_3DSTATE_VF_SGVS(gen, st, &v));
	CHECK_EQ(v.vertexid_enable, false);
	CHECK_EQ(v.instanceid_element_offset, 0u);

	const struct cmd_desc *d = render_cmd_desc(gen, CMD_ID_3DSTATE_VF_SGVS);
	CHECK(d != NULL);
	uint32_t dw[2] = { 0x784a0000, 3u | 2u << 13 | 1u << 15 | 5u << 16 | 1u << 29 | 1u << 31 };
	CHECK_EQ(cs_state_record(st, d, dw, 2), 0);
	CHECK(recorded_3DSTATE_VF_SGVS(gen, st, &v));
	CHECK_EQ(v.vertexid_element_offset, 3u);
	CHECK_EQ(v.vertexid_component_number, 2u);
	CHECK_EQ(v.vertexid_enable, true);
	CHECK_EQ(v.instanceid_element_offset, 5u);
	CHECK_EQ(v.instanceid_component_number, 1u);
	CHECK_EQ(v.instanceid_enable, true);

	/* recorded shorter than its fixed part: zeros */
	CHECK_EQ(cs_state_record(st, d, dw, 1), 0);
	CHECK(!recorded_3DSTATE_VF_SGVS(gen, st, &v));
	CHECK_EQ(v.vertexid_element_offset, 0u);
	CHECK_EQ(v.instanceid_enable, false);
	cs_state_destroy(st);
}

int main(void)
{
	by_id();
	recorded(8);
	recorded(9);
	return test_exit();
}
