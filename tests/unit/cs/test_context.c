/* MI_SET_CONTEXT: each logical context keeps its own 3D state (BDW PRM
 * vol. 2a "MI_SET_CONTEXT", vol. 7 "Logical Context"): state recorded in
 * context A is back after running B, B starts empty with Restore Inhibit,
 * switching to the current context changes nothing, a forgotten context
 * starts empty, and a non-privileged batch cannot switch. Commands are hex
 * dwords from the PRM, not from gtsim's table. */
#include "test.h"
#include "cs_harness.h"

#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/state.h"

#define MI_SET_CONTEXT 0x0c000000u          /* opcode 0x18, 2 dwords */
#define SET_CONTEXT_MBO (1u << 8)           /* dword 1 bit 8 must be 1 */
#define RESTORE_INHIBIT 1u
#define DRAWING_RECTANGLE 0x79000002u       /* 3DSTATE_DRAWING_RECTANGLE */
#define MI_BBS_PPGTT (0x18800001u | 1u << 8)
#define MI_BBE 0x05000000u

#define CTX_A 0x10000u
#define CTX_B 0x20000u

static struct harness h;

static void set_context(uint32_t addr, uint32_t flags)
{
	uint32_t dw[] = { MI_SET_CONTEXT, addr | SET_CONTEXT_MBO | flags };
	h_emit(&h, ENGINE_RCS, dw, 2);
}

static void drawing_rectangle(uint32_t xmin)
{
	uint32_t dw[] = { DRAWING_RECTANGLE, xmin, 0, 0 };
	h_emit(&h, ENGINE_RCS, dw, 4);
}

/* X Min of the current context's recorded 3DSTATE_DRAWING_RECTANGLE, -1
 * when it has none. */
static int recorded_xmin(void)
{
	CHECK(h_run(&h, ENGINE_RCS));
	const struct cmd_desc *d = cmd_find_id(8, CMD_ID_3DSTATE_DRAWING_RECTANGLE);
	uint32_t len;
	const uint32_t *dw = cs_state_get(engine_state(h.gpu->engines[ENGINE_RCS]), d, &len);
	return dw ? (int)(dw[1] & 0xffff) : -1;
}

int main(void)
{
	h_init(&h, 8, true);

	set_context(CTX_A, RESTORE_INHIBIT);
	drawing_rectangle(1);
	CHECK_EQ(recorded_xmin(), 1);

	set_context(CTX_B, RESTORE_INHIBIT);      /* a new context starts empty */
	CHECK_EQ(recorded_xmin(), -1);
	drawing_rectangle(2);
	CHECK_EQ(recorded_xmin(), 2);

	set_context(CTX_A, 0);                    /* A's state is back */
	CHECK_EQ(recorded_xmin(), 1);
	set_context(CTX_A, 0);                    /* the current one: no change */
	CHECK_EQ(recorded_xmin(), 1);
	set_context(CTX_B, 0);
	CHECK_EQ(recorded_xmin(), 2);

	/* A non-privileged batch cannot switch (seed 004: MI_NOOP). */
	uint64_t b = 0x600000;
	h_ppgtt_map(&h, b);
	uint32_t batch[] = { MI_SET_CONTEXT, CTX_A | SET_CONTEXT_MBO, MI_BBE, 0 };
	h_write(&h, false, b, batch, 4);
	uint32_t bbs[] = { MI_BBS_PPGTT, (uint32_t)b, 0 };
	h_emit(&h, ENGINE_RCS, bbs, 3);
	CHECK_EQ(recorded_xmin(), 2);

	/* The kernel forgets B while it is current: switching away drops
	 * its state, and B comes back empty. A forgotten saved image (A) too. */
	engine_forget_context(h.gpu->engines[ENGINE_RCS], CTX_B);
	set_context(CTX_A, 0);
	CHECK_EQ(recorded_xmin(), 1);
	set_context(CTX_B, 0);
	CHECK_EQ(recorded_xmin(), -1);
	engine_forget_context(h.gpu->engines[ENGINE_RCS], CTX_A);
	set_context(CTX_A, 0);
	CHECK_EQ(recorded_xmin(), -1);

	CHECK_EQ(h.faults, 0);
	h_fini(&h);
	return test_exit();
}
