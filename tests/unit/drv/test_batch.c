/* libgtdrv's batch builder and emitters against hand-packed dwords (PRM
 * vol. 2d bit positions; seed 000's vertex-elements loop; seed 002's
 * relocation entries with presumed offsets). No device is needed. */
#include <errno.h>

#include "drv/emit.h"
#include "test.h"

static void test_begin_advance(struct gtdrv *drv)
{
	struct gtdrv_batch b;
	CHECK_EQ(gtdrv_batch_init(&b, drv), 0);
	BEGIN_BATCH(&b, 2);
	OUT_BATCH(&b, 0x11);
	OUT_BATCH(&b, 0x22);
	ADVANCE_BATCH(&b);
	CHECK_EQ(b.error, 0);
	CHECK_EQ(b.used, 2);
	CHECK_EQ(b.dw[1], 0x22);
	BEGIN_BATCH(&b, 2);
	OUT_BATCH(&b, 0x33);
	ADVANCE_BATCH(&b);            /* one short */
	CHECK_EQ(b.error, -EINVAL);
	gtdrv_batch_reset(&b);
	BEGIN_BATCH(&b, 1);
	OUT_BATCH(&b, 1);
	OUT_BATCH(&b, 2);             /* one too many */
	ADVANCE_BATCH(&b);
	CHECK_EQ(b.error, -EINVAL);
	gtdrv_batch_fini(&b);
}

static void test_vertex_elements(struct gtdrv *drv)
{
	struct gtdrv_batch b;
	gtdrv_batch_init(&b, drv);
	const struct gtdrv_vertex_attrib a[3] = {
		{ .buffer = 0, .offset = 0, .format = 133, .size = 2 },      /* R32G32_FLOAT */
		{ .buffer = 1, .offset = 8, .format = 64, .size = 3 },       /* R32G32B32_FLOAT */
		{ .buffer = 2, .offset = 4, .format = 214, .size = 1, .integer = true }, /* R32_SINT */
	};
	CHECK_EQ(gtdrv_emit_vertex_elements(&b, a, 3), 0);
	/* header: opcode 0x7809, DWord Length 2 * 3 - 1 = 5 (seed 000)
	 * VE0: buffer << 26 | valid << 25 | format << 16 | offset
	 * VE1: controls of components 0..3 at bits 28, 24, 20, 16 with
	 *      STORE_SRC 1, STORE_0 2, STORE_1_FP 3, STORE_1_INT 4 */
	const uint32_t want[7] = {
		0x78090005,
		0x02850000, 0x11230000,  /* SRC SRC 0 1.0 */
		0x06400008, 0x11130000,  /* SRC SRC SRC 1.0 */
		0x0ad60004, 0x12240000,  /* SRC 0 0 1 */
	};
	CHECK_EQ(b.used, 7);
	for (int i = 0; i < 7; i++)
		CHECK_EQ(b.dw[i], want[i]);
	gtdrv_batch_fini(&b);
}

