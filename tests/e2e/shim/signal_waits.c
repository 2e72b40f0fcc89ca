/* A client's signal interrupts a wait for the GPU, as on i915 (issue 16).
 *
 * On Linux 6.1 each of these waits is interruptible, and what the client
 * then sees depends on the system call's restart rule:
 *  - GEM_WAIT (i915_gem_object_wait with I915_WAIT_INTERRUPTIBLE),
 *    GEM_SET_DOMAIN, GEM_PREAD and GEM_PWRITE (the same), SET_DOMAIN of a
 *    userptr object (i915_gem_set_domain_ioctl's userptr branch: the
 *    same wait after i915_gem_object_userptr_validate), SYNCOBJ_WAIT
 *    (drm_syncobj_array_wait_timeout) and SYNCOBJ_TRANSFER with
 *    WAIT_FOR_SUBMIT (drm_syncobj_find_fence) return -ERESTARTSYS: the handler
 *    runs, then the ioctl fails with EINTR when the handler lacks
 *    SA_RESTART, or is restarted when it has it (GEM_WAIT's timeout_ns
 *    was written back shortened by drm_ioctl's copy-out, SYNCOBJ_WAIT's
 *    deadline is absolute);
 *  - poll() of a sync_file never restarts after a handler (signal(7)):
 *    EINTR whatever SA_RESTART;
 *  - EXECBUFFER2 blocks only where it must: waiting for a busy object it
 *    evicts (softpin onto its range: i915_vma_unbind -> i915_vma_sync,
 *    interruptible) or relocates into (reloc_kmap ->
 *    i915_gem_object_prepare_write, interruptible), both -ERESTARTSYS;
 *    and for ring space (eb_pin_timeline: -EINTR, never restarted). Its
 *    in-fences (I915_EXEC_FENCE_IN's sync_file, a FENCE_ARRAY's syncobj)
 *    are awaited by the request, not by the ioctl: such execbufs return
 *    at once until the requests held back by the fence fill the ring, and
 *    then the throttle is what the signal interrupts.
 *
 * Each case holds the GPU in a batch that waits (MI_SEMAPHORE_WAIT) for a
 * dword a helper thread writes through a CPU mapping. The helper waits
 * until the main thread sleeps inside the call, sends SIGUSR1, and once
 * the handler has run writes the dword ("released"; for TRANSFER, which
 * waits for a fence to be submitted, it signals the source syncobj
 * instead). The handler records
 * whether it ran before the release, i.e. inside the wait (a handler
 * deferred to the end of the call, as before, sees it released) and calls
 * the device itself (GEM_CREATE: no lock may be held in the window).
 * Expected: EINTR cases return -1/EINTR before the release; restart cases
 * return 0 after it (the batch's store is then in memory), the handler
 * having run once inside the wait. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <drm.h>
#include <i915_drm.h>

#include "shim_gem.h"
#include "test.h"


#define SEMA_ADDR 0x100000u
#define TARGET_ADDR 0x200000u
#define BATCH_ADDR 0x300000u

#define END_ADDR 0x400000u
#define USERPTR_ADDR 0x500000u

static int fd;
static uint32_t sema, target, batch, end_batch, userptr;
static volatile uint32_t *sema_map, *target_map;
static volatile int waiting, released, handler_runs, handler_before_release, handler_create;
static volatile int progress;   /* calls of the execbuf loops that returned */
static pid_t main_tid;
static uint32_t transfer_src;   /* TRANSFER's source, signalled on release */

static uint32_t create(uint64_t size) { return shim_gem_create(fd, size); }
static void *cpu_map(uint32_t h) { return shim_gem_cpu_map(fd, h); }

