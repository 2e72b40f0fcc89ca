/* The command tables and the decoder, against headers, lengths and field
 * positions computed by hand from the BDW/SKL PRM (vol. 2a/2d). */
#include "test.h"

#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_names.h"   /* tests may name fields */
#include "gpu/cmd/decode.h"

static void check_cmd(int gen, enum gt_engine_id engine, uint32_t dw0,
		      const char *name, uint32_t len)
{
	const struct cmd_desc *d = cmd_find(gen, engine, dw0);
	CHECK(d != NULL);
	if (!d) {
		fprintf(stderr, "  no command for 0x%08x (want %s)\n", dw0, name);
		return;
	}
	CHECK_STR(d->name, name);
	CHECK_EQ(cmd_length(d, dw0), len);
}

static void test_headers(void)
{
	/* MI: type 0, opcode bits 28:23, DWord Length bits 7:0 (bias 2). */
	check_cmd(8, ENGINE_RCS, 0x00000000, "MI_NOOP", 1);
	check_cmd(8, ENGINE_VECS, 0x05000000, "MI_BATCH_BUFFER_END", 1);
	check_cmd(8, ENGINE_BCS, 0x18800101, "MI_BATCH_BUFFER_START", 3);
	check_cmd(9, ENGINE_VCS, 0x10000003, "MI_STORE_DATA_IMM", 5);
	check_cmd(8, ENGINE_RCS, 0x11000005, "MI_LOAD_REGISTER_IMM", 7);
	check_cmd(8, ENGINE_RCS, 0x0d000003, "MI_MATH", 5);
	check_cmd(8, ENGINE_RCS, 0x0e008002, "MI_SEMAPHORE_WAIT", 4);
	check_cmd(8, ENGINE_BCS, 0x13000003, "MI_FLUSH_DW", 5);
	/* 3D: type 3, subtype 28:27, opcode 26:24, sub-opcode 23:16. */
	check_cmd(8, ENGINE_RCS, 0x7a000004, "PIPE_CONTROL", 6);
	check_cmd(8, ENGINE_RCS, 0x7b000005, "3DPRIMITIVE", 7);
	check_cmd(8, ENGINE_RCS, 0x78080007, "3DSTATE_VERTEX_BUFFERS", 9);
	check_cmd(8, ENGINE_RCS, 0x78100007, "3DSTATE_VS", 9);
	check_cmd(8, ENGINE_RCS, 0x6101000e, "STATE_BASE_ADDRESS", 16);
	check_cmd(9, ENGINE_RCS, 0x61010011, "STATE_BASE_ADDRESS", 19);
	check_cmd(8, ENGINE_RCS, 0x69040001, "PIPELINE_SELECT", 1);
	/* Media: type 3, pipeline 2, opcode 26:24, sub-opcode 23:16. */
	check_cmd(8, ENGINE_RCS, 0x7105000d, "GPGPU_WALKER", 15);
	check_cmd(8, ENGINE_RCS, 0x70000007, "MEDIA_VFE_STATE", 9);
	/* Blitter: type 2, opcode 28:22. */
	check_cmd(8, ENGINE_BCS, 0x54c00008, "XY_SRC_COPY_BLT", 10);
	check_cmd(8, ENGINE_BCS, 0x54000005, "XY_COLOR_BLT", 7);
	check_cmd(9, ENGINE_BCS, 0x50800008, "XY_FAST_COPY_BLT", 10);

	/* Engines: PIPE_CONTROL is RCS only, MI_FLUSH_DW is not on RCS,
	 * XY_* only on BCS; reserved command type 7 is nowhere. */
	CHECK(cmd_find(8, ENGINE_BCS, 0x7a000004) == NULL);
	CHECK(cmd_find(8, ENGINE_RCS, 0x13000003) == NULL);
	CHECK(cmd_find(8, ENGINE_RCS, 0x54c00008) == NULL);
	CHECK(cmd_find(8, ENGINE_RCS, 0xe0000000) == NULL);
	CHECK(cmd_find(8, ENGINE_BCS, 0x50800008) == NULL);  /* gen9 only */
	CHECK(cmd_find(7, ENGINE_RCS, 0) == NULL);

	/* Privilege flags (seed 004). */
	CHECK_EQ(cmd_find_name(8, "MI_STORE_DATA_INDEX")->priv, CMD_PRIV_ALWAYS);
	CHECK_EQ(cmd_find_name(8, "MI_STORE_DATA_IMM")->priv, CMD_PRIV_GGTT);
	CHECK_EQ(cmd_find_name(8, "MI_NOOP")->priv, CMD_PRIV_NONE);
}

