/* GPGPU_WALKER through the compute pipeline's commands (gpgpu.h) on BDW and
 * SKL, against values computed by hand from the PRM's rules:
 *  - the groups a walker dispatches (Starting X/Y/Z up to the Dimensions,
 *    X fastest), each thread's R0 (group IDs in R0.1/R0.6/R0.7, the
 *    binding table pointer in R0.4, the scratch pointer and FFTID in
 *    R0.5) and CURBE registers (the cross-thread part, then the thread's
 *    own part at cross + index x per-thread), seen at dispatch;
 *  - execution masks: SIMD8/16/32, the Right Execution Mask on the last
 *    thread of a row, the Bottom Execution Mask on the last row;
 *  - kernels that compute their global invocation ID from R0.1 and the
 *    subgroup number iris pushes per thread, seen when they end;
 *  - GPGPU_DISPATCHDIMX/Y/Z with Indirect Parameter Enable;
 *  - CS_INVOCATION_COUNT: the enabled channels dispatched;
 *  - barriers: no thread passes a barrier before every thread of its group
 *    has reached it (two barriers in a row), a group whose threads wait
 *    forever is a GPU hang naming it, a barrier message without Barrier
 *    Enable is a fault;
 *  - a walker with the 3D pipeline selected faults (the media state is stored). */
#include "fixture.h"

#define MAX_EVENTS 256

struct event {
	enum gpgpu_event ev;
	struct gpgpu_thread_info ti;
	uint32_t r0[8], g1[8], g2[8], out[8];
	uint32_t sr0_2;
};

struct recorder {
	struct event e[MAX_EVENTS];
	unsigned n;
	unsigned out_reg;                   /* register copied into out[] */
	/* barrier invariant: the group's threads, seen at their START */
	const struct eu_thread *threads[16];
	unsigned violations;
};

static void copy_reg(const struct eu_thread *t, unsigned nr, uint32_t *dst)
{
	for (unsigned i = 0; i < 8; i++)
		dst[i] = eu_grf_ud(t, nr, i);
}

/* Two barriers, each between a write before it (g40, g42) and a write
 * after it (g41, g43): a thread that has done the write after barrier k
 * while another thread has not done the one before it passed early. */
static void check_barriers(struct recorder *rec, unsigned n)
{
	for (unsigned k = 0; k < 2; k++) {
		bool passed = false, all_arrived = true;
		for (unsigned i = 0; i < n; i++) {
			passed |= eu_grf_ud(rec->threads[i], 41 + 2 * k, 0) != 0;
			all_arrived &= eu_grf_ud(rec->threads[i], 40 + 2 * k, 0) != 0;
		}
		if (passed && !all_arrived)
			rec->violations++;
	}
}

static void record(void *ctx, enum gpgpu_event ev, const struct gpgpu_thread_info *ti,
		   const struct eu_thread *t)
{
	struct recorder *rec = ctx;
	if (ev == GPGPU_THREAD_START && ti->index < 16)
		rec->threads[ti->index] = t;
	if (ev != GPGPU_THREAD_START && ti->threads <= 16)
		check_barriers(rec, ti->threads);
	if (rec->n >= MAX_EVENTS)
		return;
	struct event *e = &rec->e[rec->n++];
	e->ev = ev;
	e->ti = *ti;
	copy_reg(t, 0, e->r0);
	copy_reg(t, 1, e->g1);
	copy_reg(t, 2, e->g2);
	if (rec->out_reg)
		copy_reg(t, rec->out_reg, e->out);
	memcpy(&e->sr0_2, eu_arf_c(t, EU_ARF_SR0) + 8, 4);
}

static const char *const devs[] = { "bdw", "skl" };

/* A fixture on dev with kernel at 0 and the recorder (reset) watching its
 * threads. */
static struct recorder *start(struct fixture *fx, const char *dev, const char *kernel)
{
	static struct recorder rec;
	fx_init(fx, dev);
	memset(&rec, 0, sizeof(rec));
	gpgpu_set_thread_hook(fx->gs, record, &rec);
	fx_kernel(fx, 0, kernel);
	return &rec;
}

/* SIMD16, 3 threads a group, groups x 2..3, y 0..1: R0, CURBE, masks and
 * the scratch pointer of each thread at dispatch. */
