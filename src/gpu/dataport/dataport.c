/* The data port's entry: a message to SFID 9, 10 or 12 (dataport.h). */
#include "gpu/dataport/dataport.h"

#include <string.h>

void dp_unit_init(struct dp_unit *u, int gen, const struct gt_vm *vm,
		  uint64_t general_base, uint64_t surface_base,
		  uint64_t dynamic_base, uint32_t binding_table)
{
	memset(u, 0, sizeof(*u));
	u->gen = gen;
	u->vm = *vm;
	u->general_base = general_base;
	u->surface_base = surface_base;
	u->dynamic_base = dynamic_base;
	u->binding_table = binding_table;
}

int dp_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	(void)ctx;
	/* descriptor 18:14: the message type of every data port */
	return eu_thread_fault(t, "ip 0x%x: %s message type %u (desc 0x%08x) is not "
			       "implemented by the data port", msg->ip,
			       sfid_name(msg->sfid), (msg->desc >> 14) & 0x1f, msg->desc);
}