static void test_fields(void)
{
	const struct cmd_desc *d = cmd_find(8, ENGINE_RCS, 0x7b000005);
	/* 3DPRIMITIVE: DWord 1 bits 5:0 topology, bit 8 access type; DWords 2..6
	 * vertex count, start vertex, instance count, start instance, base
	 * vertex (signed). */
	uint32_t prim[7] = { 0x7b000105, 0x104, 3, 7, 2, 1, 0xfffffffe };
	CHECK_EQ(cmd_field_get(d, prim, "Primitive Topology Type"), 4);
	CHECK_EQ(cmd_field_get(d, prim, "Vertex Access Type"), 1);
	CHECK_EQ(cmd_field_get(d, prim, "Predicate Enable"), 1);
	CHECK_EQ(cmd_field_get(d, prim, "Vertex Count Per Instance"), 3);
	CHECK_EQ(cmd_field_get(d, prim, "Start Vertex Location"), 7);
	CHECK_EQ(cmd_field_get(d, prim, "Instance Count"), 2);
	CHECK_EQ(cmd_field_get(d, prim, "Start Instance Location"), 1);
	CHECK_EQ((int64_t)cmd_field_get(d, prim, "Base Vertex Location"), -2);
	CHECK_STR(cmd_value_name(cmd_field_find(d, "Primitive Topology Type"), 4),
		  "TRILIST");

	/* Packing gives the same dwords. */
	uint32_t packed[7];
	cmd_init(d, packed, 7);
	CHECK_EQ(packed[0], 0x7b000005);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Predicate Enable", 1), 0);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Primitive Topology Type", 4), 0);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Vertex Access Type", 1), 0);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Vertex Count Per Instance", 3), 0);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Start Vertex Location", 7), 0);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Instance Count", 2), 0);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Start Instance Location", 1), 0);
	CHECK_EQ(cmd_field_set(d, packed, 7, "Base Vertex Location", (uint64_t)-2), 0);
	CHECK(!memcmp(packed, prim, sizeof(prim)));
	CHECK_EQ(cmd_field_set(d, packed, 7, "Primitive Topology Type", 64), -1);
	CHECK_EQ(cmd_field_set(d, packed, 7, "No Such Field", 1), -1);

	/* MI_BATCH_BUFFER_START: address bits 47:2 over DWords 1-2. */
	const struct cmd_desc *bbs = cmd_find(8, ENGINE_RCS, 0x18800101);
	uint32_t b[3] = { 0x18800101, 0x12345678, 0xffffabcd };
	CHECK_EQ(cmd_field_get(bbs, b, "Batch Buffer Start Address"), 0xabcd12345678ull);
	CHECK_EQ(cmd_field_get(bbs, b, "Address Space Indicator"), 1);
	uint32_t b2[3];
	cmd_init(bbs, b2, 3);
	CHECK_EQ(cmd_field_set(bbs, b2, 3, "Batch Buffer Start Address", 0x1234567abcull), 0);
	CHECK_EQ(b2[1], 0x34567abc);
	CHECK_EQ(b2[2], 0x12);
	CHECK_EQ(cmd_field_set(bbs, b2, 3, "Batch Buffer Start Address", 0x1001), -1);

	/* 3DSTATE_VERTEX_BUFFERS: one VERTEX_BUFFER_STATE per 4 dwords; in it
	 * DWord 0 bits 31:26 index, 11:0 pitch, DWords 1-2 address, 3 size. */
	const struct cmd_desc *vbs = cmd_find(8, ENGINE_RCS, 0x78080007);
	uint32_t v[9] = { 0x78080007,
			  0 << 26 | 1u << 14 | 16, 0x10000, 0, 64,
			  5u << 26 | 1u << 14 | 12, 0x20000, 1, 48 };
	const struct cmd_field *vb = cmd_field_find(vbs, "Vertex Buffer State");
	CHECK(vb && vb->sub);
	CHECK_EQ(cmd_group_count(vb, 9), 2);
	const struct cmd_desc *st = cmd_struct_find(8, "VERTEX_BUFFER_STATE");
	CHECK(st == vb->sub);
	const struct cmd_field *idx = cmd_field_find(st, "Vertex Buffer Index");
	const struct cmd_field *pitch = cmd_field_find(st, "Buffer Pitch");
	const struct cmd_field *addr = cmd_field_find(st, "Buffer Starting Address");
	const struct cmd_field *size = cmd_field_find(st, "Buffer Size");
	CHECK_EQ(cmd_field_value_at(idx, v, 9, cmd_field_bit(vb, 1)), 5);
	CHECK_EQ(cmd_field_value_at(pitch, v, 9, cmd_field_bit(vb, 1)), 12);
	CHECK_EQ(cmd_field_value_at(addr, v, 9, cmd_field_bit(vb, 1)), 0x100020000ull);
	CHECK_EQ(cmd_field_value_at(size, v, 9, cmd_field_bit(vb, 1)), 48);
	CHECK_EQ(cmd_field_value_at(pitch, v, 9, cmd_field_bit(vb, 0)), 16);

	/* MI_LOAD_REGISTER_IMM: pairs from DWord 1. */
	const struct cmd_desc *lri = cmd_find(8, ENGINE_RCS, 0x11000003);
	uint32_t l[5] = { 0x11000003, 0x2600, 1, 0x2604, 2 };
	const struct cmd_field *reg = cmd_field_find(lri, "Register Offset");
	CHECK_EQ(cmd_group_count(reg, 5), 2);
	CHECK_EQ(cmd_field_value(reg, l, 5, 1), 0x2604);
	CHECK_EQ(cmd_field_value(cmd_field_find(lri, "Data DWord"), l, 5, 1), 2);

	/* Every structure the pipeline needs is there. */
	const char *structs[] = { "VERTEX_ELEMENT_STATE", "RENDER_SURFACE_STATE",
				  "BLEND_STATE", "SF_CLIP_VIEWPORT",
				  "INTERFACE_DESCRIPTOR_DATA", "SAMPLER_STATE" };
	for (size_t i = 0; i < sizeof(structs) / sizeof(structs[0]); i++) {
		CHECK(cmd_struct_find(8, structs[i]) != NULL);
		CHECK(cmd_struct_find(9, structs[i]) != NULL);
	}
}

