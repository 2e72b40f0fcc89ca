/* A hang storm (issue 16): one client (file A) submits 2000 batches that
 * never end, of five kinds:
 *   - an unknown command (a GPU fault at once),
 *   - a batch that jumps to its own start forever (MI_BATCH_BUFFER_START),
 *   - MI_SEMAPHORE_WAIT polling a dword that never matches,
 *   - MI_STORE_DWORD_IMM to an address nothing is bound at,
 *   - a compute kernel looping forever (jmpi -16: to itself, PRM vol. 7
 *     "jmpi": the offset counts from the next instruction);
 * each waited for, a new context made whenever one is banned. By Linux
 * 6.1's rules (gt/intel_reset.c, i915_gem_context.c; the same rules as
 * tests/integration/kernel/test_ban_policy.c) a context is banned at its
 * third hang and the file once its score reaches 9 (3 per banned
 * context, 1 per hang within 60 s of its previous): from then on its
 * execbufs and context creations fail with -EIO at once, so of the 2000
 * only a handful run. Meanwhile another client (file B, a thread of its
 * own) submits MI_STORE_DWORD_IMM batches without pause; every one must
 * complete with its value, none later than 2 s (a hang costs about two
 * hangcheck periods of 50 ms and a reset), and B's context is never
 * guilty. Memory (RSS), the error-state file and the trace file (category
 * hang) stay bounded.
 * Then a client that closes its file while another thread waits on one of
 * its objects (shared by flink) behind a batch that never ends: the wait
 * ends with the hangcheck, the device serves others, nothing is left
 * (LeakSanitizer in the sanitizer build). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/trace.h"
#include "drv/walker_setup.h"
#include "integration/reliability/served.h"

#define HANGCHECK_MS 50
#define STORM 2000
#define PIN_BATCH 0x200000ull
#define PIN_SEMA 0x400000ull
#define UNBOUND_ADDR 0x7f000000ull

static struct gtsim_device *dev;
static char error_path[] = "/tmp/gtsim-hang-storm-err-XXXXXX";
static char trace_path[] = "/tmp/gtsim-hang-storm-trace-XXXXXX";

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, rss = 0;
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : (long)st.st_size;
}

/* --- the victim: file B --- */
static volatile int storm_running = 1;
static unsigned victim_done, victim_bad;
static int64_t victim_worst_ns;
static uint32_t victim_ctx;

