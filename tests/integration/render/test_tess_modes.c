/* The HS and DS dispatch modes no driver on this machine emits, with
 * hand-written programs, through libgtdrv and execbuf (tess_scene.h):
 * ten PATCHLIST_3 patches, patch k a small right triangle in cell
 * (k % 4, k / 4) of the 32 x 32 target (8 x 8 pixel cells). The HS copies
 * each input vertex's position into the patch entry as control points
 * (rows 3-5), writes the colour (red (k + 1) / 16, green 1/2, blue 0,
 * alpha 1; row 2) and a TRI header with every factor 1; the DS places a
 * domain point at u CP0 + v CP1 + w CP2 and adds blue k / 16 from its
 * primitive ID. Factors 1 give the domain triangle itself, so each
 * triangle is drawn where its vertices are. The oracle, by hand: inside
 * triangle k the colour above, outside every triangle black;
 * HS_INVOCATION_COUNT grows by 10 (patches), DS_INVOCATION_COUNT by 30.
 *   eight_patch (SKL): 3DSTATE_HS Dispatch Mode 8_PATCH, 3 instances: a
 *      thread per instance i for up to 8 patches (channel c patch c; the
 *      10 patches take two sets, 8 and 2 channels), instance i copying
 *      vertex i of each: patch handles g1, primitive IDs g2, the vertices'
 *      handles g3-g5, the instance in g0.2 bits 23:17 (Mesa 646924cf).
 *   ds_simd4x2 (BDW, SKL): SINGLE_PATCH HS, a vec4 DS (3DSTATE_DS Dispatch
 *      Mode SIMD4X2; Mesa's brw_vec4_tes.cpp payload): two points a thread,
 *      the output handles g0.0/g0.1, g1 u, v, w of each half with the
 *      primitive ID in DWord 7, the patch data pushed from g2.
 *   hs_barrier (BDW, SKL): a SINGLE_PATCH HS of 2 instances meeting at a
 *      gateway barrier: instance 1 writes red into row 12 of the patch
 *      entry, both send the barrier (Barrier Count 2, as Mesa's TCS) and
 *      wait, then instance 0 reads row 12 into the colour. Run one after
 *      the other, instance 0 would read row 12 before instance 1 wrote it.
 *   dual_patch (SKL): Dispatch Mode DUAL_PATCH is a GPU fault whose error
 *      state names it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "gpu/cs/regs.h"
#include "kernel/request.h"
#include "tess_scene.h"

#define NPATCH 10u

enum mode { EIGHT_PATCH, DS_SIMD4X2, HS_BARRIER, DUAL_PATCH };

/* Copy vertex c of the patch (handle in g1 channel c, channels 3-7 hold
 * vertex 0's) into row 3 + c: one control point per channel. */
#define HS_SINGLE_COPY_POINTS                                                                   \
	"mov(8) g20<1>UW 0x76543210V { align1 WE_all 1Q };\n"                                   \
	"send(8) g22<1>UD g1<8,8,1>UD urb 1 SIMD8 read mlen 1 rlen 4 { align1 1Q };\n"          \
	"mov(8) g30<1>UD g0<0,1,0>UD { align1 WE_all 1Q };\n"                                   \
	"add(8) g31<1>UD g20<8,8,1>UW 0x00000003UD { align1 1Q };\n"                            \
	"mov(8) g32<1>UD g22<8,8,1>UD { align1 1Q };\n"                                         \
	"mov(8) g33<1>UD g23<8,8,1>UD { align1 1Q };\n"                                         \
	"mov(8) g34<1>UD g24<8,8,1>UD { align1 1Q };\n"                                         \
	"mov(8) g35<1>UD g25<8,8,1>UD { align1 1Q };\n"                                         \
	"send(8) null<1>UD g30<8,8,1>UD urb 0 SIMD8 write per-slot mlen 6 rlen 0 { align1 1Q };\n"

/* g41: red (primitive ID + 1) / 16 from the ID register given */
#define HS_RED(id)                                                                              \
	"add(8) g41<1>D " id " 1D { align1 1Q };\n"                                             \
	"mov(8) g41<1>F g41<8,8,1>D { align1 1Q };\n"                                           \
	"mul(8) g41<1>F g41<8,8,1>F 0.0625F { align1 1Q };\n"

