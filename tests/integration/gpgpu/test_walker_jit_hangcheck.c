/* Hangcheck and the JIT: compiling an EU program to host code is host
 * work, not the GPU's, so a compile longer than the hangcheck period is no
 * hang (kernel/hangcheck.c, exec_jit_compiling()). A walker of one
 * 250-instruction kernel compiled at its first run (GTSIM_JIT=always's
 * setting) under a 20 ms hangcheck: its fence signals success, the
 * context counts no reset and the result (g10 = 248 adds of 1.0 to 0,
 * hand-counted) is stored. Before the rule the compile (about 100 ms and
 * more) was declared a hang. Skips without LLVM; the compile's own time is
 * printed, and the check only means something when it exceeds the period
 * (asserted). */
#include <errno.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv/walker_setup.h"
#include "gpu/eu/jit/jit.h"
#include "kernel/sync/fence.h"
#include "test.h"

#define ADDS 240
#define HANGCHECK_MS 20

static char *kernel_text(void)
{
	size_t cap = 128 * (ADDS + 8), n = 0;
	char *s = malloc(cap);
	n += (size_t)snprintf(s + n, cap - n,
		"mov(8)          g10<1>F         0F                              { align1 WE_all 1Q };\n");
	for (int i = 0; i < ADDS; i++)
		n += (size_t)snprintf(s + n, cap - n,
			"add(8)          g10<1>F         g10<8,8,1>F     %d.0F       { align1 WE_all 1Q };\n",
			1 + (i & 1));
	snprintf(s + n, cap - n,
		"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
		"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
		"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n");
	return s;
}

static void run(const char *devname, const char *text)
{
	struct gtsim_config cfg = { .device = devname, .hangcheck_ms = HANGCHECK_MS };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	struct gtsim_file *file = gtsim_open(dev);
	struct drm_i915_gem_context_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	struct gtdrv drv;
	gtdrv_init(&drv, file, devinfo_lookup(devname));
	drv.ctx_id = c.ctx_id;
	struct gtdrv_walker_setup ws;
	const struct gtdrv_walker_kernel k = { .text = text, .curbe_read_length = 1,
					       .threads_per_group = 1 };
	const uint32_t curbe[16] = { 0 };  /* 64 bytes: MEDIA_CURBE_LOAD granularity */
	CHECK_EQ(gtdrv_walker_setup_init(&ws, &drv, &k, 1, curbe, sizeof(curbe)), 0);

	struct exec_jit_stats before, after;
	exec_jit_stats(&before);
	struct gtdrv_batch b;
	int fence = -1;
	CHECK_EQ(gtdrv_batch_init(&b, &drv), 0);
	CHECK_EQ(gtdrv_walker_emit_state(&b, &ws), 0);
	CHECK_EQ(gtdrv_walker_emit_dispatch(&b, &ws, &(const struct gtdrv_walker){
		.kernel = 0, .groups = { 1, 1, 1 }, .simd_size = 0, .threads = 1,
		.right_mask = 0xff }), 0);
	b.fence_out = &fence;
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	gtdrv_batch_fini(&b);
	struct sync_file_info info = { 0 };
	CHECK(fence >= 0);
	if (fence >= 0) {
		CHECK_EQ(sync_file_ioctl(fence, SYNC_IOC_FILE_INFO, &info), 0);
		close(fence);
	}
	gtsim_device_idle(dev);
	exec_jit_stats(&after);
	double ms = (double)(after.compile_ns - before.compile_ns) * 1e-6;
	printf("%s: compiled %llu program(s) in %.1f ms, fence status %d\n", devname,
	       (unsigned long long)(after.programs - before.programs), ms, info.status);
	CHECK_EQ(after.programs - before.programs, 1);
	CHECK(ms > 2 * HANGCHECK_MS);      /* else the test shows nothing */
	CHECK_EQ(info.status, 1);
	struct drm_i915_reset_stats rs = { .ctx_id = c.ctx_id };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	CHECK_EQ(rs.batch_active, 0);
	gtdrv_walker_setup_fini(&ws);
	gtsim_close(file);
	gtsim_device_destroy(dev);
}

int main(void)
{
	if (!exec_jit_available())
		test_skip("no EU code generator (LLVM 15) here");
	exec_jit_configure(EXEC_JIT_TIERED, 0);   /* compile at the first run */
	char *bdw = kernel_text();
	run("bdw", bdw);
	/* a different program for SKL (the cache would reuse BDW's) */
	bdw[strlen("mov(8)          g10<1>F         ")] = '1';
	run("skl", bdw);
	free(bdw);
	return test_exit();
}