static void *victim_main(void *arg)
{
	struct gtsim_file *b = arg;
	victim_ctx = eb_context_create(b);
	uint32_t bb = eb_create(b, 4096), target = eb_create(b, 4096);
	for (uint32_t i = 1; storm_running || i <= 10; i++) {
		uint32_t dw[6];
		unsigned n = emit_store(dw, 0x100040, 0xbeef0000u + i);
		dw[n++] = MI_BATCH_BUFFER_END;
		dw[n++] = MI_NOOP;
		eb_write(b, bb, 0, dw, sizeof(dw));
		struct drm_i915_gem_exec_object2 o[2] = {
			{ .handle = target, .offset = 0x100000,
			  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
			{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED } };
		int64_t t0 = now_ns();
		int r = eb_exec(b, o, 2, 0, victim_ctx);
		int w = r ? r : eb_wait(b, bb, 10ll * 1000000000);
		int64_t dt = now_ns() - t0;
		if (dt > victim_worst_ns)
			victim_worst_ns = dt;
		if (r || w || eb_read32(b, target, 0x40) != 0xbeef0000u + i)
			victim_bad++;
		victim_done++;
	}
	eb_close(b, bb);
	eb_close(b, target);
	return NULL;
}

/* --- the attacker: file A --- */
struct attacker {
	struct gtsim_file *f;
	uint32_t bb[4], sema;
	struct gtdrv drv;
	struct gtdrv_walker_setup ws;
};

static const char loop_kernel[] =
	"jmpi(1)         -16D                            { align1 WE_all 1N };\n";

static void attacker_init(struct attacker *a)
{
	a->f = gtsim_open(dev);
	CHECK(a->f != NULL);
	for (int i = 0; i < 4; i++)
		a->bb[i] = eb_create(a->f, 4096);
	a->sema = eb_create(a->f, 4096);
	const uint32_t junk[2] = { 0xffffffff, MI_BATCH_BUFFER_END };
	const uint32_t loop[4] = { MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT,
				   (uint32_t)PIN_BATCH, (uint32_t)(PIN_BATCH >> 32), MI_NOOP };
	/* wait until the dword at PIN_SEMA equals 1: it stays 0 */
	const uint32_t sema[6] = { MI_SEMAPHORE_WAIT_GEN8 | MI_SEMAPHORE_POLL | MI_SEMAPHORE_SAD_EQ_SDD,
				   1, (uint32_t)PIN_SEMA, (uint32_t)(PIN_SEMA >> 32),
				   MI_BATCH_BUFFER_END, MI_NOOP };
	uint32_t bad[6];
	unsigned n = emit_store(bad, UNBOUND_ADDR, 1);
	bad[n++] = MI_BATCH_BUFFER_END;
	bad[n++] = MI_NOOP;
	CHECK_EQ(eb_write(a->f, a->bb[0], 0, junk, sizeof(junk)), 0);
	CHECK_EQ(eb_write(a->f, a->bb[1], 0, loop, sizeof(loop)), 0);
	CHECK_EQ(eb_write(a->f, a->bb[2], 0, sema, sizeof(sema)), 0);
	CHECK_EQ(eb_write(a->f, a->bb[3], 0, bad, sizeof(bad)), 0);
	gtdrv_init(&a->drv, a->f, devinfo_lookup("bdw"));
	const struct gtdrv_walker_kernel k = { .text = loop_kernel, .threads_per_group = 1 };
	CHECK_EQ(gtdrv_walker_setup_init(&a->ws, &a->drv, &k, 1, NULL, 0), 0);
}

/* One hanging batch of kind k in ctx: execbuf's result (waited for). */
static int attack(struct attacker *a, unsigned k, uint32_t ctx)
{
	if (k == 4) {
		struct gtdrv_batch b;
		a->drv.ctx_id = ctx;
		CHECK_EQ(gtdrv_batch_init(&b, &a->drv), 0);
		int r = gtdrv_walker_emit_state(&b, &a->ws);
		r = r ? r : gtdrv_walker_emit_dispatch(&b, &a->ws, &(const struct gtdrv_walker){
			.groups = { 1, 1, 1 }, .simd_size = 0, .threads = 1 });
		r = r ? r : gtdrv_batch_submit(&b);
		gtdrv_batch_fini(&b);
		return r;
	}
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = a->sema, .offset = PIN_SEMA, .flags = EXEC_OBJECT_PINNED },
		{ .handle = a->bb[k], .offset = PIN_BATCH, .flags = EXEC_OBJECT_PINNED } };
	int r = eb_exec(a->f, o, 2, 0, ctx);
	if (!r)
		CHECK_EQ(eb_wait(a->f, a->bb[k], 10ll * 1000000000), 0);
	return r;
}