/* The colour row (handles in g40, red in g41) and the TRI header, factors
 * 1, ending the thread (handles copied from `h`). */
#define HS_COLOUR_AND_HEADER(pred, h)                                                           \
	"mov(8) g42<1>F 0.5F { align1 1Q };\n"                                                  \
	"mov(8) g43<1>F 0F { align1 1Q };\n"                                                    \
	"mov(8) g44<1>F 1F { align1 1Q };\n"                                                    \
	pred "send(8) null<1>UD g40<8,8,1>UD urb 2 SIMD8 write mlen 5 rlen 0 { align1 1Q };\n"  \
	"mov(8) g50<1>UD " h " { align1 WE_all 1Q };\n"                                         \
	"mov(8) g51<1>F 0F { align1 1Q };\n"                                                    \
	"mov(8) g52<1>F 0F { align1 1Q };\n"                                                    \
	"mov(8) g53<1>F 0F { align1 1Q };\n"                                                    \
	"mov(8) g54<1>F 0F { align1 1Q };\n"                                                    \
	"mov(8) g55<1>F 1F { align1 1Q };\n"                                                    \
	"mov(8) g56<1>F 1F { align1 1Q };\n"                                                    \
	"mov(8) g57<1>F 1F { align1 1Q };\n"                                                    \
	"mov(8) g58<1>F 1F { align1 1Q };\n"                                                    \
	"send(8) null<1>UD g50<8,8,1>UD urb 0 SIMD8 write mlen 9 rlen 0 { align1 1Q EOT };\n"

/* SINGLE_PATCH, one instance: g0.0 patch, g0.1 primitive ID, g1 ICPs */
static const char hs_single[] =
	HS_SINGLE_COPY_POINTS
	"mov(8) g40<1>UD g0<0,1,0>UD { align1 WE_all 1Q };\n"
	HS_RED("g0.1<0,1,0>D")
	HS_COLOUR_AND_HEADER("", "g0<0,1,0>UD");

/* 8_PATCH, 3 instances: g1 patch handles, g2 primitive IDs, g3-g5 the
 * handles of vertices 0-2; instance i (g10) copies vertex i to row 3 + i */
static const char hs_8_patch[] =
	"and(1) g10<1>UD g0.2<0,1,0>UD 0x00fe0000UD { align1 WE_all 1N };\n"
	"shr(1) g10<1>UD g10<0,1,0>UD 0x00000011UD { align1 WE_all 1N };\n"
	"mov(8) g20<1>UD g3<8,8,1>UD { align1 1Q };\n"
	"cmp.z.f0.0(8) null<1>UD g10<0,1,0>UD 0x00000001UD { align1 1Q };\n"
	"(+f0.0) mov(8) g20<1>UD g4<8,8,1>UD { align1 1Q };\n"
	"cmp.z.f0.0(8) null<1>UD g10<0,1,0>UD 0x00000002UD { align1 1Q };\n"
	"(+f0.0) mov(8) g20<1>UD g5<8,8,1>UD { align1 1Q };\n"
	"send(8) g22<1>UD g20<8,8,1>UD urb 1 SIMD8 read mlen 1 rlen 4 { align1 1Q };\n"
	"mov(8) g30<1>UD g1<8,8,1>UD { align1 WE_all 1Q };\n"
	"add(8) g31<1>UD g10<0,1,0>UD 0x00000003UD { align1 1Q };\n"
	"mov(8) g32<1>UD g22<8,8,1>UD { align1 1Q };\n"
	"mov(8) g33<1>UD g23<8,8,1>UD { align1 1Q };\n"
	"mov(8) g34<1>UD g24<8,8,1>UD { align1 1Q };\n"
	"mov(8) g35<1>UD g25<8,8,1>UD { align1 1Q };\n"
	"send(8) null<1>UD g30<8,8,1>UD urb 0 SIMD8 write per-slot mlen 6 rlen 0 { align1 1Q };\n"
	"mov(8) g40<1>UD g1<8,8,1>UD { align1 WE_all 1Q };\n"
	HS_RED("g2<8,8,1>D")
	HS_COLOUR_AND_HEADER("", "g1<8,8,1>UD");

/* SINGLE_PATCH, two instances and a barrier; g10 the instance, f0.0 on
 * instance 1 then f0.1 on instance 0 */
