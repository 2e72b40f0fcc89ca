/* GPGPU_WALKER end to end on BDW and SKL: libgtdrv's walker setup
 * (drv/walker_setup.h) builds the compute state (PIPELINE_SELECT GPGPU,
 * STATE_BASE_ADDRESS, MEDIA_VFE_STATE, MEDIA_CURBE_LOAD,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD) and the walker, EXECBUFFER2 submits
 * it, the simulated GPU runs it.
 *  - An indirect dispatch as iris does glDispatchComputeIndirect:
 *    MI_LOAD_REGISTER_IMM of GPGPU_DISPATCHDIMX/Y/Z = 3, 2, 1, then a
 *    walker with Indirect Parameter Enable of SIMD16 groups of 2 threads,
 *    the last with Right Execution Mask 0xff: CS_INVOCATION_COUNT, stored
 *    by MI_STORE_REGISTER_MEM before and after, grows by 6 groups x
 *    (16 + 8) channels = 144.
 *  - A group whose threads wait forever at a barrier (each sends one
 *    barrier message, then waits twice): the batch is a GPU hang, GEM_WAIT
 *    returns, the out-fence signals -EIO, GET_RESET_STATS counts the
 *    context guilty once, the error state names the group; the host goes
 *    on and the same context's next dispatch runs.
 *  - PPGTT isolation of a kernel's stores: a kernel that writes stateless
 *    (BTI 255, General State Base 0) at the GPU address its CURBE holds,
 *    run in a second file (its own PPGTT) at the address of the first
 *    file's output object, leaves that object as it was: in the second
 *    file's PPGTT nothing is there, a page fault naming the address (a GPU
 *    hang, -EIO); the same kernel in the first file at that address does
 *    change it (the store itself works). */
#include <errno.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv/walker_setup.h"
#include "gpu/eu/asm.h"
#include "kernel/sync/fence.h"
#include "sync_file_check.h"
#include "test.h"

static struct gtsim_device *dev;
static struct gtsim_file *file;
static char error_path[] = "/tmp/gtsim-gpgpu-exec-XXXXXX";

static const char good_kernel[] =
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n";

static const char hang_kernel[] =
	"mov(8)          g126<1>UD       0x00000000UD                    { align1 WE_all 1Q };\n"
	"and(1)          g126.2<1>UD     g0.2<0,1,0>UD   0x8f000000UD    { align1 WE_all 1N };\n"
	"send(1)         null<1>UW       g126<0,1,0>UD   0x02000004\n"
	"                            gateway MsgDesc: (barrier msg) mlen 1 rlen 0 { align1 WE_all 1N };\n"
	"wait(1)         n0<1>UD                                         { align1 WE_all 1N };\n"
	"wait(1)         n0<1>UD                                         { align1 WE_all 1N };\n"
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n";

/* 0x5a5a0000 + channel at the address in g1.0 (untyped surface write,
 * BTI 255, SIMD8, red only) */
static const char store_kernel[] =
	"mov(8)          g10<1>UD        g1<0,1,0>UD                     { align1 1Q };\n"
	"mov(8)          g11<1>UD        0x5a5a0000UD                    { align1 1Q };\n"
	"send(8)         null<1>UW       g10<8,8,1>UD    0x04026eff\n"
	"                            dp data 1 MsgDesc: ( untyped surface write, Surface = 255, SIMD8, Mask = 0xe) mlen 2 rlen 0 { align1 1Q };\n"
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n";

struct scene {
	struct gtdrv drv;
	struct gtdrv_walker_setup ws;
};

static void scene_init(struct scene *sc, const char *devname, uint32_t ctx)
{
	gtdrv_init(&sc->drv, file, devinfo_lookup(devname));
	sc->drv.ctx_id = ctx;
	const struct gtdrv_walker_kernel kernels[2] = {
		{ .text = good_kernel, .curbe_read_length = 1, .threads_per_group = 2 },
		{ .text = hang_kernel, .barrier = true, .curbe_read_length = 1,
		  .threads_per_group = 2 },
	};
	/* iris's per-thread CURBE: each thread's subgroup number */
	const uint32_t curbe[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	CHECK_EQ(gtdrv_walker_setup_init(&sc->ws, &sc->drv, kernels, 2, curbe, sizeof(curbe)), 0);
}

static void scene_fini(struct scene *sc)
{
	gtdrv_walker_setup_fini(&sc->ws);
}

/* The compute state, the indirect walker of interface descriptor id
 * (3 x 2 x 1 groups of 2 SIMD16 threads, the last thread's right mask
 * 0xff), the invocation count before (out + 0) and after (out + 8). */
static int dispatch(struct scene *sc, unsigned id, int *fence)
{
	struct gtdrv_batch b;
	struct gtdrv_bo *out = &sc->ws.out;
	int r = gtdrv_batch_init(&b, &sc->drv);
	if (r)
		return r;
	r = gtdrv_walker_emit_state(&b, &sc->ws);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT, out, 0);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT + 4, out, 4);
	r = r ? r : gtdrv_walker_emit_dispatch(&b, &sc->ws, &(const struct gtdrv_walker){
		.kernel = id, .groups = { 3, 2, 1 }, .indirect = true, .simd_size = 1,
		.threads = 2, .right_mask = 0xff });
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT, out, 8);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT + 4, out, 12);
	b.fence_out = fence;
	r = r ? r : gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	return r;
}