static void storm(void)
{
	struct attacker a;
	attacker_init(&a);
	struct gtsim_file *b = gtsim_open(dev);
	pthread_t victim;
	long rss0 = rss_kb();
	CHECK_EQ(pthread_create(&victim, NULL, victim_main, b), 0);

	uint32_t ctx = eb_context_create(a.f), ctxs[16] = { ctx };
	unsigned ran = 0, refused = 0, contexts = 1;
	bool file_banned = false;
	for (unsigned i = 0; i < STORM; i++) {
		/* the kinds in turn, counted by those that ran: each kind hangs */
		int r = attack(&a, ran % 5, ctx);
		if (!r) {
			ran++;
			continue;
		}
		CHECK_EQ(r, -EIO);
		refused++;
		if (!file_banned) {
			uint32_t c = eb_context_create(a.f);
			if (c == 0xffffffff) {
				file_banned = true;   /* CONTEXT_CREATE: -EIO */
			} else {
				ctx = c;
				if (contexts < 16)
					ctxs[contexts] = c;
				contexts++;
			}
		}
	}
	storm_running = 0;
	pthread_join(victim, NULL);
	long rss1 = rss_kb();
	fflush(trace_stream());

	printf("attacker: %u batches, %u ran (hung), %u refused with -EIO, %u contexts, "
	       "file %s\n", STORM, ran, refused, contexts, file_banned ? "banned" : "not banned");
	printf("victim: %u batches, %u wrong, worst %.1f ms\n", victim_done, victim_bad,
	       victim_worst_ns / 1e6);
	printf("RSS %ld -> %ld KB, error state %ld bytes, trace %ld bytes\n", rss0, rss1,
	       file_size(error_path), file_size(trace_path));
	CHECK(file_banned);
	/* every batch that ran hung: its context was found guilty of it */
	unsigned guilty = 0;
	for (unsigned i = 0; i < contexts && i < 16; i++) {
		struct drm_i915_reset_stats rs = { .ctx_id = ctxs[i] };
		CHECK_EQ(gtsim_ioctl(a.f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
		guilty += rs.batch_active;
	}
	CHECK_EQ(guilty, ran);
	CHECK(ran >= 5);   /* each of the five kinds hung at least once */
	/* banned contexts after 3 hangs each, the file at score 9 */
	CHECK(ran <= 12);
	CHECK(refused >= STORM - 12);
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(gtsim_ioctl(a.f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), -EIO);
	CHECK(victim_done >= 10);
	CHECK_EQ(victim_bad, 0);
	CHECK(victim_worst_ns < 2000000000ll);
	struct drm_i915_reset_stats rs = { .ctx_id = victim_ctx };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	CHECK_EQ(rs.batch_active, 0);
	CHECK(rss1 - rss0 < 64 * 1024);
	CHECK(file_size(error_path) < 4 << 20);
	CHECK(file_size(trace_path) > 0);     /* the hangs were traced */
	CHECK(file_size(trace_path) < 1 << 20);

	gtdrv_walker_setup_fini(&a.ws);
	gtsim_close(a.f);
	gtsim_close(b);
}

/* --- closing a file while another waits on its object --- */
struct waiter {
	struct gtsim_file *f;
	uint32_t handle;
	int result;
	int64_t ns;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	int64_t t0 = now_ns();
	w->result = eb_wait(w->f, w->handle, 10ll * 1000000000);
	w->ns = now_ns() - t0;
	return NULL;
}

static void close_while_waited(void)
{
	struct gtsim_file *a = gtsim_open(dev), *c = gtsim_open(dev);
	uint32_t sema = eb_create(a, 4096), bb = eb_create(a, 4096);
	const uint32_t wait[6] = { MI_SEMAPHORE_WAIT_GEN8 | MI_SEMAPHORE_POLL | MI_SEMAPHORE_SAD_EQ_SDD,
				   1, (uint32_t)PIN_SEMA, (uint32_t)(PIN_SEMA >> 32),
				   MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(a, bb, 0, wait, sizeof(wait)), 0);
	struct drm_gem_flink fl = { .handle = bb };
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_GEM_FLINK, &fl), 0);
	struct drm_gem_open op = { .name = fl.name };
	CHECK_EQ(gtsim_ioctl(c, DRM_IOCTL_GEM_OPEN, &op), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = sema, .offset = PIN_SEMA, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb, .offset = PIN_BATCH, .flags = EXEC_OBJECT_PINNED } };
	CHECK_EQ(eb_exec(a, o, 2, 0, 0), 0);
	struct waiter w = { .f = c, .handle = op.handle };
	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, waiter_main, &w), 0);
	gtsim_close(a);          /* while the batch runs and c waits */
	pthread_join(t, NULL);
	printf("close while waited: wait %d after %.1f ms\n", w.result, w.ns / 1e6);
	CHECK_EQ(w.result, 0);   /* the hangcheck ended the batch */
	CHECK(w.ns < 2000000000ll);
	eb_close(c, op.handle);
	check_store_served(c);   /* the device serves others */
	gtsim_close(c);
}

int main(void)
{
	int fd = mkstemp(error_path);
	int fd2 = mkstemp(trace_path);
	if (fd < 0 || fd2 < 0)
		test_skip("cannot create temporary files");
	close(fd);
	close(fd2);
	setenv("GTSIM_ERROR_STATE", error_path, 1);
	setenv("GTSIM_TRACE", "hang", 1);
	setenv("GTSIM_TRACE_FILE", trace_path, 1);
	trace_init_from_env();
	setvbuf(stdout, NULL, _IONBF, 0);
	dev = eb_device(0, HANGCHECK_MS, 0);
	storm();
	close_while_waited();
	gtsim_device_destroy(dev);
	unlink(error_path);
	unlink(trace_path);
	return test_exit();
}