static void test_payload_simd16(const char *dev)
{
	struct fixture fx;
	struct recorder *rec = start(&fx, dev, FX_EOT);
	/* CURBE: 1 cross-thread register 0xc0000000 + i, then 1 register per
	 * thread: 0x100 * t + i */
	uint32_t curbe[32] = { 0 };
	for (unsigned i = 0; i < 8; i++) {
		curbe[i] = 0xc0000000u + i;
		for (unsigned t = 0; t < 3; t++)
			curbe[8 + 8 * t + i] = 0x100 * t + i;
	}
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.kernel_start_pointer = 0, .binding_table_pointer = 0x40,
		.sampler_state_pointer = 0x60,
		.cross_thread_constant_data_read_length = 1,
		.constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 3 };
	/* scratch: 2 KB per thread (encoding 1) at 0x20000 */
	fx_setup(&fx, &id, curbe, sizeof(curbe), 1, 0x20000);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 1, .thread_width_counter_maximum = 2,
			 .thread_group_id_starting_x = 2, .thread_group_id_x_dimension = 4,
			 .thread_group_id_starting_y = 0, .thread_group_id_y_dimension = 2,
			 .thread_group_id_starting_resume_z = 0, .thread_group_id_z_dimension = 1,
			 .right_execution_mask = 0x00ff, .bottom_execution_mask = 0xffffffff), 0);
	/* 4 groups x 3 threads, each START then END */
	CHECK_EQ(rec->n, 24u);
	static const uint32_t gx[4] = { 2, 3, 2, 3 }, gy[4] = { 0, 0, 1, 1 };
	unsigned k = 0;
	for (unsigned g = 0; g < 4; g++) {
		for (unsigned t = 0; t < 3; t++, k++) {
			const struct event *e = &rec->e[k];
			CHECK_EQ(e->ev, GPGPU_THREAD_START);
			CHECK_EQ(e->ti.index, t);
			CHECK_EQ(e->r0[1], gx[g]);
			CHECK_EQ(e->r0[6], gy[g]);
			CHECK_EQ(e->r0[7], 0);
			CHECK_EQ(e->r0[3], 0x60u | 1);          /* sampler state | scratch space */
			CHECK_EQ(e->r0[4], 0x40u);
			CHECK_EQ(e->r0[5], (0x20000u + t * 2048) | t);
			CHECK_EQ(e->ti.simd, 16);
			CHECK_EQ(e->sr0_2, t == 2 ? 0x00ffu : 0xffffu);
			for (unsigned i = 0; i < 8; i++) {
				CHECK_EQ(e->g1[i], 0xc0000000u + i);
				CHECK_EQ(e->g2[i], 0x100 * t + i);
			}
		}
		for (unsigned t = 0; t < 3; t++, k++)
			CHECK_EQ(rec->e[k].ev, GPGPU_THREAD_END);
	}
	/* CS_INVOCATION_COUNT: 4 groups x (16 + 16 + 8) channels */
	CHECK_EQ(regs_get64(fx.regs, REG_CS_INVOCATION_COUNT), 160);
	fx_fini(&fx);
}

/* SIMD32 with two rows of one thread: both are the last of their row (the
 * right mask), the second is the bottom row (the bottom mask too); SIMD8
 * with a right mask; with the masks ANDed channel counts. */