static void reset_stats(uint32_t ctx, uint32_t *resets, uint32_t *active)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	*resets = rs.reset_count;
	*active = rs.batch_active;
}

static void check_good(struct scene *sc)
{
	int fence;
	CHECK_EQ(dispatch(sc, 0, &fence), 0);
	CHECK_EQ(sync_file_status(fence), 1);
	uint64_t v[2];
	CHECK_EQ(gtdrv_bo_read(&sc->drv, &sc->ws.out, 0, v, sizeof(v)), 0);
	CHECK_EQ(v[1] - v[0], 6 * (16 + 8));
}

/* The store kernel in file f (context ctx) at GPU address addr: the
 * out-fence status. */
static int store_at(struct gtsim_file *f, const char *devname, uint32_t ctx, uint64_t addr)
{
	struct scene sc;
	gtdrv_init(&sc.drv, f, devinfo_lookup(devname));
	sc.drv.ctx_id = ctx;
	const struct gtdrv_walker_kernel k = { .text = store_kernel, .curbe_read_length = 1,
					       .threads_per_group = 1 };
	const uint32_t curbe[16] = { (uint32_t)addr };   /* CURBE loads are 64-byte units */
	CHECK(addr >> 32 == 0);
	CHECK_EQ(gtdrv_walker_setup_init(&sc.ws, &sc.drv, &k, 1, curbe, sizeof(curbe)), 0);
	struct gtdrv_batch b;
	int fence = -1;
	CHECK_EQ(gtdrv_batch_init(&b, &sc.drv), 0);
	CHECK_EQ(gtdrv_walker_emit_state(&b, &sc.ws), 0);
	CHECK_EQ(gtdrv_walker_emit_dispatch(&b, &sc.ws, &(const struct gtdrv_walker){
		.kernel = 0, .groups = { 1, 1, 1 }, .simd_size = 0, .threads = 1 }), 0);
	b.fence_out = &fence;
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	gtdrv_batch_fini(&b);
	int st = sync_file_status(fence);
	gtsim_device_idle(dev);

	scene_fini(&sc);
	return st;
}

static void test_isolation(const char *devname, struct scene *a)
{
	uint8_t before[64], after[64];
	CHECK_EQ(gtdrv_bo_read(&a->drv, &a->ws.out, 0, before, sizeof(before)), 0);
	struct gtsim_file *other = gtsim_open(dev);
	CHECK(other != NULL);
	struct drm_i915_gem_context_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(other, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	CHECK_EQ(store_at(other, devname, c.ctx_id, a->ws.out.offset), -EIO);
	char want[64], *err = gtsim_error_state(dev);
	snprintf(want, sizeof(want), "page fault writing 0x%llx",
		 (unsigned long long)a->ws.out.offset);
	CHECK(err && strstr(err, want));
	free(err);
	CHECK_EQ(gtdrv_bo_read(&a->drv, &a->ws.out, 0, after, sizeof(after)), 0);
	CHECK(memcmp(before, after, sizeof(before)) == 0);
	gtsim_close(other);
	/* the control: in its own file the store lands */
	CHECK_EQ(store_at(file, devname, a->drv.ctx_id, a->ws.out.offset), 1);
	uint32_t v;
	CHECK_EQ(gtdrv_bo_read(&a->drv, &a->ws.out, 0, &v, 4), 0);
	CHECK_EQ(v, 0x5a5a0000u);
}

static void run(const char *devname)
{
	printf("%s\n", devname);
	struct gtsim_config cfg = { .device = devname, .hangcheck_ms = 100 };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	file = gtsim_open(dev);
	CHECK(file != NULL);
	struct drm_i915_gem_context_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	struct scene sc;
	scene_init(&sc, devname, c.ctx_id);
	check_good(&sc);

	uint32_t resets0, resets, active;
	reset_stats(c.ctx_id, &resets0, &active);
	CHECK_EQ(active, 0);
	int fence;
	CHECK_EQ(dispatch(&sc, 1, &fence), 0);
	CHECK_EQ(sync_file_status(fence), -EIO);
	gtsim_device_idle(dev);
	reset_stats(c.ctx_id, &resets, &active);
	CHECK_EQ(resets, resets0);   /* an engine reset: not a full-GPU one */
	CHECK_EQ(active, 1);
	char *err = gtsim_error_state(dev);
	CHECK(err != NULL);
	const char *want = "GPU hang: GPGPU_WALKER thread group (0,0,0): 2 of 2 threads wait "
			   "forever";
	if (err && !strstr(err, want))
		fprintf(stderr, "error state lacks \"%s\":\n%.400s\n", want, err);
	CHECK(err && strstr(err, want));
	free(err);

	/* the host and the context go on */
	check_good(&sc);
	test_isolation(devname, &sc);
	scene_fini(&sc);
	gtsim_close(file);
	gtsim_device_destroy(dev);
}

int main(void)
{
	int fd = mkstemp(error_path);
	if (fd < 0)
		test_skip("cannot create a temporary file for the error state");
	close(fd);
	setenv("GTSIM_ERROR_STATE", error_path, 1);
	run("bdw");
	run("skl");
	unlink(error_path);
	return test_exit();
}
