/* A tessellated draw through the whole stack (libgtdrv, EXECBUFFER2, the
 * simulated GPU), on BDW and SKL: one PATCHLIST_3 patch with hand-written
 * HS and DS programs into a 32 x 32 RGBA8 target.
 *   HS (SINGLE_PATCH): writes the TRI patch header, inside factor 2 in
 *      DWord 4 and the three edge factors 2 in DWords 5-7, and a colour
 *      (0, 0.5, 0, 1) in DWords 8-11 of the patch entry.
 *   DS (SIMD8): position (2u - 1, 2v - 1, 0, 1), colour (27uvw, c.y, 0, 1)
 *      with c the patch colour pushed from the patch entry (read offset
 *      1, length 1) and w from Compute W Coordinate Enable.
 * The oracle, by hand from the GL tessellation rules: level 2 everywhere
 * splits each edge of the domain triangle at its middle and puts one
 * point at the centre (1/3, 1/3, 1/3); the six triangles fan around the
 * centre. 27uvw is 0 on the edges and 1 at the centre, so at a pixel the
 * red channel is the centre's barycentric weight in the fan triangle that
 * holds the pixel (a plain, untessellated triangle would be black). The
 * lower-left half of the target is covered (NDC (-1,-1), (1,-1), (-1,1)).
 * HS_INVOCATION_COUNT grows by 1 (patches) and DS_INVOCATION_COUNT by 7
 * (domain points). Then a DS partition of 0 entries: a GPU fault with an
 * error state naming 3DSTATE_URB_DS, the host survives. */
#include <errno.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv/pipeline.h"
#include "drv/seed_shaders.h"
#include "gpu/cs/regs.h"
#include "gpu/eu/asm.h"
#include "gpu/format/format.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"
#include "test.h"
#include "tess_scene.h"

static const char hs_text[] =
	"mov(8)          g112<1>UD       g0<0,1,0>UD                     { align1 WE_all 1Q };\n"
	"mov(8)          g113<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g114<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g115<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g116<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g117<1>F        2F                              { align1 1Q };\n"
	"mov(8)          g118<1>F        2F                              { align1 1Q };\n"
	"mov(8)          g119<1>F        2F                              { align1 1Q };\n"
	"mov(8)          g120<1>F        2F                              { align1 1Q };\n"
	"mov(8)          g121<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g122<1>F        0.5F                            { align1 1Q };\n"
	"mov(8)          g123<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g124<1>F        1F                              { align1 1Q };\n"
	"send(8)         null<1>F        g112<8,8,1>F\n"
	"                            urb 0 SIMD8 write mlen 13 rlen 0                { align1 1Q EOT };\n";

/* g1-g3 u, v, w; g4 the output handles; g5 the patch entry's DWords 8-15 */
static const char ds_text[] =
	"mov(8)          g119<1>UD       g4<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"mul(8)          g120<1>F        g1<8,8,1>F      2F              { align1 1Q };\n"
	"add(8)          g120<1>F        g120<8,8,1>F    -1F             { align1 1Q };\n"
	"mul(8)          g121<1>F        g2<8,8,1>F      2F              { align1 1Q };\n"
	"add(8)          g121<1>F        g121<8,8,1>F    -1F             { align1 1Q };\n"
	"mov(8)          g122<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g123<1>F        1F                              { align1 1Q };\n"
	"mul(8)          g124<1>F        g1<8,8,1>F      g2<8,8,1>F      { align1 1Q };\n"
	"mul(8)          g124<1>F        g124<8,8,1>F    g3<8,8,1>F      { align1 1Q };\n"
	"mul(8)          g124<1>F        g124<8,8,1>F    27F             { align1 1Q };\n"
	"mov(8)          g125<1>F        g5.1<0,1,0>F                    { align1 1Q };\n"
	"mov(8)          g126<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g127<1>F        1F                              { align1 1Q };\n"
	"send(8)         null<1>F        g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";

static struct gtsim_device *dev;
static struct gtsim_file *file;
static char error_path[] = "/tmp/gtsim-tess-draw-XXXXXX";

/* The tessellated patch; ds_entries_zero: a DS partition of 0 entries.
 * The patch entry: header and colour (one unit). */