static void test_masks(const char *dev)
{
	static const struct { unsigned simd_size, width, height; uint32_t right, bottom;
			      uint32_t want[4]; uint64_t invocations; } cases[] = {
		{ 2, 1, 2, 0xffff0fff, 0x000000ff, { 0xffff0fff, 0x000000ff }, 28 + 8 },
		{ 0, 3, 1, 0x07, 0xffffffff, { 0xff, 0xff, 0x07 }, 8 + 8 + 3 },
		{ 1, 2, 2, 0x0f0f, 0x3333, { 0xffff, 0x0f0f, 0x3333, 0x0303 }, 16 + 8 + 8 + 4 },
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct fixture fx;
		struct recorder *rec = start(&fx, dev, FX_EOT);
		uint32_t curbe[16] = { 0 };
		unsigned n = cases[c].width * cases[c].height;
		const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
			.number_of_threads_in_gpgpu_thread_group = n };
		fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
		CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = cases[c].simd_size,
				 .thread_width_counter_maximum = cases[c].width - 1,
				 .thread_height_counter_maximum = cases[c].height - 1,
				 .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
				 .thread_group_id_z_dimension = 1,
				 .right_execution_mask = cases[c].right,
				 .bottom_execution_mask = cases[c].bottom), 0);
		CHECK_EQ(rec->n, 2 * n);
		for (unsigned t = 0; t < n; t++) {
			CHECK_EQ(rec->e[t].ti.index, t);
			CHECK_EQ(rec->e[t].ti.mask, cases[c].want[t]);
			CHECK_EQ(rec->e[t].sr0_2, cases[c].want[t]);
		}
		CHECK_EQ(regs_get64(fx.regs, REG_CS_INVOCATION_COUNT), cases[c].invocations);
		fx_fini(&fx);
	}
}

/* The global invocation ID of each channel, computed by the kernel the
 * way Mesa's compiler does on Gen8/9: group ID X (R0.1) x local size +
 * subgroup number (the per-thread CURBE dword iris pushes) x 8 + channel.
 * Local size 30: 4 SIMD8 threads, the last with 6 channels (right mask
 * 0x3f). */
static void test_kernel_ids(const char *dev)
{
	struct fixture fx;
	struct recorder *rec = start(&fx, dev,
		"mov(8)          g20<1>UW        0x76543210UV                    { align1 1Q };\n"
		"mov(8)          g21<1>UD        g20<8,8,1>UW                    { align1 1Q };\n"
		"mul(8)          g22<1>UD        g1<0,1,0>UD     0x00000008UD    { align1 1Q };\n"
		"add(8)          g23<1>UD        g22<8,8,1>UD    g21<8,8,1>UD    { align1 1Q };\n"
		"mul(8)          g24<1>UD        g0.1<0,1,0>UD   0x0000001eUD    { align1 1Q };\n"
		"add(8)          g30<1>UD        g24<8,8,1>UD    g23<8,8,1>UD    { align1 1Q };\n"
		FX_EOT);
	rec->out_reg = 30;
	uint32_t curbe[32] = { 0 };
	for (unsigned t = 0; t < 4; t++)
		curbe[8 * t] = t;          /* no cross-thread part: thread t's subgroup */
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 4 };
	fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 0, .thread_width_counter_maximum = 3,
			 .thread_group_id_starting_x = 1, .thread_group_id_x_dimension = 3,
			 .thread_group_id_y_dimension = 1, .thread_group_id_z_dimension = 1,
			 .right_execution_mask = 0x3f, .bottom_execution_mask = 0xffffffff), 0);
	CHECK_EQ(rec->n, 16u);
	for (unsigned k = 0; k < rec->n; k++) {
		const struct event *e = &rec->e[k];
		if (e->ev != GPGPU_THREAD_END)
			continue;
		unsigned group = e->r0[1], t = e->ti.index;
		for (unsigned c = 0; c < 8; c++) {
			/* disabled channels keep 0 */
			uint32_t want = t == 3 && c >= 6 ? 0 : group * 30 + t * 8 + c;
			CHECK_EQ(e->out[c], want);
		}
	}
	CHECK_EQ(regs_get64(fx.regs, REG_CS_INVOCATION_COUNT), 60);
	fx_fini(&fx);
}

/* Indirect Parameter Enable: the dimensions from GPGPU_DISPATCHDIMX/Y/Z
 * (3, 2, 2), not from the command (1, 1, 1); starting IDs stay the
 * command's. */
