/* STATE_BASE_ADDRESS decoded once for both pipelines (base_address.h). */
#include "gpu/cs/base_address.h"

#include "gpu/cmd/cmd_structs.h"

void cs_base_address_apply(struct cs_base_address *b, int gen, const uint32_t *dw, uint32_t len)
{
	struct cmd_STATE_BASE_ADDRESS v;
	cmd_STATE_BASE_ADDRESS_unpack(gen, dw, len, &v);
	/* a base whose Modify Enable is clear keeps its value (PRM vol. 2a) */
	if (v.general_state_base_address_modify_enable)
		b->general = v.general_state_base_address;
	if (v.surface_state_base_address_modify_enable)
		b->surface = v.surface_state_base_address;
	if (v.dynamic_state_base_address_modify_enable)
		b->dynamic = v.dynamic_state_base_address;
	if (v.indirect_object_base_address_modify_enable)
		b->indirect = v.indirect_object_base_address;
	if (v.instruction_base_address_modify_enable)
		b->instruction = v.instruction_base_address;
}
