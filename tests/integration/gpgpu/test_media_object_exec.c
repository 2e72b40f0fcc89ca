/* MEDIA_OBJECT end to end on BDW and SKL: a batch built with libgtdrv
 * (drv/walker_setup.h with the media pipeline: PIPELINE_SELECT media,
 * STATE_BASE_ADDRESS, MEDIA_VFE_STATE, MEDIA_CURBE_LOAD,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD, then MEDIA_OBJECTs with inline data
 * and MEDIA_STATE_FLUSH), submitted by EXECBUFFER2 and run by the render
 * engine's command streamer. The hand-written kernel stores its second
 * inline dword at the address in its CURBE register (g1.0: the output
 * object's GPU address) plus its first inline dword (g2: the inline data
 * after the one CURBE register), by a stateless untyped surface write
 * (BTI 255, as iga64 decodes 0x04026eff: SIMD8, red only, mlen 2). Three
 * objects store 0x1111 at +0, 0x2222 at +8 and 0x3333 at +4; the output
 * read by the CPU after the batch: the values placed by hand, the other
 * dwords 0. The same objects with the GPGPU pipeline selected are a GPU
 * fault (-EIO on the out-fence) naming MEDIA_OBJECT. */
#include <errno.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv/walker_setup.h"
#include "gpu/cs/regs.h"
#include "kernel/sync/fence.h"
#include "sync_file_check.h"
#include "test.h"

static const char store_kernel[] =
	"mov(8)          g10<1>UD        g1<0,1,0>UD                     { align1 1Q };\n"
	"add(8)          g10<1>UD        g10<8,8,1>UD    g2<0,1,0>UD     { align1 1Q };\n"
	"mov(8)          g11<1>UD        g2.1<0,1,0>UD                   { align1 1Q };\n"
	"send(8)         null<1>UW       g10<8,8,1>UD    0x04026eff\n"
	"                            dp data 1 MsgDesc: ( untyped surface write, Surface = 255, SIMD8, Mask = 0xe) mlen 2 rlen 0 { align1 1Q };\n"
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n";

/* The state, an SRM into the output (so it is bound in this context's
 * PPGTT, at its offset), then n of the objects: the out-fence's status. */
static int run_objects(struct gtdrv *drv, struct gtdrv_walker_setup *ws, unsigned n)
{
	static const uint32_t inl[3][2] = { { 0, 0x1111 }, { 8, 0x2222 }, { 4, 0x3333 } };
	struct gtdrv_batch b;
	int fence = -1;
	CHECK_EQ(gtdrv_batch_init(&b, drv), 0);
	int r = gtdrv_walker_emit_state(&b, ws);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT, &ws->out, 256);
	for (unsigned i = 0; i < n && !r; i++)
		r = gtdrv_walker_emit_media_object(&b, ws, 0, inl[i], 2);
	CHECK_EQ(r, 0);
	b.fence_out = &fence;
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	gtdrv_batch_fini(&b);
	return sync_file_status(fence);
}

static void run(const char *devname)
{
	struct gtsim_config cfg = { .device = devname, .hangcheck_ms = 100 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	struct gtsim_file *file = gtsim_open(dev);
	CHECK(file != NULL);
	struct gtdrv drv;
	gtdrv_init(&drv, file, devinfo_lookup(devname));
	struct gtdrv_walker_setup ws;
	const struct gtdrv_walker_kernel k = { .text = store_kernel, .curbe_read_length = 1,
					       .threads_per_group = 1 };
	uint32_t curbe[16] = { 0 };             /* CURBE loads are 64-byte units */
	CHECK_EQ(gtdrv_walker_setup_init(&ws, &drv, &k, 1, curbe, sizeof(curbe)), 0);
	ws.media = true;
	/* a first batch without objects binds the output: its address */
	CHECK_EQ(run_objects(&drv, &ws, 0), 1);
	CHECK(ws.out.offset != 0 && ws.out.offset >> 32 == 0);
	static const uint8_t zero[64];
	CHECK_EQ(gtdrv_bo_write(&drv, &ws.out, 0, zero, sizeof(zero)), 0);
	curbe[0] = (uint32_t)ws.out.offset;
	CHECK_EQ(gtdrv_bo_write(&drv, &ws.dyn, GTDRV_WALKER_DYN_CURBE, curbe, sizeof(curbe)), 0);
	CHECK_EQ(run_objects(&drv, &ws, 3), 1);
	uint32_t v[8];
	CHECK_EQ(gtdrv_bo_read(&drv, &ws.out, 0, v, sizeof(v)), 0);
	static const uint32_t want[8] = { 0x1111, 0x3333, 0x2222, 0, 0, 0, 0, 0 };
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(v[i], want[i]);

	/* with the GPGPU pipeline selected: a fault naming the command */
	ws.media = false;
	CHECK_EQ(run_objects(&drv, &ws, 3), -EIO);
	gtsim_device_idle(dev);
	char *err = gtsim_error_state(dev);
	CHECK(err && strstr(err, "MEDIA_OBJECT with the GPGPU pipeline selected"));
	free(err);
	gtdrv_walker_setup_fini(&ws);
	gtsim_close(file);
	gtsim_device_destroy(dev);
}

int main(void)
{
	char path[] = "/tmp/gtsim-media-exec-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		test_skip("cannot create a temporary file for the error state");
	close(fd);
	setenv("GTSIM_ERROR_STATE", path, 1);
	run("bdw");
	run("skl");
	unlink(path);
	return test_exit();
}
