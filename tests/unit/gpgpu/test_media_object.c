/* MEDIA_OBJECT: a hand-written kernel (gtsim's assembler; its media block
 * write descriptor 0x080a8000 as iga64 -Xdsd decodes it: "hdc_mbwr
 * (media block write)", SFID 12, mlen 4, header, BTI 0) that writes its
 * payload registers g1, g2, g3 as three 32-byte rows of an R8 surface at
 * the X and Y of its first two inline dwords. The surface bytes are
 * computed here from the PRM's payload order: R1 the CURBE from Constant
 * URB Entry Read Offset (register 1 of 2 loaded), R2 the indirect data
 * (20 bytes from Indirect Object Base + Indirect Data Start Address, the
 * rest of the register 0), R3 the inline data. Two objects run in command
 * order, each one thread: R0 and the dispatch mask at dispatch; Use
 * Scoreboard without the VFE's scoreboard changes nothing; and the faults
 * by name (pipeline, children, thread synchronization, Scoreboard Enable,
 * CURBE bounds, descriptor not loaded). */
#include "fixture.h"

#define SURF 0x20000u              /* the R8 surface: 64 x 16 bytes */
#define BT 0x40u                   /* binding table (Surface State Base +) */
#define SS 0x80u                   /* its RENDER_SURFACE_STATE */
#define INDIRECT_BASE 0x30000u
#define INDIRECT 0x100u

static const char *const kernel =
	"mov(8)          g20<1>UD        g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"mov(2)          g20<1>UD        g3<2,2,1>UD                     { align1 WE_all 1N };\n"
	"mov(1)          g20.2<1>UD      0x0002001fUD                    { align1 WE_all 1N };\n"
	"mov(8)          g21<1>UD        g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"mov(8)          g22<1>UD        g2<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"mov(8)          g23<1>UD        g3<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(8)         null<1>UW       g20<8,8,1>UD    0x080a8000\n"
	"                            dp data 1 MsgDesc: mlen 4 rlen 0 { align1 WE_all 1Q };\n"
	FX_EOT;

struct seen {
	unsigned starts, ends;
	uint32_t r0[2][8];
	uint32_t mask[2];
};

static void hook(void *ctx, enum gpgpu_event ev, const struct gpgpu_thread_info *ti,
		 const struct eu_thread *t)
{
	struct seen *s = ctx;
	if (ev == GPGPU_THREAD_END)
		s->ends++;
	if (ev != GPGPU_THREAD_START || s->starts >= 2)
		return;
	for (unsigned i = 0; i < 8; i++)
		s->r0[s->starts][i] = eu_grf_ud(t, 0, i);
	s->mask[s->starts++] = ti->mask;
}

/* RENDER_SURFACE_STATE by hand (PRM vol. 2d bit positions): 2D R8_UNORM
 * (0x140), Width 16 DWords, Height 16, pitch 64, linear, at SURF. */
static void surface(struct fixture *fx)
{
	uint32_t *bt = (uint32_t *)(void *)(fx->host + FX_SURFACE_BASE + BT);
	uint32_t *ss = (uint32_t *)(void *)(fx->host + FX_SURFACE_BASE + SS);
	bt[0] = SS;
	memset(ss, 0, 64);
	ss[0] = 1u << 29 | 0x140u << 18 | 1u << 16 | 1u << 14;
	ss[2] = 15u << 16 | 15u;
	ss[3] = 63;
	ss[7] = 4u << 25 | 5u << 22 | 6u << 19 | 7u << 16;
	ss[8] = SURF;
}

static void setup(struct fixture *fx, unsigned pipeline)
{
	fx_kernel(fx, 0, kernel);
	surface(fx);
	CHECK_EQ(FX_EXEC(fx, PIPELINE_SELECT, .pipeline_selection = pipeline, .mask_bits = 3), 0);
	CHECK_EQ(FX_EXEC(fx, STATE_BASE_ADDRESS,
			 .surface_state_base_address_modify_enable = true,
			 .surface_state_base_address = FX_SURFACE_BASE,
			 .dynamic_state_base_address_modify_enable = true,
			 .indirect_object_base_address_modify_enable = true,
			 .indirect_object_base_address = INDIRECT_BASE,
			 .instruction_base_address_modify_enable = true), 0);
	CHECK_EQ(FX_EXEC(fx, MEDIA_VFE_STATE, .maximum_number_of_threads = 0,
			 .number_of_urb_entries = 2, .urb_entry_allocation_size = 2,
			 .curbe_allocation_size = 2), 0);
	/* CURBE: register 0 all 0xcc, register 1 bytes 0x40 + i */
	uint8_t *curbe = fx->host + FX_CURBE;
	memset(curbe, 0xcc, 32);
	for (unsigned i = 0; i < 32; i++)
		curbe[32 + i] = (uint8_t)(0x40 + i);
	CHECK_EQ(FX_EXEC(fx, MEDIA_CURBE_LOAD, .curbe_total_data_length = 64,
			 .curbe_data_start_address = FX_CURBE), 0);
	/* 20 bytes of indirect data: 0x90 + i */
	for (unsigned i = 0; i < 32; i++)
		fx->host[INDIRECT_BASE + INDIRECT + i] = (uint8_t)(i < 20 ? 0x90 + i : 0xee);
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.kernel_start_pointer = 0, .binding_table_pointer = BT,
		.constant_urb_entry_read_offset = 1, .constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 1 };
	fx_load_id(fx, &id);
}

/* MEDIA_OBJECT with 20 bytes of indirect data and 8 inline dwords: X, Y,
 * then 0x11111111 * k. */