static void test_relocations(struct gtdrv *drv)
{
	struct gtdrv_batch b;
	struct gtdrv_bo vbo = { .handle = 7, .size = 4096, .offset = 0x10000 };
	struct gtdrv_bo ibo = { .handle = 9, .size = 4096, .offset = 0x200000 };
	gtdrv_batch_init(&b, drv);
	const struct gtdrv_vb vb = { .index = 1, .bo = &vbo, .offset = 0x40, .pitch = 16,
				     .size = 64 };
	CHECK_EQ(gtdrv_emit_vertex_buffers(&b, &vb, 1), 0);
	/* 0x7808 | length 5 - 2; index 1 << 26 | Address Modify Enable
	 * (bit 14) | pitch 16; address = presumed 0x10000 + 0x40; size 64 */
	const uint32_t want[5] = { 0x78080003, 0x04004010, 0x00010040, 0, 64 };
	for (int i = 0; i < 5; i++)
		CHECK_EQ(b.dw[i], want[i]);
	CHECK_EQ(b.relocs.n, 1);
	CHECK_EQ(b.relocs.r[0].offset, 8);               /* bytes: dword 2 */
	CHECK_EQ(b.relocs.r[0].target_handle, 7);
	CHECK_EQ(b.relocs.r[0].delta, 0x40);
	CHECK_EQ(b.relocs.r[0].presumed_offset, 0x10000);
	CHECK_EQ(b.relocs.r[0].read_domains, I915_GEM_DOMAIN_VERTEX);

	/* STATE_BASE_ADDRESS: the address shares its qword with Modify
	 * Enable (bit 0), which travels in the relocation's delta */
	uint32_t len = GTDRV_CMD_LEN(&b, STATE_BASE_ADDRESS);
	uint32_t *dw = gtdrv_cmd_start(&b, len);
	const struct cmd_STATE_BASE_ADDRESS sba = {
		.general_state_base_address_modify_enable = true,
		.general_state_base_address = ibo.offset };
	gtdrv_cmd_reloc(&b, cmd_STATE_BASE_ADDRESS_general_state_base_address_bit(drv->gen), &ibo,
			I915_GEM_DOMAIN_INSTRUCTION, 0);
	CHECK_EQ(gtdrv_cmd_end(&b, "STATE_BASE_ADDRESS",
			       cmd_STATE_BASE_ADDRESS_pack(drv->gen, dw, len, &sba)), 0);
	CHECK_EQ(b.dw[5 + 1], 0x00200001);
	CHECK_EQ(b.relocs.n, 2);
	CHECK_EQ(b.relocs.r[1].offset, 4 * 6);
	CHECK_EQ(b.relocs.r[1].delta, 1);
	CHECK_EQ(b.nbos, 2);

	/* a second relocation to the same bo adds no exec object */
	OUT_RELOC64(&b, &vbo, I915_GEM_DOMAIN_VERTEX, 0, 0x80);
	CHECK_EQ(b.nbos, 2);
	CHECK_EQ(b.dw[b.used - 2], 0x10080);

	/* (an unknown command or field does not compile) a value too wide
	 * for its field (Maximum Number of Threads: 9 bits, PRM 3DSTATE_VS
	 * DW7 31:23), a command the generation does not have (SKL's
	 * 3DSTATE_URB_CLEAR on BDW) or an address field it lacks: an error,
	 * nothing emitted, and the batch keeps the error */
	uint32_t used = b.used;
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_VS, .maximum_number_of_threads = 1u << 10), -EINVAL);
	CHECK_EQ(b.used, used);
	b.error = 0;
	if (drv->gen == 8) {
		CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_URB_CLEAR, 0), -EINVAL);
		b.error = 0;
		gtdrv_cmd_start(&b, 2);
		gtdrv_cmd_reloc(&b, -1, &ibo, 0, 0);
		CHECK_EQ(gtdrv_cmd_end(&b, "STATE_BASE_ADDRESS", 0), -EINVAL);
	}
	CHECK_EQ(b.used, used);
	gtdrv_batch_fini(&b);
}

static void test_urb(struct gtdrv *drv)
{
	struct gtdrv_batch b;
	struct urb_config cfg;
	gtdrv_batch_init(&b, drv);
	/* BDW VS 2 + GS 4: VS 1600 entries at chunk 4, GS 608 at 29 */
	CHECK_EQ(urb_config_compute(drv->info, 0, (const unsigned[4]){ 2, 0, 0, 4 }, &cfg), 0);
	CHECK_EQ(gtdrv_emit_urb(&b, &cfg), 0);
	/* push constants: VS 16 KB at 0, PS 16 KB at 16 KB (dword 1:
	 * size bits 5:0, offset bits 20:16) */
	CHECK_EQ(b.dw[0], 0x79120000);  /* opcode 1, sub-opcode 0x12 */
	CHECK_EQ(b.dw[1], 16);
	CHECK_EQ(b.dw[2], 0x79160000);
	CHECK_EQ(b.dw[3], (16u << 16) | 16);
	/* URB_VS: entries | (size - 1) << 16 | start << 25 */
	CHECK_EQ(b.dw[4], 0x78300000);
	CHECK_EQ(b.dw[5], 1600 | 1u << 16 | 4u << 25);
	CHECK_EQ(b.dw[11], 608 | 3u << 16 | 29u << 25);   /* URB_GS */
	gtdrv_batch_fini(&b);
}

int main(void)
{
	struct gtdrv drv;
	gtdrv_init(&drv, NULL, devinfo_lookup("bdw"));
	test_begin_advance(&drv);
	test_vertex_elements(&drv);
	test_relocations(&drv);
	test_urb(&drv);
	return test_exit();
}