static void test_indirect(const char *dev)
{
	struct fixture fx;
	struct recorder *rec = start(&fx, dev, FX_EOT);
	uint32_t curbe[16] = { 0 };
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.number_of_threads_in_gpgpu_thread_group = 1 };
	fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
	regs_set(fx.regs, REG_GPGPU_DISPATCHDIMX, 3);
	regs_set(fx.regs, REG_GPGPU_DISPATCHDIMY, 2);
	regs_set(fx.regs, REG_GPGPU_DISPATCHDIMZ, 2);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .indirect_parameter_enable = true, .simd_size = 0,
			 .thread_group_id_starting_x = 1,
			 .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .right_execution_mask = 0xff,
			 .bottom_execution_mask = 0xff), 0);
	/* x 1..2, y 0..1, z 0..1: 8 groups of one thread */
	CHECK_EQ(rec->n, 16u);
	for (unsigned g = 0; g < 8 && 2 * g < rec->n; g++) {
		const struct event *e = &rec->e[2 * g];
		CHECK_EQ(e->r0[1], 1 + g % 2);
		CHECK_EQ(e->r0[6], (g / 2) % 2);
		CHECK_EQ(e->r0[7], g / 4);
	}
	CHECK_EQ(regs_get64(fx.regs, REG_CS_INVOCATION_COUNT), 64);
	/* a zero dimension: no group, no thread */
	regs_set(fx.regs, REG_GPGPU_DISPATCHDIMY, 0);
	rec->n = 0;
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .indirect_parameter_enable = true,
			 .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .right_execution_mask = 0xff,
			 .bottom_execution_mask = 0xff), 0);
	CHECK_EQ(rec->n, 0u);
	CHECK_EQ(regs_get64(fx.regs, REG_CS_INVOCATION_COUNT), 64);
	fx_fini(&fx);
}

/* Two barriers between writes: g40 = 1, barrier, g41 = 2, g42 = 3,
 * barrier, g43 = 4. The threads run round-robin: the first three stop at
 * the first wait; the last one's barrier message completes the barrier,
 * so it goes on to the second wait; the others resume. Invariant at
 * every event: no thread has written after barrier k unless all have
 * written before it. Every thread ends with all four writes. */
static void test_barrier_order(const char *dev)
{
	struct fixture fx;
	struct recorder *rec = start(&fx, dev,
		"mov(8)          g40<1>UD        0x00000001UD                    { align1 1Q };\n"
		FX_BARRIER
		"mov(8)          g41<1>UD        0x00000002UD                    { align1 1Q };\n"
		"mov(8)          g42<1>UD        0x00000003UD                    { align1 1Q };\n"
		FX_BARRIER
		"mov(8)          g43<1>UD        0x00000004UD                    { align1 1Q };\n"
		FX_EOT);
	uint32_t curbe[16] = { 0 };
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.barrier_enable = true, .number_of_threads_in_gpgpu_thread_group = 4,
		.shared_local_memory_size = 1 };
	fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 0, .thread_width_counter_maximum = 3,
			 .thread_group_id_x_dimension = 2, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .right_execution_mask = 0xff,
			 .bottom_execution_mask = 0xff), 0);
	CHECK_EQ(rec->violations, 0u);
	/* per group: 4 START; round 1: threads 0-2 WAIT (barrier 1), thread 3
	 * completes it and WAITs at barrier 2; round 2: threads 0-2 RESUME and
	 * 0, 1 WAIT at barrier 2, thread 2 completes it and ENDs; round 3:
	 * threads 3, 0, 1 RESUME and END */
	static const struct { enum gpgpu_event ev; unsigned index; } want[] = {
		{ GPGPU_THREAD_START, 0 }, { GPGPU_THREAD_START, 1 }, { GPGPU_THREAD_START, 2 },
		{ GPGPU_THREAD_START, 3 }, { GPGPU_THREAD_WAIT, 0 }, { GPGPU_THREAD_WAIT, 1 },
		{ GPGPU_THREAD_WAIT, 2 }, { GPGPU_THREAD_WAIT, 3 },
		{ GPGPU_THREAD_RESUME, 0 }, { GPGPU_THREAD_WAIT, 0 },
		{ GPGPU_THREAD_RESUME, 1 }, { GPGPU_THREAD_WAIT, 1 },
		{ GPGPU_THREAD_RESUME, 2 }, { GPGPU_THREAD_END, 2 },
		{ GPGPU_THREAD_RESUME, 3 }, { GPGPU_THREAD_END, 3 },
		{ GPGPU_THREAD_RESUME, 0 }, { GPGPU_THREAD_END, 0 },
		{ GPGPU_THREAD_RESUME, 1 }, { GPGPU_THREAD_END, 1 },
	};
	const unsigned nw = sizeof(want) / sizeof(want[0]);
	CHECK_EQ(rec->n, 2 * nw);
	for (unsigned k = 0; k < rec->n && k < 2 * nw; k++) {
		CHECK_EQ(rec->e[k].ev, want[k % nw].ev);
		CHECK_EQ(rec->e[k].ti.index, want[k % nw].index);
		CHECK_EQ(rec->e[k].ti.group[0], k / nw);
	}
	for (unsigned k = 0; k < rec->n; k++) {
		const struct event *e = &rec->e[k];
		/* the barrier ID the gateway compares: one per group */
		CHECK_EQ(e->r0[2] & 0x8f000000u, (k / nw) << 24);
	}
	fx_fini(&fx);
}