static const char hs_barrier[] =
	"and(1) g10<1>UD g0.2<0,1,0>UD 0x00fe0000UD { align1 WE_all 1N };\n"
	"shr(1) g10<1>UD g10<0,1,0>UD 0x00000011UD { align1 WE_all 1N };\n"
	HS_SINGLE_COPY_POINTS
	"mov(8) g40<1>UD g0<0,1,0>UD { align1 WE_all 1Q };\n"
	HS_RED("g0.1<0,1,0>D")
	"cmp.z.f0.0(8) null<1>UD g10<0,1,0>UD 0x00000001UD { align1 1Q };\n"
	"(+f0.0) send(8) null<1>UD g40<8,8,1>UD urb 12 SIMD8 write mlen 2 rlen 0 { align1 1Q };\n"
	/* the barrier: ID from g0.2 bits 16:13 to 27:24, count 2, enable */
	"mov(8) g126<1>UD 0x00000000UD { align1 WE_all 1Q };\n"
	"and(1) g126.2<1>UD g0.2<0,1,0>UD 0x0001e000UD { align1 WE_all 1N };\n"
	"shl(1) g126.2<1>UD g126.2<0,1,0>UD 0x0000000bUD { align1 WE_all 1N };\n"
	"or(1) g126.2<1>UD g126.2<0,1,0>UD 0x00008400UD { align1 WE_all 1N };\n"
	"send(1) null<1>UW g126<0,1,0>UD 0x02000004\n"
	"    gateway MsgDesc: (barrier msg) mlen 1 rlen 0 { align1 WE_all 1N };\n"
	"wait(1) n0<1>UD { align1 WE_all 1N };\n"
	/* after it: row 12 as the red (every channel wrote it) */
	"send(8) g41<1>UD g40<8,8,1>UD urb 12 SIMD8 read mlen 1 rlen 1 { align1 1Q };\n"
	"cmp.z.f0.1(8) null<1>UD g10<0,1,0>UD 0x00000000UD { align1 1Q };\n"
	HS_COLOUR_AND_HEADER("(+f0.1) ", "g0<0,1,0>UD");

/* SIMD8 DS: g1-g3 u, v, w; g4 the output handles; g0.1 primitive ID; the
 * patch pushed from g5: g5 header, g6 colour | CP0, g7 CP1 | CP2 */
static const char ds_simd8[] =
	"mov(8) g119<1>UD g4<8,8,1>UD { align1 WE_all 1Q };\n"
	"mul(8) g120<1>F g1<8,8,1>F g6.4<0,1,0>F { align1 1Q };\n"
	"mul(8) g20<1>F g2<8,8,1>F g7<0,1,0>F { align1 1Q };\n"
	"add(8) g120<1>F g120<8,8,1>F g20<8,8,1>F { align1 1Q };\n"
	"mul(8) g20<1>F g3<8,8,1>F g7.4<0,1,0>F { align1 1Q };\n"
	"add(8) g120<1>F g120<8,8,1>F g20<8,8,1>F { align1 1Q };\n"
	"mul(8) g121<1>F g1<8,8,1>F g6.5<0,1,0>F { align1 1Q };\n"
	"mul(8) g20<1>F g2<8,8,1>F g7.1<0,1,0>F { align1 1Q };\n"
	"add(8) g121<1>F g121<8,8,1>F g20<8,8,1>F { align1 1Q };\n"
	"mul(8) g20<1>F g3<8,8,1>F g7.5<0,1,0>F { align1 1Q };\n"
	"add(8) g121<1>F g121<8,8,1>F g20<8,8,1>F { align1 1Q };\n"
	"mov(8) g122<1>F 0F { align1 1Q };\n"
	"mov(8) g123<1>F 1F { align1 1Q };\n"
	"mov(8) g124<1>F g6<0,1,0>F { align1 1Q };\n"
	"mov(8) g125<1>F g6.1<0,1,0>F { align1 1Q };\n"
	"mov(8) g126<1>F g0.1<0,1,0>UD { align1 1Q };\n"
	"mul(8) g126<1>F g126<8,8,1>F 0.0625F { align1 1Q };\n"
	"mov(8) g127<1>F g6.3<0,1,0>F { align1 1Q };\n"
	"send(8) null<1>F g119<8,8,1>F urb 1 SIMD8 write mlen 9 rlen 0 { align1 1Q EOT };\n";

