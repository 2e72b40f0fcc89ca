/* GPGPU_WALKER end to end on BDW and SKL: libgtdrv builds the compute
 * state (PIPELINE_SELECT GPGPU, STATE_BASE_ADDRESS, MEDIA_VFE_STATE,
 * MEDIA_CURBE_LOAD, MEDIA_INTERFACE_DESCRIPTOR_LOAD), EXECBUFFER2 submits
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
 *    on and the same context's next dispatch runs. */
#include <errno.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv/pipeline.h"
#include "gpu/eu/asm.h"
#include "kernel/sync/fence.h"
#include "test.h"

#define DYN_IDD 0x0          /* two interface descriptors */
#define DYN_CURBE 0x100
#define K_GOOD 0x0
#define K_HANG 0x400

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

struct scene {
	struct gtdrv drv;
	struct gtdrv_bo kernel, dyn, out;
};

static void scene_init(struct scene *sc, const char *devname, uint32_t ctx)
{
	gtdrv_init(&sc->drv, file, devinfo_lookup(devname));
	sc->drv.ctx_id = ctx;
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->kernel, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->dyn, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->out, 4096), 0);
	CHECK_EQ(gtdrv_upload_kernel(&sc->drv, &sc->kernel, K_GOOD, good_kernel, NULL), 0);
	CHECK_EQ(gtdrv_upload_kernel(&sc->drv, &sc->kernel, K_HANG, hang_kernel, NULL), 0);
	int gen = sc->drv.gen;
	uint32_t idd[16] = { 0 };
	CHECK_EQ(cmd_INTERFACE_DESCRIPTOR_DATA_pack(gen, idd, 8,
		&(const struct cmd_INTERFACE_DESCRIPTOR_DATA){ .kernel_start_pointer = K_GOOD,
		.constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 2 }), 0);
	CHECK_EQ(cmd_INTERFACE_DESCRIPTOR_DATA_pack(gen, idd + 8, 8,
		&(const struct cmd_INTERFACE_DESCRIPTOR_DATA){ .kernel_start_pointer = K_HANG,
		.barrier_enable = true, .constant_urb_entry_read_length = 1,
		.number_of_threads_in_gpgpu_thread_group = 2 }), 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->dyn, DYN_IDD, idd, sizeof(idd)), 0);
	/* iris's per-thread CURBE: each thread's subgroup number */
	uint32_t curbe[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->dyn, DYN_CURBE, curbe, sizeof(curbe)), 0);
	uint32_t zero[4] = { 0 };
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->out, 0, zero, sizeof(zero)), 0);
}

static void scene_fini(struct scene *sc)
{
	gtdrv_bo_free(&sc->drv, &sc->kernel);
	gtdrv_bo_free(&sc->drv, &sc->dyn);
	gtdrv_bo_free(&sc->drv, &sc->out);
}

/* The compute state, the indirect walker of interface descriptor id, the
 * invocation count before (out + 0) and after (out + 8). */
static int dispatch(struct scene *sc, unsigned id, int *fence)
{
	struct gtdrv_batch b;
	int r = gtdrv_batch_init(&b, &sc->drv);
	if (r)
		return r;
	r = gtdrv_emit_3d_begin(&b, &sc->kernel, &sc->dyn);    /* the base addresses */
	r = r ? r : GTDRV_EMIT(&b, PIPELINE_SELECT, .mask_bits = 3, .pipeline_selection = 2);
	r = r ? r : GTDRV_EMIT(&b, MEDIA_VFE_STATE, .maximum_number_of_threads = 55,
			       .number_of_urb_entries = 2, .urb_entry_allocation_size = 2,
			       .curbe_allocation_size = 2);
	r = r ? r : GTDRV_EMIT(&b, MEDIA_CURBE_LOAD, .curbe_total_data_length = 64,
			       .curbe_data_start_address = DYN_CURBE);
	r = r ? r : GTDRV_EMIT(&b, MEDIA_INTERFACE_DESCRIPTOR_LOAD,
			       .interface_descriptor_total_length = 64,
			       .interface_descriptor_data_start_address = DYN_IDD);
	r = r ? r : gtdrv_emit_lri(&b, REG_GPGPU_DISPATCHDIMX, 3);
	r = r ? r : gtdrv_emit_lri(&b, REG_GPGPU_DISPATCHDIMY, 2);
	r = r ? r : gtdrv_emit_lri(&b, REG_GPGPU_DISPATCHDIMZ, 1);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT, &sc->out, 0);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT + 4, &sc->out, 4);
	r = r ? r : GTDRV_EMIT(&b, GPGPU_WALKER, .interface_descriptor_offset = id,
			       .indirect_parameter_enable = true, .simd_size = 1,
			       .thread_width_counter_maximum = 1,
			       .thread_group_id_x_dimension = 1, .thread_group_id_y_dimension = 1,
			       .thread_group_id_z_dimension = 1, .right_execution_mask = 0xff,
			       .bottom_execution_mask = 0xffffffff);
	r = r ? r : GTDRV_EMIT(&b, MEDIA_STATE_FLUSH, 0);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT, &sc->out, 8);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT + 4, &sc->out, 12);
	b.fence_out = fence;
	r = r ? r : gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	return r;
}

static int sync_file_status(int fd)
{
	struct sync_file_info info = { 0 };
	CHECK(fd >= 0);
	if (fd < 0)
		return 0;
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_FILE_INFO, &info), 0);
	close(fd);
	return info.status;
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
	CHECK_EQ(gtdrv_bo_read(&sc->drv, &sc->out, 0, v, sizeof(v)), 0);
	CHECK_EQ(v[1] - v[0], 6 * (16 + 8));
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
	CHECK_EQ(resets, resets0 + 1);
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