/* A group whose threads wait forever: one barrier message each, then two
 * waits (the second has no notification to consume): a GPU hang naming
 * the group; and a barrier message without Barrier Enable: a fault. */
static void test_barrier_hang(const char *dev)
{
	struct fixture fx;
	fx_init(&fx, dev);
	fx_kernel(&fx, 0,
		FX_BARRIER
		"wait(1)         n0<1>UD                                         { align1 WE_all 1N };\n"
		FX_EOT);
	uint32_t curbe[16] = { 0 };
	struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.barrier_enable = true, .number_of_threads_in_gpgpu_thread_group = 3 };
	fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 0, .thread_width_counter_maximum = 2,
			 .thread_group_id_starting_x = 5, .thread_group_id_x_dimension = 6,
			 .thread_group_id_y_dimension = 1, .thread_group_id_z_dimension = 1,
			 .right_execution_mask = 0xff, .bottom_execution_mask = 0xff), -1);
	const char *f = gpgpu_fault(fx.gs);
	CHECK(strstr(f, "GPU hang") != NULL);
	CHECK(strstr(f, "thread group (5,0,0)") != NULL);
	CHECK(strstr(f, "3 of 3 threads wait forever") != NULL);
	CHECK(strstr(f, "barrier: 0 of 3 threads arrived") != NULL);
	printf("%s: %s\n", dev, f);

	/* the same kernel without Barrier Enable */
	id.barrier_enable = false;
	fx_load_id(&fx, &id);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 0, .thread_width_counter_maximum = 2,
			 .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .right_execution_mask = 0xff,
			 .bottom_execution_mask = 0xff), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "Barrier Enable is clear") != NULL);
	fx_fini(&fx);
}

/* Faults: the other pipeline selected, reserved encodings, the CURBE and
 * the interface descriptors' limits. */
static void test_faults(const char *dev)
{
	struct fixture fx;
	fx_init(&fx, dev);
	fx_kernel(&fx, 0, FX_EOT);
	/* 3D selected (the default): the media state is stored (anv emits
	 * MEDIA_VFE_STATE so), the walker faults */
	CHECK_EQ(FX_EXEC(&fx, MEDIA_VFE_STATE, .maximum_number_of_threads = 1), 0);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .thread_group_id_x_dimension = 1), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "GPGPU_WALKER with the 3D pipeline selected") != NULL);
	uint32_t curbe[16] = { 0 };
	struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 2 };
	fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
	/* 3 threads read 3 per-thread registers: 96 bytes, 64 loaded */
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .thread_width_counter_maximum = 2,
			 .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "read 96 bytes of CURBE data, 64 were loaded") != NULL);
	/* descriptor 1 of the 1 loaded */
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .interface_descriptor_offset = 1,
			 .thread_group_id_x_dimension = 1), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "interface descriptor 1 of the 1 loaded") != NULL);
	/* reserved SIMD Size 3 */
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 3, .thread_group_id_x_dimension = 1), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "reserved SIMD Size 3") != NULL);
	/* a Shared Local Memory Size the generation reserves: Gen8 3 (not a
	 * power of two), Gen9 8 (above 64 KB) */
	id.shared_local_memory_size = fx.gen >= 9 ? 8 : 3;
	fx_load_id(&fx, &id);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .thread_group_id_x_dimension = 1,
			 .thread_group_id_y_dimension = 1, .thread_group_id_z_dimension = 1), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "reserved Shared Local Memory Size") != NULL);
	fx_fini(&fx);
}