static void on_usr1(int sig)
{
	(void)sig;
	int saved = errno;
	handler_runs++;
	handler_before_release = !released;
	uint32_t h = create(4096);
	handler_create = h != 0;
	if (h) {
		struct drm_gem_close cl = { .handle = h };
		ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	errno = saved;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The main thread's scheduler state (S: sleeping, in the wait). */
static char thread_state(pid_t tid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	int f = open(path, O_RDONLY);
	if (f < 0)
		return '?';
	ssize_t n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	return p && p[1] ? p[2] : '?';
}

static void *helper(void *arg)
{
	pthread_t main_thread = *(pthread_t *)arg;
	while (!waiting)
		sleep_ms(1);
	/* inside the call and asleep there, three times 10 ms apart, with
	 * no call returned meanwhile (`progress`: the execbuf loops' count):
	 * under --shared every call sleeps awaiting its reply, and on a slow
	 * (sanitized) build one execbuf of the loop that has not blocked yet
	 * can be seen asleep twice; a signal there interrupts nothing */
	for (int seen = 0, at = progress; seen < 3; sleep_ms(10)) {
		bool still = thread_state(main_tid) == 'S' && progress == at;
		seen = still ? seen + 1 : 0;
		at = progress;
	}
	pthread_kill(main_thread, SIGUSR1);
	for (int i = 0; i < 5000 && !handler_runs; i++)
		sleep_ms(1);
	sleep_ms(20);
	released = 1;
	__atomic_store_n(sema_map, 1, __ATOMIC_SEQ_CST);
	if (transfer_src) {
		struct drm_syncobj_array a = { .handles = (uintptr_t)&transfer_src,
					       .count_handles = 1 };
		ioctl(fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &a);
	}
	return NULL;
}

static void set_handler(bool restart)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
}

/* Submits the semaphore-held batch (its store of value into target);
 * out_fence: the sync_file's fd; syncobj: signalled at its end. */
static void submit(uint32_t value, int *out_fence, uint32_t syncobj)
{
	sema_map[0] = 0;
	target_map[0] = 0;
	target_map[16] = target_map[17] = target_map[32] = 0;
	uint32_t *bb = cpu_map(batch);
	CHECK(bb != NULL);
	if (!bb)
		exit(test_exit());
	shim_sema_batch(bb, SEMA_ADDR, TARGET_ADDR, value);
	/* the userptr object is bound for writing: SET_DOMAIN waits for it */
	struct drm_i915_gem_exec_object2 obj[4] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = target, .offset = TARGET_ADDR,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = userptr, .offset = USERPTR_ADDR,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = batch, .offset = BATCH_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_exec_fence ef = { .handle = syncobj, .flags = I915_EXEC_FENCE_SIGNAL };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)obj, .buffer_count = 4 };
	if (out_fence)
		eb.flags |= I915_EXEC_FENCE_OUT;
	if (syncobj) {
		eb.flags |= I915_EXEC_FENCE_ARRAY;
		eb.cliprects_ptr = (uintptr_t)&ef;
		eb.num_cliprects = 1;
	}
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	if (out_fence)
		*out_fence = (int)(eb.rsvd2 >> 32);
}

enum wait_kind { GEM_WAIT, SET_DOMAIN, PREAD, PWRITE, SET_DOMAIN_USERPTR, SYNCOBJ_WAIT,
		 SYNC_FILE_POLL, TRANSFER, EB_EVICT, EB_RELOC, EB_FENCE_IN, EB_FENCE_ARRAY };
static const char *const kind_name[] = { "GEM_WAIT", "SET_DOMAIN", "PREAD", "PWRITE",
					  "SET_DOMAIN of a userptr object", "SYNCOBJ_WAIT",
					  "sync_file poll", "SYNCOBJ_TRANSFER",
					  "EXECBUFFER2 evicting a busy object",
					  "EXECBUFFER2 relocating into a busy object",
					  "EXECBUFFER2 FENCE_IN (ring full)",
					  "EXECBUFFER2 FENCE_ARRAY (ring full)" };

/* EB_EVICT: a new object softpinned where the held batch's target is
 * bound; its batch is end_batch. */
static int execbuf_evict(uint32_t *victim)
{
	*victim = create(4096);
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = *victim, .offset = TARGET_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = end_batch, .offset = END_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)obj, .buffer_count = 2 };
	return ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

/* EB_RELOC: a relocation written into target's dword 16 (end_batch's
 * address, presumed 0 so that it must be written); *written: the address
 * reported. */
static int execbuf_reloc(uint64_t *written)
{
	struct drm_i915_gem_relocation_entry r = { .target_handle = end_batch, .offset = 64,
						   .presumed_offset = 0 };
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target, .relocation_count = 1, .relocs_ptr = (uintptr_t)&r },
		{ .handle = end_batch, .offset = END_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)obj, .buffer_count = 2 };
	int ret = ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	*written = obj[1].offset;
	return ret;
}

/* EB_FENCE_IN / EB_FENCE_ARRAY: batches on the blitter, each awaiting the
 * held batch's sync_file or syncobj, until one call does not return 0 (or
 * 4096 did: the ring holds fewer). *submitted: how many returned 0. */