/* SIMD4x2 DS: g0.0/g0.1 the output handles; g1 u, v, w (x, y, z of each
 * half), the primitive ID in DWord 7; the patch pushed from g2: g2 header,
 * g3 colour | CP0, g4 CP1 | CP2. Output rows: 0 header, 1 position, 2
 * colour, one HWord write. */
static const char ds_simd4x2[] =
	"mov(8) g100<1>UD g0<4,4,1>UD { align16 WE_all 1Q };\n"
	"or(1) g100.5<1>UD g0.5<0,1,0>UD 0x0000ff00UD { align1 WE_all 1N };\n"
	"mov(8) g101<1>UD 0x00000000UD { align16 1Q };\n"
	"mul(8) g102<1>F g3.4<0,4,1>F g1<4,4,1>.xF { align16 1Q };\n"
	"mul(8) g20<1>F g4<0,4,1>F g1<4,4,1>.yF { align16 1Q };\n"
	"add(8) g102<1>F g102<4,4,1>F g20<4,4,1>F { align16 1Q };\n"
	"mul(8) g20<1>F g4.4<0,4,1>F g1<4,4,1>.zF { align16 1Q };\n"
	"add(8) g102<1>F g102<4,4,1>F g20<4,4,1>F { align16 1Q };\n"
	"mov(8) g103<1>F g3<0,4,1>F { align16 1Q };\n"
	"mov(8) g103<1>.zF g1.4<0,4,1>.wUD { align16 1Q };\n"
	"mul(8) g103<1>.zF g103<4,4,1>.zF 0.0625F { align16 1Q };\n"
	"send(8) null<1>F g100<4,4,1>F\n"
	"    urb 0 write HWord interleave mlen 4 rlen 0 { align16 1Q EOT };\n";

static struct gtsim_device *dev;
static struct gtsim_file *file;
static char error_path[] = "/tmp/gtsim-tess-modes-XXXXXX";

/* Patch k's corners in pixels: (x0+1, y0+1), (x0+7, y0+1), (x0+1, y0+7) */
static void cell(unsigned k, double *x0, double *y0)
{
	*x0 = 8.0 * (k % 4);
	*y0 = 8.0 * (k / 4);
}

static void make_vertices(float v[NPATCH * 3][4])
{
	static const double dx[3] = { 1, 7, 1 }, dy[3] = { 1, 1, 7 };
	for (unsigned k = 0; k < NPATCH; k++) {
		double x0, y0;
		cell(k, &x0, &y0);
		for (unsigned i = 0; i < 3; i++) {
			/* window = 16 NDC + 16 on both axes (tess_scene.h's viewport) */
			v[3 * k + i][0] = (float)((x0 + dx[i]) / 16.0 - 1.0);
			v[3 * k + i][1] = (float)((y0 + dy[i]) / 16.0 - 1.0);
			v[3 * k + i][2] = 0;
			v[3 * k + i][3] = 1;
		}
	}
}

/* The patch entry 16 rows (4 units) */
static int submit(struct scene *sc, enum mode m, int *fence)
{
	bool eight = m == EIGHT_PATCH || m == DUAL_PATCH, vec4 = m == DS_SIMD4X2;
	const struct tess_draw d = {
		.patch_units = 4, .vertex_count = NPATCH * 3,
		.hs = { .enable = true, .statistics_enable = true, .kernel_start_pointer = HS_OFFSET,
			.instance_count = m == EIGHT_PATCH ? 2 : m == HS_BARRIER ? 1 : 0,
			.dispatch_mode = m == EIGHT_PATCH ? 2 : m == DUAL_PATCH ? 1 : 0,
			.include_primitive_id = eight, .maximum_number_of_threads = 7,
			.include_vertex_handles = true,
			.dispatch_grf_start_register_for_urb_data = eight ? 6 : 5 },
		.ds = { .enable = true, .statistics_enable = true, .kernel_start_pointer = DS_OFFSET,
			.dispatch_mode = vec4 ? 0 : 1, .compute_w_coordinate_enable = true,
			.patch_urb_entry_read_offset = 0, .patch_urb_entry_read_length = 3,
			.dispatch_grf_start_register_for_urb_data = vec4 ? 2 : 5,
			.maximum_number_of_threads = 7 } };
	return scene_submit(sc, &d, fence);
}

