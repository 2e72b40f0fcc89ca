/* The "gpgpu" trace (GTSIM_TRACE=gpgpu, written to GTSIM_TRACE_FILE): a
 * walker of 2 groups of 3 SIMD8 threads with a barrier leaves, in order,
 * the walker line (kernel, SIMD, the group range and count, threads per
 * group, right and bottom masks, CURBE split, SLM, barrier), per group a
 * group line (threads, barrier ID), per thread its mask and payload, and
 * the gateway's barrier arrivals and completion. Expected text worked out
 * from the walker below: groups (0,0,0)..(2,1,1) = 2, right mask 0x3f on
 * each group's last thread, the barrier ID of group 1 in R0.2 27:24;
 * Shared Local Memory Size 1 is 4 KB on Gen8 and 1 KB on Gen9 (PRM
 * INTERFACE_DESCRIPTOR_DATA). The walker runs on BDW, then on SKL, into
 * one trace. */
#include "fixture.h"
#include "trace_capture.h"

/* The occurrences of s in text. */
static unsigned count(const char *text, const char *s)
{
	unsigned n = 0;
	for (const char *p = text; (p = strstr(p, s)); p += strlen(s))
		n++;
	return n;
}

static void run(const char *dev)
{
	struct fixture fx;
	fx_init(&fx, dev);
	fx_kernel(&fx, 0, FX_BARRIER FX_EOT);
	uint32_t curbe[16] = { 0 };
	const struct cmd_INTERFACE_DESCRIPTOR_DATA id = {
		.barrier_enable = true, .number_of_threads_in_gpgpu_thread_group = 3,
		.shared_local_memory_size = 1 };
	fx_setup(&fx, &id, curbe, sizeof(curbe), 0, 0);
	CHECK_EQ(FX_EXEC(&fx, GPGPU_WALKER, .simd_size = 0, .thread_width_counter_maximum = 2,
			 .thread_group_id_x_dimension = 2, .thread_group_id_y_dimension = 1,
			 .thread_group_id_z_dimension = 1, .right_execution_mask = 0x3f,
			 .bottom_execution_mask = 0xff), 0);
	fx_fini(&fx);
}

int main(void)
{
	char path[] = "/tmp/gtsim-gpgpu-trace-XXXXXX";
	if (trace_capture_start(path, "gpgpu")) {
		CHECK(!"no trace file");
		return test_exit();
	}
	run("bdw");
	run("skl");
	static char buf[1 << 16];
	const char *t = trace_capture_read(path, buf, sizeof(buf));
	CHECK(t != NULL);
	if (!t)
		return test_exit();
	/* per device */
	CHECK_EQ(count(t, "[gpgpu] walker 0: ID 0 kernel 0x"), 2u);
	CHECK_EQ(count(t, "SIMD8, groups (0,0,0)..(2,1,1) = 2, 3 threads each (3x1x1), "
			  "right mask 0x3f, bottom mask 0xff"), 2u);
	CHECK_EQ(count(t, "SLM 4096 bytes, barrier on"), 1u);
	CHECK_EQ(count(t, "SLM 1024 bytes, barrier on"), 1u);
	CHECK_EQ(count(t, "group 0 (0,0,0): 3 SIMD8 threads, barrier ID 0\n"), 2u);
	CHECK_EQ(count(t, "group 1 (1,0,0): 3 SIMD8 threads, barrier ID 1\n"), 2u);
	/* six threads each; the last of each group has the right mask */
	CHECK_EQ(count(t, "  thread "), 12u);
	CHECK_EQ(count(t, "thread 2 of group (1,0,0): SIMD8 mask 0x0000003f, R0.2 0x01000000"),
		 2u);
	CHECK_EQ(count(t, "SIMD8 mask 0x0000003f"), 4u);
	CHECK_EQ(count(t, "SIMD8 mask 0x000000ff"), 8u);
	/* the gateway: per group 3 arrivals, then completion */
	CHECK_EQ(count(t, "of 3 threads arrived"), 12u);
	CHECK_EQ(count(t, "gateway: barrier 0x1000000: 3 of 3 threads arrived"), 2u);
	CHECK_EQ(count(t, "complete (3 threads)"), 4u);
	if (test_failures)
		fprintf(stderr, "trace:\n%s", t);
	return test_exit();
}
