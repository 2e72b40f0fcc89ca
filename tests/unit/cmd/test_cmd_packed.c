/* The generated pack functions against dwords written by hand from the
 * PRM (BDW/SKL vol. 2a command pages; vol. 2d for the structures): the
 * independent oracle of the description and the generator. Each expected
 * dword is built from the PRM's bit positions written out here. */
#include "test.h"

#include "gpu/cmd/cmd_structs.h"

static void check_dwords(const char *what, const uint32_t *got, const uint32_t *want, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (got[i] != want[i])
			fprintf(stderr, "%s: dword %u is 0x%08x, PRM gives 0x%08x\n", what, i, got[i],
				want[i]);
		CHECK_EQ(got[i], want[i]);
	}
}

/* 3D command header: Command Type 3 (31:29), SubType (28:27), Opcode
 * (26:24), Sub Opcode (23:16), DWord Length = total - 2. */
static uint32_t hdr3d(uint32_t subtype, uint32_t opcode, uint32_t sub, uint32_t total)
{
	return 3u << 29 | subtype << 27 | opcode << 24 | sub << 16 | (total - 2);
}

static void vertex_buffers(int gen)
{
	/* 3DSTATE_VERTEX_BUFFERS (3/0/8) with one VERTEX_BUFFER_STATE:
	 * DW0 index 31:26, MOCS 22:16, Address Modify Enable 14, pitch 11:0;
	 * DW1-2 address 63:0; DW3 size */
	uint32_t dw[5];
	struct cmd_3DSTATE_VERTEX_BUFFERS vbs = { 0 };
	struct cmd_VERTEX_BUFFER_STATE vb = {
		.vertex_buffer_index = 2, .mocs = 3, .address_modify_enable = true,
		.buffer_pitch = 16, .buffer_starting_address = 0x123456780ull,
		.buffer_size = 0x100 };
	CHECK_EQ(cmd_3DSTATE_VERTEX_BUFFERS_pack(gen, dw, 5, &vbs), 0);
	CHECK_EQ(cmd_3DSTATE_VERTEX_BUFFERS_vertex_buffer_state_set(gen, dw, 5, 0, &vb), 0);
	const uint32_t want[5] = { hdr3d(3, 0, 8, 5),
		2u << 26 | 3u << 16 | 1u << 14 | 16, 0x23456780, 0x1, 0x100 };
	check_dwords("3DSTATE_VERTEX_BUFFERS", dw, want, 5);
}

static void pipe_control(int gen)
{
	/* PIPE_CONTROL (3/2/0), 6 dwords. DW1: DC flush 5, RT cache flush 12,
	 * Post Sync Operation 15:14 (1: write immediate data), CS stall 20,
	 * Destination Address Type 24 (1: GGTT). DW2-3 address 47:2, DW4-5
	 * immediate data. */
	uint32_t dw[6];
	struct cmd_PIPE_CONTROL pc = {
		.dc_flush_enable = true, .render_target_cache_flush_enable = true,
		.post_sync_operation = 1, .command_streamer_stall_enable = true,
		.destination_address_type = 1, .address = 0xabcdef0040ull,
		.immediate_data = 0x1122334455667788ull };
	CHECK_EQ(cmd_PIPE_CONTROL_pack(gen, dw, 6, &pc), 0);
	const uint32_t want[6] = { hdr3d(3, 2, 0, 6),
		1u << 5 | 1u << 12 | 1u << 14 | 1u << 20 | 1u << 24,
		0xcdef0040, 0xab, 0x55667788, 0x11223344 };
	check_dwords("PIPE_CONTROL", dw, want, 6);
	/* an address that is not dword aligned does not fit bits 47:2 */
	pc.address |= 2;
	CHECK_EQ(cmd_PIPE_CONTROL_pack(gen, dw, 6, &pc), -1);
}

static void load_register_imm(int gen)
{
	/* MI_LOAD_REGISTER_IMM: MI opcode 0x22 (28:23), DWord Length =
	 * total - 2 (7:0); then register offset (22:2 of DW1), data DW2 */
	uint32_t dw[5];
	struct cmd_MI_LOAD_REGISTER_IMM lri = { 0 };
	CHECK_EQ(cmd_MI_LOAD_REGISTER_IMM_pack(gen, dw, 5, &lri), 0);
	CHECK_EQ(cmd_MI_LOAD_REGISTER_IMM_register_offset_count(gen, 5), 2);
	CHECK_EQ(cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, dw, 5, 0, 0x2580), 0);
	CHECK_EQ(cmd_MI_LOAD_REGISTER_IMM_data_dword_set(gen, dw, 5, 0, 0xdeadbeef), 0);
	CHECK_EQ(cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, dw, 5, 1, 0x7004), 0);
	CHECK_EQ(cmd_MI_LOAD_REGISTER_IMM_data_dword_set(gen, dw, 5, 1, 0x00010001), 0);
	const uint32_t want[5] = { 0x22u << 23 | 3, 0x2580, 0xdeadbeef, 0x7004, 0x00010001 };
	check_dwords("MI_LOAD_REGISTER_IMM", dw, want, 5);
	/* register offsets are dword aligned (bits 22:2) */
	CHECK_EQ(cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, dw, 5, 0, 0x2582), -1);
}

static void primitive(int gen)
{
	/* 3DPRIMITIVE (3/3/0), 7 dwords. DW1: topology 5:0, Vertex Access
	 * Type 8 (1: random/indexed); DW2 vertex count, DW3 start vertex,
	 * DW4 instance count, DW5 start instance, DW6 base vertex (signed). */
	uint32_t dw[7];
	struct cmd_3DPRIMITIVE p = {
		.primitive_topology_type = 5, .vertex_access_type = 1,
		.vertex_count_per_instance = 4, .start_vertex_location = 10,
		.instance_count = 2, .start_instance_location = 1, .base_vertex_location = -3 };
	CHECK_EQ(cmd_3DPRIMITIVE_pack(gen, dw, 7, &p), 0);
	const uint32_t want[7] = { hdr3d(3, 3, 0, 7), 1u << 8 | 5, 4, 10, 2, 1, 0xfffffffd };
	check_dwords("3DPRIMITIVE", dw, want, 7);
}

static void pipeline_select_gen9(void)
{
	/* PIPELINE_SELECT (3/1/1/4), 1 dword; on SKL the Mask Bits (15:8)
	 * enable the change of Pipeline Selection (1:0). */
	uint32_t dw[1];
	struct cmd_PIPELINE_SELECT ps = { .mask_bits = 3, .pipeline_selection = 2 };
	CHECK_EQ(cmd_PIPELINE_SELECT_pack(9, dw, 1, &ps), 0);
	const uint32_t want[1] = { 3u << 29 | 1u << 27 | 1u << 24 | 4u << 16 | 3u << 8 | 2 };
	check_dwords("PIPELINE_SELECT", dw, want, 1);
	/* BDW has no mask bits: the field is not there */
	CHECK_EQ(cmd_PIPELINE_SELECT_pack(8, dw, 1, &ps), 0);
	CHECK_EQ(dw[0], 3u << 29 | 1u << 27 | 1u << 24 | 4u << 16 | 2);
}

int main(void)
{
	for (int gen = 8; gen <= 9; gen++) {
		vertex_buffers(gen);
		pipe_control(gen);
		load_register_imm(gen);
		primitive(gen);
	}
	pipeline_select_gen9();
	return test_exit();
}