static int execbuf_fenced_until_blocked(int in_fence, uint32_t syncobj, int *submitted)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = end_batch, .offset = END_ADDR,
						 .flags = EXEC_OBJECT_PINNED };
	struct drm_i915_gem_exec_fence ef = { .handle = syncobj, .flags = I915_EXEC_FENCE_WAIT };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj, .buffer_count = 1,
					       .flags = I915_EXEC_BLT };
	if (in_fence >= 0) {
		eb.flags |= I915_EXEC_FENCE_IN;
		eb.rsvd2 = (uint32_t)in_fence;
	} else {
		eb.flags |= I915_EXEC_FENCE_ARRAY;
		eb.cliprects_ptr = (uintptr_t)&ef;
		eb.num_cliprects = 1;
	}
	int ret = 0;
	for (*submitted = 0; *submitted < 4096; ++*submitted) {
		if ((ret = ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb)) != 0)
			break;
		progress++;
	}
	return ret;
}

static void run_case(enum wait_kind kind, bool restart)
{
	uint32_t value = 0x5100u + kind * 2 + restart;
	int sync_fd = -1;
	struct drm_syncobj_create sc = { 0 };
	struct drm_syncobj_create src = { 0 };
	if (kind == SYNCOBJ_WAIT || kind == TRANSFER || kind == EB_FENCE_ARRAY)
		CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc), 0);
	if (kind == TRANSFER)   /* nothing submitted to it until the release */
		CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &src), 0);
	transfer_src = src.handle;
	set_handler(restart);
	waiting = released = handler_runs = handler_before_release = handler_create = 0;
	progress = 0;
	submit(value, kind == SYNC_FILE_POLL || kind == EB_FENCE_IN ? &sync_fd : NULL,
	       kind == SYNCOBJ_WAIT || kind == EB_FENCE_ARRAY ? sc.handle : 0);
	uint32_t victim = 0;
	uint64_t reloc_addr = 0;
	int submitted = 0;

	pthread_t self = pthread_self(), t;
	CHECK_EQ(pthread_create(&t, NULL, helper, &self), 0);
	struct drm_i915_gem_wait gw = { .bo_handle = target, .timeout_ns = 10ll * 1000000000 };
	struct drm_i915_gem_set_domain sd = { .handle = target,
		.read_domains = I915_GEM_DOMAIN_CPU, .write_domain = I915_GEM_DOMAIN_CPU };
	struct drm_syncobj_wait sw = { .handles = (uintptr_t)&sc.handle, .count_handles = 1,
				       .timeout_nsec = INT64_MAX };
	uint32_t read_back = 0;
	struct drm_i915_gem_pread pr = { .handle = target, .size = 4,
					 .data_ptr = (uintptr_t)&read_back };
	/* PWRITE: target's dword 32, which the batch does not touch */
	const uint32_t written = ~value;
	struct drm_i915_gem_pwrite pw = { .handle = target, .offset = 128, .size = 4,
					  .data_ptr = (uintptr_t)&written };
	struct drm_i915_gem_set_domain sdu = { .handle = userptr,
		.read_domains = I915_GEM_DOMAIN_CPU, .write_domain = I915_GEM_DOMAIN_CPU };
	struct pollfd pfd = { .fd = sync_fd, .events = POLLIN };
	struct drm_syncobj_transfer tr = { .src_handle = src.handle, .dst_handle = sc.handle,
					   .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
	waiting = 1;
	int ret = -2;
	switch (kind) {
	case GEM_WAIT: ret = ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &gw); break;
	case SET_DOMAIN: ret = ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd); break;
	case PREAD: ret = ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr); break;
	case PWRITE: ret = ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw); break;
	case SET_DOMAIN_USERPTR: ret = ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sdu); break;
	case SYNCOBJ_WAIT: ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &sw); break;
	case SYNC_FILE_POLL: ret = poll(&pfd, 1, -1); break;
	case TRANSFER: ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &tr); break;
	case EB_EVICT: ret = execbuf_evict(&victim); break;
	case EB_RELOC: ret = execbuf_reloc(&reloc_addr); break;
	case EB_FENCE_IN: ret = execbuf_fenced_until_blocked(sync_fd, 0, &submitted); break;
	case EB_FENCE_ARRAY: ret = execbuf_fenced_until_blocked(-1, sc.handle, &submitted); break;
	}
	int err = ret < 0 ? errno : 0;
	int released_at_return = released;
	waiting = 0;
	pthread_join(t, NULL);

	bool throttle = kind == EB_FENCE_IN || kind == EB_FENCE_ARRAY;
	bool eintr = !restart || kind == SYNC_FILE_POLL || throttle;
	fprintf(stderr, "%s, handler %s SA_RESTART: ret %d errno %d, handler ran %d (inside the wait: %d)"
		" submitted %d\n", kind_name[kind], restart ? "with" : "without", ret, err,
		handler_runs, handler_before_release, submitted);
	if (throttle)   /* the in-fence itself never blocked the call */
		CHECK(submitted >= 100);
	CHECK_EQ(handler_runs, 1);
	CHECK_EQ(handler_before_release, 1);
	CHECK_EQ(handler_create, 1);
	if (eintr) {
		CHECK_EQ(ret, -1);
		CHECK_EQ(err, EINTR);
		CHECK_EQ(released_at_return, 0);
	} else {
		CHECK_EQ(ret, kind == SYNC_FILE_POLL ? 1 : 0);
		CHECK_EQ(released_at_return, 1);
		if (kind != TRANSFER)   /* the batch ended before the return */
			CHECK_EQ(target_map[0], value);
		if (kind == PREAD)   /* read after the GPU's write */
			CHECK_EQ(read_back, value);
		if (kind == PWRITE)   /* written after the GPU's use */
			CHECK_EQ(target_map[32], written);
		if (kind == GEM_WAIT)   /* the restart waited for what was left */
			CHECK(gw.timeout_ns > 0 && gw.timeout_ns < 10ll * 1000000000);
		if (kind == EB_RELOC) {   /* written after the GPU's store */
			CHECK_EQ(reloc_addr, END_ADDR);
			CHECK_EQ(target_map[16], END_ADDR);
			CHECK_EQ(target_map[17], 0);
		}
	}
	if (kind == EB_RELOC && eintr)   /* nothing written by the interrupted call */
		CHECK_EQ(target_map[16], 0);
	if (kind == PWRITE && eintr)
		CHECK_EQ(target_map[32], 0);
	if (victim) {
		struct drm_i915_gem_wait vw = { .bo_handle = victim, .timeout_ns = -1 };
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &vw), 0);
		struct drm_gem_close cl = { .handle = victim };
		CHECK_EQ(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl), 0);
	}
	if (throttle) {   /* every blitter batch ran after the release */
		struct drm_i915_gem_wait ew = { .bo_handle = end_batch, .timeout_ns = 10ll * 1000000000 };
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &ew), 0);
	}
	/* the batch completes; nothing was lost */
	struct drm_i915_gem_wait done = { .bo_handle = target, .timeout_ns = -1 };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &done), 0);
	CHECK_EQ(target_map[0], value);
	if (sync_fd >= 0)
		close(sync_fd);
	for (uint32_t *h = (uint32_t[]){ sc.handle, src.handle, 0 }; *h; h++) {
		struct drm_syncobj_destroy d = { .handle = *h };
		ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
	}
	transfer_src = 0;
}

int main(void)
{
	main_tid = (pid_t)syscall(SYS_gettid);
	fd = open("/dev/dri/renderD128", O_RDWR);
	CHECK(fd >= 0);
	if (fd < 0)
		return test_exit();
	sema = create(4096);
	target = create(4096);
	batch = create(4096);
	end_batch = create(4096);
	static uint32_t userptr_mem[1024] __attribute__((aligned(4096)));
	struct drm_i915_gem_userptr up = { .user_ptr = (uintptr_t)userptr_mem,
					   .user_size = sizeof(userptr_mem) };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_USERPTR, &up), 0);
	userptr = up.handle;
	uint32_t *end_map = cpu_map(end_batch);
	CHECK(end_map != NULL);
	if (end_map)
		end_map[0] = MI_BATCH_BUFFER_END;
	sema_map = cpu_map(sema);
	target_map = cpu_map(target);
	CHECK(sema_map && target_map && batch);
	if (!sema_map || !target_map)
		return test_exit();
	for (int kind = GEM_WAIT; kind <= EB_FENCE_ARRAY; kind++)
		for (int restart = 0; restart < 2; restart++)
			run_case(kind, restart);
	close(fd);
	return test_exit();
}
