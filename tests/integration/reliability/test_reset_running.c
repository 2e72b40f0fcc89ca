/* A reset reaches into a running command (issue 16). A GPGPU_WALKER whose
 * kernel loops forever (jmpi -16: to itself, PRM vol. 7 "jmpi": the offset
 * counts from the next instruction) in 112 threads (two groups of 56, the
 * most MEDIA_VFE_STATE allows), and a draw whose fragment shader writes
 * the render target in a loop that never ends (no EOT: the loop's RT
 * write, then jmpi back to it), hold the engine inside one command. Before
 * the EU polled the engine's abort flag, the group's threads ran in turns
 * until one had executed the EU's budget of 10^8 instructions (56 x 10^8
 * here: minutes), and the pixel thread's 5 x 10^7 render target writes
 * took as long; hangcheck could not end either. Now hangcheck (100 ms)
 * ends each within its period plus a small bound: the test allows 20 s on
 * a loaded machine (it takes about 150 ms; without the polling the test
 * outlives meson's timeout). Then the context is guilty of it
 * (GET_RESET_STATS), the error state names the hang and the command
 * (GPGPU_WALKER, 3DPRIMITIVE), and another file's batch completes with
 * its value. While the walker runs, a second thread submits another
 * file's batch to the same engine: execbuf reads RING_HEAD for its ring
 * space (with the engine's request lock held) and must not wait for the
 * running command to end, or hangcheck, which takes that request lock,
 * could not end the walker either (a fuzz_walker and a fuzz_draw input,
 * 20 s libFuzzer timeouts; this test then outlived meson's timeout).
 * A third hang runs no EU thread at all: the same draw with its VS
 * disabled and 3DPRIMITIVE's vertex count 2^30 (the square's four
 * vertices, then zeros read past the vertex buffer's end: degenerate
 * triangles, no pixel). Hangcheck blames it, but only EU threads looked at
 * the abort flag, so the reset waited for the draw's end with the device
 * lock held (an execbuf fuzz input, 23 s libFuzzer timeout, minutes
 * alone); the vertex loop now polls the flag every 256 vertices. A
 * fourth draw has 2^32 - 1 instances of no vertex (another execbuf fuzz
 * input): each empty instance polls it too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drv/draw_setup.h"
#include "drv/seed_shaders.h"
#include "drv/walker_setup.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"
#include "integration/reliability/served.h"

#define HANGCHECK_MS 100
#define LIMIT_NS (20ll * 1000000000)

static struct gtsim_device *dev;
static char error_path[] = "/tmp/gtsim-reset-running-err-XXXXXX";

/* The loop, then the end of thread the kernel loader needs to find
 * (a compute thread's to the thread spawner, a pixel thread's render
 * target write): never reached. */