/* Shared local memory between the threads of a group, and time slices:
 * thread 0 spins reading SLM dword 0 (untyped surface read, BTI 254) until
 * thread 1 has written 7 there (untyped surface write); thread 0 runs
 * first, so only a turn that ends before its budget lets thread 1 on (on
 * the hardware both run at once). g2 counts thread 0's reads: more than
 * one in each group, so each group starts with its SLM zeroed. Messages as
 * iga64 decodes them: 0x04026efe "hdc.dc1 untyped surface write with x",
 * 0x02106efe "... read with x". */
static void test_slm_spin(const char *dev)
{
	struct fixture fx;
	struct recorder *rec = start(&fx, dev,
		"mov(8)          g10<1>UD        0x00000000UD                    { align1 1Q };\n"
		"and(1)          g11<1>UD        g0.5<0,1,0>UD   0x000003ffUD    { align1 WE_all 1N };\n"
		"cmp.z.f0.0(8)   null<1>UD       g11<0,1,0>UD    0x00000000UD    { align1 1Q };\n"
		"(-f0.0) if(8)   JIP: LABEL0       UIP: LABEL2                   { align1 1Q };\n"
		"mov(8)          g11<1>UD        0x00000007UD                    { align1 1Q };\n"
		"send(8)         null<1>UW       g10<8,8,1>UD    0x04026efe\n"
		"                            dp data 1 MsgDesc: ( untyped surface write, Surface = 254, SIMD8, Mask = 0xe) mlen 2 rlen 0 { align1 1Q };\n"
		"else(8)         JIP: LABEL2       UIP: LABEL2                   { align1 1Q };\n"
		"LABEL0:\n"
		"send(8)         g13<1>UD        g10<8,8,1>UD    0x02106efe\n"
		"                            dp data 1 MsgDesc: ( untyped surface read, Surface = 254, SIMD8, Mask = 0xe) mlen 1 rlen 1 { align1 1Q };\n"
		"add(8)          g2<1>UD         g2<8,8,1>UD     0x00000001UD    { align1 1Q };\n"
		"cmp.z.f0.0(8)   null<1>UD       g13<8,8,1>UD    0x00000000UD    { align1 1Q };\n"
		"(+f0.0) while(8) JIP: LABEL0                                    { align1 1Q };\n"
		"LABEL2:\n"
		"endif(8)        JIP: LABEL3                                     { align1 1Q };\n"
		"LABEL3:\n"
		FX_EOT);
	rec->out_reg = 13;
	uint32_t curbe[16] = { 0 };
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.number_of_threads_in_gpgpu_thread_group = 2, .shared_local_memory_size = 1 };
	fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 0, .thread_width_counter_maximum = 1,
			 .thread_group_id_x_dimension = 2, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .right_execution_mask = 0xff,
			 .bottom_execution_mask = 0xff), 0);
	if (gpgpu_fault(fx.gs)[0])
		printf("%s\n", gpgpu_fault(fx.gs));
	unsigned ends = 0;
	for (unsigned k = 0; k < rec->n; k++) {
		const struct event *e = &rec->e[k];
		if (e->ev != GPGPU_THREAD_END || e->ti.index != 0)
			continue;
		ends++;
		CHECK_EQ(e->out[0], 7u);
		CHECK(e->out[1] == 7u && e->out[7] == 7u);
		CHECK(e->g2[0] > 1u);
	}
	CHECK_EQ(ends, 2u);
	fx_fini(&fx);
}

/* GPGPU_WALKER with indirect data (Intel's compute runtime's way, no
 * CURBE): Indirect Data Length bytes from Indirect Object Base (0 here) +
 * Indirect Data Start Address, laid out as the CURBE (1 cross-thread
 * register, then 1 register per thread) but given to the thread with its
 * own register first (g1) and the cross-thread one after it (g2), as the
 * runtime's compiler reads them; a length shorter than the threads read
 * is a fault naming it. */