static int submit(struct scene *sc, bool ds_entries_zero, int *fence)
{
	const struct tess_draw d = {
		.patch_units = 1, .vertex_count = 3, .ds_entries_zero = ds_entries_zero,
		.hs = { .enable = true, .statistics_enable = true, .kernel_start_pointer = HS_OFFSET,
			.instance_count = 0, .maximum_number_of_threads = 7,
			.include_vertex_handles = true, .dispatch_grf_start_register_for_urb_data = 5 },
		.ds = { .enable = true, .statistics_enable = true, .kernel_start_pointer = DS_OFFSET,
			.dispatch_mode = 1 /* SIMD8 */, .compute_w_coordinate_enable = true,
			.patch_urb_entry_read_offset = 1, .patch_urb_entry_read_length = 1,
			.dispatch_grf_start_register_for_urb_data = 5,
			.maximum_number_of_threads = 7 } };
	return scene_submit(sc, &d, fence);
}

/* The expected red of the pixel whose centre is at domain (u, v): the
 * centre point's weight in the fan triangle holding it; -1 outside. */
static double expected_red(double u, double v)
{
	if (u + v > 1)
		return -1;
	/* the ring: the corners and edge middles, in order around */
	static const double ring[6][2] = { { 0, 1 }, { 0, 0.5 }, { 0, 0 }, { 0.5, 0 },
					   { 1, 0 }, { 0.5, 0.5 } };
	const double c[2] = { 1.0 / 3, 1.0 / 3 };
	for (int i = 0; i < 6; i++) {
		const double *a = ring[i], *b = ring[(i + 1) % 6];
		/* barycentric weights of (u, v) in (a, b, c) */
		double det = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
		double wb = ((u - a[0]) * (c[1] - a[1]) - (v - a[1]) * (c[0] - a[0])) / det;
		double wc = ((b[0] - a[0]) * (v - a[1]) - (b[1] - a[1]) * (u - a[0])) / det;
		double wa = 1 - wb - wc;
		if (wa >= -1e-9 && wb >= -1e-9 && wc >= -1e-9)
			return wc;
	}
	return -1;
}

static void check_image(struct scene *sc)
{
	static uint8_t px[RT_BYTES];
	CHECK_EQ(gtdrv_bo_read(&sc->drv, &sc->rt, 0, px, sizeof(px)), 0);
	unsigned bad = 0, covered = 0, peak = 0;
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			const uint8_t *p = px + y * PITCH + x * 4;
			/* window y grows with NDC y here (m11 > 0) */
			double u = (x + 0.5) / W, v = (y + 0.5) / H;
			double want = expected_red(u, v);
			bool edge = fabs(u + v - 1) < 1.5 / W;  /* on the diagonal: either */
			if (edge)
				continue;
			if (want < 0) {
				bad += p[0] || p[1] || p[2] || p[3];
				continue;
			}
			covered++;
			peak = p[0] > peak ? p[0] : peak;
			int r = (int)lround(want * 255);
			bool ok = abs(p[0] - r) <= 2 && abs(p[1] - 128) <= 1 && p[2] == 0 &&
				  p[3] == 255;
			if (!ok && bad < 8)
				fprintf(stderr, "pixel (%u, %u): %u %u %u %u, want red %d green 128\n",
					x, y, p[0], p[1], p[2], p[3], r);
			bad += !ok;
		}
	CHECK_EQ(bad, 0);
	CHECK(covered > 400);
	CHECK(peak > 200);     /* near the centre point */
}

static void run(const char *device)
{
	printf("%s\n", device);
	struct gtsim_config cfg = { .device = device, .sync = 1, .hangcheck_ms = 100 };
	dev = gtsim_device_create(&cfg);
	CHECK(dev != NULL);
	if (!dev)
		return;
	file = gtsim_open(dev);
	struct scene sc;
	scene_init(&sc, file, device, gtdrv_square, sizeof(gtdrv_square), hs_text, ds_text);
	int fence;
	CHECK_EQ(submit(&sc, false, &fence), 0);
	CHECK_EQ(sync_file_status(fence), 1);
	check_image(&sc);
	uint64_t st[4] = { 0 };
	CHECK_EQ(gtdrv_bo_read(&sc.drv, &sc.res, 0, st, sizeof(st)), 0);
	CHECK_EQ(st[2] - st[0], 1);   /* HS_INVOCATION_COUNT: one patch */
	CHECK_EQ(st[3] - st[1], 7);   /* DS_INVOCATION_COUNT: seven domain points */

	/* no DS entries: a GPU fault, the error state names the partition */
	CHECK_EQ(submit(&sc, true, &fence), 0);
	CHECK_EQ(sync_file_status(fence), -EIO);
	gtsim_device_idle(dev);
	char *err = gtsim_error_state(dev);
	CHECK(err && strstr(err, "3DSTATE_URB_DS"));
	if (err && !strstr(err, "3DSTATE_URB_DS"))
		fprintf(stderr, "error state:\n%.600s\n", err);
	free(err);
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
