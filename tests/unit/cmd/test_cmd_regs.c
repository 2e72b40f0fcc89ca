/* Register bit fields of the description (MMIO, BDW/SKL PRM vol. 2c and
 * i915's register definitions) packed and unpacked by the generated code,
 * and the generated REG_<NAME>_<FIELD>_SHIFT/_MASK constants, against
 * values written by hand from the PRM's bit positions. */
#include "test.h"

#include "gpu/cmd/cmd_structs.h"

static void ring_ctl(int gen)
{
	/* RING_BUFFER_CTL: bit 0 Ring Buffer Enable, bits 20:12 Buffer Length
	 * in pages minus one. A 4-page ring, enabled: 3 << 12 | 1. */
	uint32_t dw = 0;
	CHECK_EQ(cmd_RING_CTL_pack(gen, &dw, 1, &(struct cmd_RING_CTL){
		.ring_buffer_enable = true, .buffer_length = 3 }), 0);
	CHECK_EQ(dw, 0x3001u);
	/* 32 KiB (i915's legacy ring): 7 << 12, with RBWait (bit 11). */
	struct cmd_RING_CTL c;
	uint32_t v = 0x7801u;
	CHECK(cmd_RING_CTL_unpack(gen, &v, 1, &c));
	CHECK(c.ring_buffer_enable);
	CHECK(c.rbwait);
	CHECK(!c.semaphore_wait);
	CHECK_EQ(c.buffer_length, 7u);
	CHECK_EQ(c.automatic_report_head_pointer, 0u);
	/* the largest length, 512 pages, fits; 512 does not */
	CHECK_EQ(cmd_RING_CTL_pack(gen, &dw, 1, &(struct cmd_RING_CTL){ .buffer_length = 511 }), 0);
	CHECK_EQ(dw, 0x001ff000u);
	CHECK_EQ(cmd_RING_CTL_pack(gen, &dw, 1, &(struct cmd_RING_CTL){ .buffer_length = 512 }), -1);
}

static void mi_mode(int gen)
{
	/* MI_MODE is a masked register: bit n + 16 enables the write of bit n.
	 * Setting Stop Ring (bit 8): 1 << 24 | 1 << 8. */
	uint32_t dw = 0;
	CHECK_EQ(cmd_RING_MI_MODE_pack(gen, &dw, 1, &(struct cmd_RING_MI_MODE){
		.stop_ring = true, .stop_ring_mask = true }), 0);
	CHECK_EQ(dw, 0x01000100u);
	/* Clearing it: the mask bit alone. */
	CHECK_EQ(cmd_RING_MI_MODE_pack(gen, &dw, 1, &(struct cmd_RING_MI_MODE){
		.stop_ring_mask = true }), 0);
	CHECK_EQ(dw, 0x01000000u);
	struct cmd_RING_MI_MODE m;
	uint32_t v = 0x200u;   /* Mode Idle, bit 9 */
	cmd_RING_MI_MODE_unpack(gen, &v, 1, &m);
	CHECK(m.mode_idle);
	CHECK(!m.stop_ring);
}

static void head_tail_bbstate(int gen)
{
	/* RING_HEAD: 20:2 the head offset (in place), 31:21 the wrap count. */
	struct cmd_RING_HEAD h;
	uint32_t v = 3u << 21 | 0x1238u;
	cmd_RING_HEAD_unpack(gen, &v, 1, &h);
	CHECK_EQ(h.head_offset, 0x1238u);
	CHECK_EQ(h.wrap_count, 3u);
	/* RING_TAIL: 20:3, qword aligned; bits 2:0 are not part of it. */
	struct cmd_RING_TAIL t;
	v = 0x40000fu;
	cmd_RING_TAIL_unpack(gen, &v, 1, &t);
	CHECK_EQ(t.tail_offset, 0x8u);
	/* BB_STATE: bit 5, the batch is in the PPGTT (i915 RING_BB_PPGTT). */
	uint32_t dw = 0;
	CHECK_EQ(cmd_RING_BBSTATE_pack(gen, &dw, 1, &(struct cmd_RING_BBSTATE){ .ppgtt = true }), 0);
	CHECK_EQ(dw, 0x20u);
	/* HWS_PGA and RING_START: a page address in 31:12. */
	CHECK_EQ(cmd_RING_HWS_PGA_pack(gen, &dw, 1, &(struct cmd_RING_HWS_PGA){
		.address = 0xfedc3000u }), 0);
	CHECK_EQ(dw, 0xfedc3000u);
	CHECK_EQ(cmd_RING_START_pack(gen, &dw, 1, &(struct cmd_RING_START){
		.starting_address = 0x1800 }), -1);   /* not page aligned */
	/* REG_MI_PREDICATE_RESULT: bit 0 */
	v = 0xfffffffeu;
	struct cmd_MI_PREDICATE_RESULT p;
	cmd_MI_PREDICATE_RESULT_unpack(gen, &v, 1, &p);
	CHECK(!p.mi_predicate_result);
}

static void constants(void)
{
	CHECK_EQ(REG_RING_CTL_RING_BUFFER_ENABLE_MASK, 0x1u);
	CHECK_EQ(REG_RING_CTL_BUFFER_LENGTH_SHIFT, 12);
	CHECK_EQ(REG_RING_CTL_BUFFER_LENGTH_MASK, 0x001ff000u);
	CHECK_EQ(REG_RING_HEAD_HEAD_OFFSET_MASK, 0x001ffffcu);
	CHECK_EQ(REG_RING_HEAD_WRAP_COUNT_SHIFT, 21);
	CHECK_EQ(REG_RING_TAIL_TAIL_OFFSET_MASK, 0x001ffff8u);
	CHECK_EQ(REG_RING_MI_MODE_STOP_RING_MASK, 0x100u);
	CHECK_EQ(REG_RING_MI_MODE_STOP_RING_MASK_MASK, 0x01000000u);
	CHECK_EQ(REG_RING_BBSTATE_PPGTT_MASK, 0x20u);
	CHECK_EQ(REG_RING_EIR_INSTRUCTION_ERROR_MASK, 0x1u);
	CHECK_EQ(REG_RING_BB_OFFSET_OFFSET_MASK, 0xfffffffcu);
	CHECK_EQ(REG_MI_PREDICATE_RESULT_MI_PREDICATE_RESULT_MASK, 0x1u);
}

int main(void)
{
	for (int gen = 8; gen <= 9; gen++) {
		ring_ctl(gen);
		mi_mode(gen);
		head_tail_bbstate(gen);
	}
	constants();
	return test_exit();
}