static void test_decode(void)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	uint32_t batch[] = { 0x11000001, 0x2600, 0x1234,     /* LRI */
			     0x7a000004, 1u << 14 | 1u << 24, 0x1000, 0, 5, 0, /* PIPE_CONTROL */
			     0x05000000, 0x11111111 };
	int n = cmd_decode_buffer(f, 8, ENGINE_RCS, 0x1000, batch, 11);
	fclose(f);
	CHECK_EQ(n, 3);
	CHECK(strstr(buf, "0x00001000:  0x11000001:  MI_LOAD_REGISTER_IMM\n") != NULL);
	CHECK(strstr(buf, "0x00001004:  0x00002600 : Dword 1\n"
			  "    Register Offset[0]: 0x00002600\n") != NULL);
	CHECK(strstr(buf, "    Data DWord[0]: 4660\n") != NULL);
	CHECK(strstr(buf, "    DWord Length: 1\n") != NULL);
	CHECK(strstr(buf, "MI Command Opcode") == NULL);   /* header fields */
	CHECK(strstr(buf, "0x0000100c:  0x7a000004:  PIPE_CONTROL\n") != NULL);
	CHECK(strstr(buf, "    Post Sync Operation: 1 (Write Immediate Data)\n") != NULL);
	CHECK(strstr(buf, "    Destination Address Type: 1 (GGTT)\n") != NULL);
	CHECK(strstr(buf, "    Address: 0x00001000\n") != NULL);
	CHECK(strstr(buf, "    Immediate Data: 5\n") != NULL);
	CHECK(strstr(buf, "MI_BATCH_BUFFER_END") != NULL);
	CHECK(strstr(buf, "0x11111111") == NULL);          /* stops at the end */
	free(buf);

	/* An unknown command stops the decode with -1. */
	f = open_memstream(&buf, &size);
	uint32_t bad[] = { 0xe0000000 };
	CHECK_EQ(cmd_decode_buffer(f, 8, ENGINE_RCS, 0, bad, 1), -1);
	/* So does a command longer than the buffer. */
	uint32_t cut[] = { 0x7a000004, 0 };
	CHECK_EQ(cmd_decode_buffer(f, 8, ENGINE_RCS, 0, cut, 2), -1);
	fclose(f);
	free(buf);
}

int main(void)
{
	test_headers();
	test_fields();
	test_decode();
	return test_exit();
}