static const char loop_cs[] =
	"jmpi(1)         -16D                            { align1 WE_all 1N };\n"
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n";
static const char loop_fs[] =
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x08031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q };\n"
	"jmpi(1)         -32D                            { align1 WE_all 1N };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static char *read_error_state(void)
{
	FILE *f = fopen(error_path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The batch of file f is guilty of one hang in its default context. */
static void check_guilty(struct gtsim_file *f)
{
	struct drm_i915_reset_stats rs = { .ctx_id = 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	CHECK_EQ(rs.batch_active, 1);
}

/* Another file's store completes: the device serves others. */
static void check_others_served(void)
{
	struct gtsim_file *c = gtsim_open(dev);
	CHECK(c != NULL);
	check_store_served(c);
	gtsim_close(c);
}

/* Submit b (and wait): it must end, within LIMIT_NS. */
static void submit_ends(struct gtdrv_batch *b, const char *what)
{
	int64_t t0 = now_ns();
	int r = gtdrv_batch_submit(b);   /* submits and waits */
	int64_t ns = now_ns() - t0;
	printf("%s: submit %d, ended after %.1f ms\n", what, r, ns / 1e6);
	CHECK_EQ(r, 0);
	CHECK(ns < LIMIT_NS);
	gtdrv_batch_fini(b);
}

static void check_error_state(const char *command)
{
	const char *text = read_error_state();
	CHECK(text != NULL);
	if (!text)
		return;
	CHECK(strstr(text, "GPU HANG") != NULL && strstr(text, "no progress") != NULL);
	CHECK(strstr(text, command) != NULL);
	if (!strstr(text, command))
		printf("error state:\n%s\n", text);
}

static int walker_submitted;   /* atomic */

/* Another file's batch on the engine the walker holds, submitted while
 * it runs; it completes after the reset. */
static void *submit_beside(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&walker_submitted, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(20000);
	check_others_served();
	return NULL;
}

static void walker_hang(void)
{
	struct gtsim_file *f = gtsim_open(dev);
	struct gtdrv drv;
	gtdrv_init(&drv, f, devinfo_lookup("bdw"));
	struct gtdrv_walker_setup ws;
	const struct gtdrv_walker_kernel k = { .text = loop_cs, .threads_per_group = 56 };
	CHECK_EQ(gtdrv_walker_setup_init(&ws, &drv, &k, 1, NULL, 0), 0);
	struct gtdrv_batch b;
	CHECK_EQ(gtdrv_batch_init(&b, &drv), 0);
	CHECK_EQ(gtdrv_walker_emit_state(&b, &ws), 0);
	CHECK_EQ(gtdrv_walker_emit_dispatch(&b, &ws, &(const struct gtdrv_walker){
			.groups = { 2, 1, 1 }, .simd_size = 0, .threads = 56 }), 0);
	pthread_t beside;
	CHECK_EQ(pthread_create(&beside, NULL, submit_beside, NULL), 0);
	__atomic_store_n(&walker_submitted, 1, __ATOMIC_RELEASE);
	submit_ends(&b, "walker of 112 looping threads");
	pthread_join(beside, NULL);
	check_guilty(f);
	check_error_state("GPGPU_WALKER");
	gtdrv_walker_setup_fini(&ws);
	gtsim_close(f);
	check_others_served();
}

/* The draw's VS disabled and its counts set: no EU thread runs. */
static void without_threads(int gen, uint32_t *dw, uint32_t used, uint32_t vertices,
			    uint32_t instances)
{
	for (uint32_t i = 0; i < used;) {
		const struct cmd_desc *d = cmd_find(gen, ENGINE_RCS, dw[i]);
		uint32_t len = d ? cmd_length(d, dw[i]) : 0;
		if (!len || len > used - i)
			return;
		if (d->id == CMD_ID_3DSTATE_VS) {
			struct cmd_3DSTATE_VS v;
			cmd_3DSTATE_VS_unpack(gen, dw + i, len, &v);
			v.enable = false;
			CHECK_EQ(cmd_3DSTATE_VS_pack(gen, dw + i, len, &v), 0);
		} else if (d->id == CMD_ID_3DPRIMITIVE) {
			struct cmd_3DPRIMITIVE v;
			cmd_3DPRIMITIVE_unpack(gen, dw + i, len, &v);
			v.vertex_count_per_instance = vertices;
			v.instance_count = instances;
			CHECK_EQ(cmd_3DPRIMITIVE_pack(gen, dw + i, len, &v), 0);
		}
		i += len;
	}
}

/* The draw with fs as its pixel shader, or (fs NULL) without EU threads
 * and with these counts. */
static void draw_hang(const char *fs, uint32_t vertices, uint32_t instances, const char *what)
{
	struct gtsim_file *f = gtsim_open(dev);
	struct gtdrv drv;
	gtdrv_init(&drv, f, devinfo_lookup("bdw"));
	struct gtdrv_draw_setup ds;
	CHECK_EQ(gtdrv_draw_setup_init(&ds, &drv, 64, 64), 0);
	CHECK_EQ(gtdrv_draw_setup_shaders(&ds, gtdrv_green_vs, fs ? fs : gtdrv_color_fs), 0);
	struct gtdrv_batch b;
	CHECK_EQ(gtdrv_batch_init(&b, &drv), 0);
	CHECK_EQ(gtdrv_draw_emit(&b, &ds, &(const struct gtdrv_draw_options){ 0 }), 0);
	if (!fs)
		without_threads(drv.gen, b.dw, b.used, vertices, instances);
	submit_ends(&b, what);
	check_guilty(f);
	check_error_state("3DPRIMITIVE");
	gtdrv_draw_setup_fini(&ds);
	gtsim_close(f);
	check_others_served();
}

int main(void)
{
	int fd = mkstemp(error_path);
	if (fd < 0)
		test_skip("cannot create a temporary file");
	close(fd);
	setenv("GTSIM_ERROR_STATE", error_path, 1);
	setvbuf(stdout, NULL, _IONBF, 0);
	dev = eb_device(0, HANGCHECK_MS, 0);
	walker_hang();
	unlink(error_path);
	draw_hang(loop_fs, 0, 0, "draw with a pixel shader that never ends");
	unlink(error_path);
	draw_hang(NULL, 1u << 30, 1, "draw of 2^30 vertices without a VS");
	unlink(error_path);
	draw_hang(NULL, 0, 0xffffffffu, "draw of 2^32 - 1 instances of no vertex");
	gtsim_device_destroy(dev);
	unlink(error_path);
	return test_exit();
}