static int media_object(struct fixture *fx, uint32_t x, uint32_t y, bool children,
			bool sync, bool scoreboard)
{
	uint32_t len = 6 + 8;           /* DWords 0..5, the inline data from 6 */
	CHECK_EQ(cmd_MEDIA_OBJECT_pack(fx->gen, fx->dw, len, &(const struct cmd_MEDIA_OBJECT){
			.interface_descriptor_offset = 0, .indirect_data_length = 20,
			.indirect_data_start_address = INDIRECT, .children_present = children,
			.thread_synchronization = sync, .use_scoreboard = scoreboard,
			.scoreboard_x = 3, .scoredboard_y = 4, .scoreboard_mask = 0xff }), 0);
	uint32_t *inl = fx->dw + len - 8;
	inl[0] = x;
	inl[1] = y;
	for (unsigned k = 2; k < 8; k++)
		inl[k] = 0x11111111u * k;
	const struct cmd_desc *d = cmd_find_name(fx->gen, "MEDIA_OBJECT");
	CHECK(d != NULL);
	/* DWord Length counts the inline dwords */
	fx->dw[0] = (fx->dw[0] & ~0xffffu) | (len - 2);
	int r = gpgpu_command(fx->gs, &fx->env, d, fx->dw, len);
	memset(fx->dw, 0, sizeof(fx->dw));
	return r;
}

/* The byte the kernel's three rows give (x, y) for an object at (ox, oy):
 * row 0 the CURBE's register 1, row 1 the indirect data then zeros, row 2
 * the inline dwords little-endian; 0xee outside. */
static uint8_t want(uint32_t ox, uint32_t oy, uint32_t x, uint32_t y)
{
	if (x < ox || x >= ox + 32 || y < oy || y >= oy + 3)
		return 0xee;
	unsigned b = x - ox;
	switch (y - oy) {
	case 0:
		return (uint8_t)(0x40 + b);
	case 1:
		return b < 20 ? (uint8_t)(0x90 + b) : 0;
	default: {
		uint32_t dw = b / 4 == 0 ? ox : b / 4 == 1 ? oy : 0x11111111u * (b / 4);
		return (uint8_t)(dw >> (8 * (b % 4)));
	}
	}
}

static void test_objects(const char *dev)
{
	struct fixture fx;
	fx_init(&fx, dev);
	struct seen seen = { 0 };
	gpgpu_set_thread_hook(fx.gs, hook, &seen);
	setup(&fx, 1);
	memset(fx.host + SURF, 0xee, 64 * 16);
	CHECK_EQ(media_object(&fx, 32, 2, false, false, false), 0);
	/* Use Scoreboard counts only with MEDIA_VFE_STATE's Scoreboard
	 * Enable (PRM MEDIA_OBJECT): off here, the object runs as any */
	CHECK_EQ(media_object(&fx, 0, 9, false, false, true), 0);
	if (gpgpu_fault(fx.gs)[0])
		printf("%s: %s\n", dev, gpgpu_fault(fx.gs));
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 64; x++) {
			uint8_t w = want(32, 2, x, y);
			if (w == 0xee)
				w = want(0, 9, x, y);
			CHECK_EQ(fx.host[SURF + y * 64 + x], w);
		}
	/* each object one thread, started and ended in order */
	CHECK_EQ(seen.starts, 2u);
	CHECK_EQ(seen.ends, 2u);
	for (unsigned i = 0; i < 2; i++) {
		CHECK_EQ(seen.mask[i], 0xffffu);
		CHECK_EQ(seen.r0[i][4], BT);          /* binding table pointer */
		CHECK_EQ(seen.r0[i][5], 0u);          /* no scratch, FFTID 0 */
	}
	fx_fini(&fx);
}

static void test_faults(const char *dev)
{
	struct fixture fx;
	fx_init(&fx, dev);
	/* the GPGPU pipeline selected */
	setup(&fx, 2);
	CHECK_EQ(media_object(&fx, 0, 0, false, false, false), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "MEDIA_OBJECT with the GPGPU pipeline") != NULL);
	fx_fini(&fx);

	fx_init(&fx, dev);
	setup(&fx, 1);
	CHECK_EQ(media_object(&fx, 0, 0, true, false, false), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "Children Present") != NULL);
	CHECK_EQ(media_object(&fx, 0, 0, false, true, false), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "Thread Synchronization") != NULL);
	/* the CURBE's register 2 was never loaded (2 registers) */
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.constant_urb_entry_read_offset = 2, .constant_urb_entry_read_length = 1 };
	fx_load_id(&fx, &id);
	CHECK_EQ(media_object(&fx, 0, 0, false, false, false), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "CURBE bytes 64..96") != NULL);
	/* the scoreboard itself is not implemented: Scoreboard Enable faults */
	CHECK_EQ(FX_EXEC(&fx, MEDIA_VFE_STATE, .maximum_number_of_threads = 0,
			 .curbe_allocation_size = 2, .scoreboard_enable = true), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "Scoreboard Enable is not implemented") != NULL);
	/* interface descriptor 0 of none */
	CHECK_EQ(FX_EXEC(&fx, MEDIA_INTERFACE_DESCRIPTOR_LOAD,
			 .interface_descriptor_total_length = 0,
			 .interface_descriptor_data_start_address = FX_IDD), 0);
	CHECK_EQ(media_object(&fx, 0, 0, false, false, false), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "interface descriptor 0 of the 0 loaded") != NULL);
	fx_fini(&fx);
}

int main(void)
{
	static const char *const devs[] = { "bdw", "skl" };
	for (unsigned d = 0; d < 2; d++) {
		test_objects(devs[d]);
		test_faults(devs[d]);
	}
	return test_exit();
}