/* Which triangle holds pixel (x, y) well inside: its index; -1 well
 * outside every one; -2 near an edge (not checked). */
static int triangle_at(unsigned x, unsigned y)
{
	for (unsigned k = 0; k < NPATCH; k++) {
		double x0, y0;
		cell(k, &x0, &y0);
		double u = x + 0.5 - (x0 + 1), v = y + 0.5 - (y0 + 1);
		if (u > 0.25 && v > 0.25 && u + v < 5.75)
			return (int)k;
		if (u > -0.75 && v > -0.75 && u + v < 6.75)
			return -2;
	}
	return -1;
}

static void check_image(struct scene *sc, const char *what)
{
	static uint8_t px[RT_BYTES];
	CHECK_EQ(gtdrv_bo_read(&sc->drv, &sc->rt, 0, px, sizeof(px)), 0);
	unsigned bad = 0, covered = 0;
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			const uint8_t *p = px + y * PITCH + x * 4;
			int k = triangle_at(x, y);
			if (k == -2)
				continue;
			int want[4] = { 0, 0, 0, 0 };
			if (k >= 0) {
				covered++;
				want[0] = (int)lround((k + 1) * 0.0625 * 255);
				want[1] = 128;
				want[2] = (int)lround(k * 0.0625 * 255);
				want[3] = 255;
			}
			bool ok = true;
			for (int c = 0; c < 4; c++)
				ok &= abs(p[c] - want[c]) <= 1;
			if (!ok && bad < 8)
				fprintf(stderr, "%s: pixel (%u, %u): %u %u %u %u, want %d %d %d %d "
					"(triangle %d)\n", what, x, y, p[0], p[1], p[2], p[3],
					want[0], want[1], want[2], want[3], k);
			bad += !ok;
		}
	CHECK_EQ(bad, 0);
	/* inside each: the centres (i + 1/2, j + 1/2) from the corner with
	 * i + j <= 4, 15 of them */
	CHECK_EQ(covered, NPATCH * 15);
}

static void clear_target(struct scene *sc)
{
	static uint8_t zero[RT_BYTES];
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->rt, 0, zero, sizeof(zero)), 0);
}

static void run_mode(const char *device, enum mode m, const char *name)
{
	printf("%s %s\n", device, name);
	struct gtsim_config cfg = { .device = device, .sync = 1, .hangcheck_ms = 100 };
	dev = gtsim_device_create(&cfg);
	CHECK(dev != NULL);
	if (!dev)
		return;
	file = gtsim_open(dev);
	static float verts[NPATCH * 3][4];
	make_vertices(verts);
	const char *hs = m == EIGHT_PATCH || m == DUAL_PATCH ? hs_8_patch :
			 m == HS_BARRIER ? hs_barrier : hs_single;
	struct scene sc;
	scene_init(&sc, file, device, verts, sizeof(verts), hs,
		   m == DS_SIMD4X2 ? ds_simd4x2 : ds_simd8);
	clear_target(&sc);
	int fence;
	CHECK_EQ(submit(&sc, m, &fence), 0);
	if (m == DUAL_PATCH) {
		CHECK_EQ(sync_file_status(fence), -EIO);
		gtsim_device_idle(dev);
		char *err = gtsim_error_state(dev);
		CHECK(err && strstr(err, "Dispatch Mode DUAL_PATCH is not implemented"));
		free(err);
	} else {
		CHECK_EQ(sync_file_status(fence), 1);
		check_image(&sc, name);
		uint64_t st[4] = { 0 };
		CHECK_EQ(gtdrv_bo_read(&sc.drv, &sc.res, 0, st, sizeof(st)), 0);
		CHECK_EQ(st[2] - st[0], NPATCH);       /* HS_INVOCATION_COUNT: patches */
		CHECK_EQ(st[3] - st[1], NPATCH * 3);   /* DS_INVOCATION_COUNT: points */
	}
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
	run_mode("skl", EIGHT_PATCH, "eight_patch");
	run_mode("skl", DUAL_PATCH, "dual_patch");
	run_mode("bdw", DS_SIMD4X2, "ds_simd4x2");
	run_mode("skl", DS_SIMD4X2, "ds_simd4x2");
	run_mode("bdw", HS_BARRIER, "hs_barrier");
	run_mode("skl", HS_BARRIER, "hs_barrier");
	unlink(error_path);
	return test_exit();
}
