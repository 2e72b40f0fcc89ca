/* MI_LOAD_URB_MEM and MI_STORE_URB_MEM (BDW/SKL PRM vol. 2a): copy one
 * 64-byte cache line between memory (Memory Address, 64-byte aligned) and
 * the URB, which is the render unit's (the URB of the engine's current
 * logical context, render_state.h). URB Address holds bits 14:2 of a byte
 * address in the URB; a line that does not fit in the URB is a GPU fault.
 * The commands run on the render engine (the description's `engines`). */
#include "gpu/cs/mi.h"
#include "gpu/render/render.h"
#include "gpu/render/render_cs.h"

#include <string.h>

#include "common/trace.h"

#define URB_MEM_LINE 64u

/* The line at URB byte address urb_addr, or NULL after a fault. */
static uint8_t *urb_line(struct gt_engine *e, const struct cmd_desc *d, uint32_t urb_addr)
{
	struct render_state *rs = render_engine_state(e);
	if (!rs) {
		cs_fault(e, "%s: out of memory for the render state", d->name);
		return NULL;
	}
	size_t size;
	uint8_t *urb = render_urb(rs, &size);
	if ((size_t)urb_addr + URB_MEM_LINE > size) {
		cs_fault(e, "%s: URB address 0x%x + 64 bytes is outside the %zu-byte URB", d->name,
			 urb_addr, size);
		return NULL;
	}
	return urb + urb_addr;
}

enum cs_result render_cs_load_urb_mem(struct gt_engine *e, const struct cmd_desc *d,
				      const uint32_t *dw, uint32_t len)
{
	struct cmd_MI_LOAD_URB_MEM c;
	cmd_MI_LOAD_URB_MEM_unpack(cs_gen(e), dw, len, &c);
	uint8_t line[URB_MEM_LINE];
	enum cs_result r = mi_read(e, d, false, c.memory_address, line, sizeof(line));
	if (r != CS_NEXT)
		return r;
	uint8_t *u = urb_line(e, d, c.urb_address << 2);
	if (!u)
		return CS_FAULT;
	memcpy(u, line, sizeof(line));
	TRACE(TRACE_CS, "%s: MI_LOAD_URB_MEM 0x%llx -> URB 0x%x", e->name,
	      (unsigned long long)c.memory_address, c.urb_address << 2);
	return CS_NEXT;
}

enum cs_result render_cs_store_urb_mem(struct gt_engine *e, const struct cmd_desc *d,
				       const uint32_t *dw, uint32_t len)
{
	struct cmd_MI_STORE_URB_MEM c;
	cmd_MI_STORE_URB_MEM_unpack(cs_gen(e), dw, len, &c);
	uint8_t *u = urb_line(e, d, c.urb_address << 2);
	if (!u)
		return CS_FAULT;
	TRACE(TRACE_CS, "%s: MI_STORE_URB_MEM URB 0x%x -> 0x%llx", e->name, c.urb_address << 2,
	      (unsigned long long)c.memory_address);
	return mi_write(e, d, false, c.memory_address, u, URB_MEM_LINE);
}