static void test_payload_indirect_data(const char *dev)
{
	struct fixture fx;
	struct recorder *rec = start(&fx, dev, FX_EOT);
	const uint32_t at = 0xa000;
	uint32_t *data = (uint32_t *)(fx.host + at);
	for (unsigned i = 0; i < 8; i++) {
		data[i] = 0xc0000000u + i;
		for (unsigned t = 0; t < 2; t++)
			data[8 + 8 * t + i] = 0x100 * t + i;
	}
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.cross_thread_constant_data_read_length = 1,
		.constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 2 };
	uint32_t no_curbe[16] = { 0 };
	fx_setup(&fx, &id, no_curbe, 0, 0, 0);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 1, .thread_width_counter_maximum = 1,
			 .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .indirect_data_length = 96,
			 .indirect_data_start_address = at,
			 .right_execution_mask = 0xffff, .bottom_execution_mask = 0xffffffff), 0);
	CHECK_EQ(rec->n, 4u);
	for (unsigned t = 0; t < 2; t++) {
		const struct event *e = &rec->e[t];
		CHECK_EQ(e->ev, GPGPU_THREAD_START);
		for (unsigned i = 0; i < 8; i++) {
			CHECK_EQ(e->g1[i], 0x100 * t + i);
			CHECK_EQ(e->g2[i], 0xc0000000u + i);
		}
	}
	/* 64 bytes: the second thread's register is missing */
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 1, .thread_width_counter_maximum = 1,
			 .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .indirect_data_length = 64,
			 .indirect_data_start_address = at,
			 .right_execution_mask = 0xffff, .bottom_execution_mask = 0xffffffff), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "Indirect Data Length is 64") != NULL);
	fx_fini(&fx);
}

/* MEDIA_CURBE_LOAD of more than MEDIA_VFE_STATE allocates (IGT's
 * gpgpu_fill: 64 bytes into 1 register; it passes on Gen8/9 hardware):
 * the allocation is kept, a thread reads its first register, and one that
 * reads two is a fault naming what was loaded. */
static void test_curbe_over_allocation(const char *dev)
{
	struct fixture fx;
	struct recorder *rec = start(&fx, dev, FX_EOT);
	uint32_t curbe[16];
	for (unsigned i = 0; i < 16; i++)
		curbe[i] = 0xcb000000u + i;
	memcpy(fx.host + FX_CURBE, curbe, sizeof(curbe));
	CHECK_EQ(FX_EXEC(&fx, PIPELINE_SELECT, .pipeline_selection = 2, .mask_bits = 3), 0);
	CHECK_EQ(FX_EXEC(&fx, STATE_BASE_ADDRESS,
			 .general_state_base_address_modify_enable = true,
			 .dynamic_state_base_address_modify_enable = true,
			 .instruction_base_address_modify_enable = true), 0);
	CHECK_EQ(FX_EXEC(&fx, MEDIA_VFE_STATE, .maximum_number_of_threads = 2,
			 .number_of_urb_entries = 2, .urb_entry_allocation_size = 2,
			 .curbe_allocation_size = 1), 0);
	CHECK_EQ(FX_EXEC(&fx, MEDIA_CURBE_LOAD, .curbe_total_data_length = 64,
			 .curbe_data_start_address = FX_CURBE), 0);
	struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 1 };
	fx_load_id(&fx, &id);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .thread_group_id_x_dimension = 1,
			 .thread_group_id_y_dimension = 1, .thread_group_id_z_dimension = 1,
			 .right_execution_mask = 0xff, .bottom_execution_mask = 0xffffffff), 0);
	CHECK(rec->n >= 1);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rec->e[0].g1[i], 0xcb000000u + i);
	id.constant_urb_entry_read_length = 2;
	fx_load_id(&fx, &id);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .thread_group_id_x_dimension = 1,
			 .thread_group_id_y_dimension = 1, .thread_group_id_z_dimension = 1,
			 .right_execution_mask = 0xff, .bottom_execution_mask = 0xffffffff), -1);
	CHECK(strstr(gpgpu_fault(fx.gs), "32 were loaded") != NULL);
	fx_fini(&fx);
}

int main(void)
{
	for (size_t d = 0; d < 2; d++) {
		test_payload_simd16(devs[d]);
		test_payload_indirect_data(devs[d]);
		test_masks(devs[d]);
		test_kernel_ids(devs[d]);
		test_indirect(devs[d]);
		test_barrier_order(devs[d]);
		test_barrier_hang(devs[d]);
		test_faults(devs[d]);
		test_slm_spin(devs[d]);
		test_curbe_over_allocation(devs[d]);
	}
	return test_exit();
}
