/* Many clients, one device (docs/shared-device.md), run under `gtsim run
 * --shared`: a program that knows nothing of gtsim forks and threads as
 * IGT and compositors do, and every process reaches the one device.
 *
 *  1. mmap: a fork child maps an object the parent created (MMAP_OFFSET
 *     WB, legacy GEM_MMAP, GTT of an untiled object) and sees what the
 *     parent wrote after the fork; the parent sees the child's writes.
 *  2. syncobj by fd: the parent exports a syncobj and an object (dma-buf);
 *     a child with a DRM file of its own imports both and submits a batch
 *     storing into the object that signals the syncobj (execbuf fence
 *     array); the parent's wait returns and the store is in its object. A timeline point the child signals is the
 *     parent's too.
 *  3. contexts: a child's own file has its own context ids (the parent's
 *     id is -ENOENT there); on the inherited descriptor (the same file, as
 *     in i915) the child's SETPARAM is what the parent's GETPARAM reads.
 *  4. threads: a thread blocked in SYNCOBJ_WAIT on the descriptor does not
 *     hold back another thread's SIGNAL on it.
 *  5. death: a child killed in a blocking wait leaves the server serving
 *     the parent, and its file is closed (its flink name goes).
 *  6. sw_sync: a timeline the parent opened, passed to a child by
 *     SCM_RIGHTS, advanced there: the parent's fence signals (poll,
 *     SYNC_IOC_FILE_INFO status 1); closing a timeline signals its fence
 *     with an error before close returns (sw_sync_debugfs_release).
 *  7. vgem: a write fence the parent attaches on vgem's card1 keeps a fork
 *     child's poll of the buffer's dma-buf from POLLIN until the parent
 *     signals it (dma_buf_poll; the server's device answers the child).
 *  8. close, then open: the new file of card0 is master at once (drm_release
 *     ran before close returned; IGT's drm_open_driver probes card0 and
 *     closes it just before drm_open_driver_master), 100 times over while
 *     four other clients keep the server busy.
 * Oracles: the values written; i915's rules that a fork child shares the
 * parent's DRM file (drm_file is per open file description), that
 * context ids are per file (-ENOENT in another, i915_gem_context_lookup),
 * that a syncobj fd names one syncobj (drm_syncobj_fd_to_handle), that a
 * process's exit closes its files (drm_release), and that flink names are
 * per device. Without --shared each child has a private copy of the device
 * and 1-3 and 5 fail. */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shim_gem.h"
#include "shim_proc.h"
#include "test.h"

#define NODE "/dev/dri/renderD128"
#define CARD "/dev/dri/card0"
#define TARGET_VA 0x100000ull
#define BATCH_VA 0x200000ull
#define STORE_VALUE 0x5eedf00du

/* An absolute CLOCK_MONOTONIC deadline s seconds from now (syncobj waits). */
static int64_t deadline(int s)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + s) * 1000000000ll + ts.tv_nsec;
}

static int io(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/* A child process running fn; its exit status (0 pass) after waitpid. */
static pid_t spawn(int (*fn)(void *), void *arg)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(fn(arg) ? 1 : 0);
	return pid;
}

/* One byte over a pipe: "go on". */
static void post(int p) { CHECK_EQ(write(p, "x", 1), 1); }
static bool wait_post(int p) { char c; return read(p, &c, 1) == 1; }

static void *map_offset(int fd, uint32_t h, uint64_t type)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = type };
	if (io(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo))
		return NULL;
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mo.offset);
	return p == MAP_FAILED ? NULL : p;
}

/* 1 ---------------------------------------------------------------- */
struct map_case {
	int fd;
	uint32_t handle;
	int go[2], back[2];
};

static int map_child(void *p)
{
	struct map_case *m = p;
	if (!wait_post(m->go[0]))
		return 1;
	/* The parent wrote after the fork: the same memory, not a copy. */
	volatile uint32_t *wb = map_offset(m->fd, m->handle, I915_MMAP_OFFSET_WB);
	volatile uint32_t *gtt = map_offset(m->fd, m->handle, I915_MMAP_OFFSET_GTT);
	volatile uint32_t *cpu = shim_gem_cpu_map(m->fd, m->handle);
	int bad = !wb || !gtt || !cpu;
	for (unsigned i = 0; !bad && i < 1024; i++)
		bad |= wb[i] != 0xa0000000u + i || gtt[i] != wb[i] || cpu[i] != wb[i];
	if (!bad)
		for (unsigned i = 0; i < 1024; i++)
			cpu[i] = 0xc0000000u + i;   /* the child's answer */
	post(m->back[1]);
	return bad;
}

static void check_fork_mmap(int fd)
{
	struct map_case m = { fd, shim_gem_create(fd, 4096), { -1, -1 }, { -1, -1 } };
	CHECK(m.handle != 0);
	CHECK_EQ(pipe(m.go), 0);
	CHECK_EQ(pipe(m.back), 0);
	volatile uint32_t *wb = map_offset(fd, m.handle, I915_MMAP_OFFSET_WB);
	CHECK(wb != NULL);
	if (!wb || !m.handle)
		return;
	pid_t c = spawn(map_child, &m);
	for (unsigned i = 0; i < 1024; i++)
		wb[i] = 0xa0000000u + i;
	post(m.go[1]);
	CHECK(wait_post(m.back[0]));
	CHECK_EQ(reap(c), 0);
	unsigned seen = 0;
	for (unsigned i = 0; i < 1024; i++)
		seen += wb[i] == 0xc0000000u + i;
	CHECK_EQ(seen, 1024);
	/* and the GPU's view, PREAD through the kernel model */
	uint32_t dw = 0;
	struct drm_i915_gem_pread pr = { .handle = m.handle, .offset = 40, .size = 4,
					 .data_ptr = (uintptr_t)&dw };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	CHECK_EQ(dw, 0xc0000000u + 10);
}

/* 2 ---------------------------------------------------------------- */
/* A batch storing STORE_VALUE at TARGET_VA (softpinned), signalling the
 * syncobj syncobj (execbuf fence array). */
static int submit_store(int fd, uint32_t target, uint32_t syncobj)
{
	uint32_t bb = shim_store_batch(fd, (uint32_t)TARGET_VA, STORE_VALUE);
	if (!bb)
		return -EIO;
	struct drm_i915_gem_exec_fence f = { .handle = syncobj, .flags = I915_EXEC_FENCE_SIGNAL };
	return shim_exec_pinned(fd, target, TARGET_VA, bb, BATCH_VA,
				(struct drm_i915_gem_execbuffer2){
					.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_ARRAY,
					.cliprects_ptr = (uintptr_t)&f, .num_cliprects = 1 });
}

static int sync_child(void *p)
{
	int sock = *(int *)p;
	int fd = open(NODE, O_RDWR | O_CLOEXEC);   /* a file of its own */
	int sfd = recv_fd(sock), dfd = recv_fd(sock);
	struct drm_syncobj_handle imp = { .fd = sfd };
	struct drm_prime_handle pi = { .fd = dfd };
	if (fd < 0 || io(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp) ||
	    io(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &pi))
		return 2;
	if (submit_store(fd, pi.handle, imp.handle))
		return 3;
	/* a timeline syncobj of the child's, signalled to point 3 */
	struct drm_syncobj_create tl = { 0 };
	if (io(fd, DRM_IOCTL_SYNCOBJ_CREATE, &tl))
		return 4;
	uint64_t point = 3;
	struct drm_syncobj_timeline_array sig = { .handles = (uintptr_t)&tl.handle,
						  .points = (uintptr_t)&point, .count_handles = 1 };
	struct drm_syncobj_handle ex = { .handle = tl.handle };
	if (io(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &sig) ||
	    io(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &ex) || send_fd(sock, ex.fd))
		return 5;
	wait_post(sock);   /* the parent has imported it */
	return 0;
}

static void check_syncobj_fd(int fd)
{
	uint32_t target = shim_gem_create(fd, 4096);
	struct drm_prime_handle dmabuf = { .handle = target, .flags = DRM_CLOEXEC };
	struct drm_syncobj_create cr = { 0 };
	CHECK_EQ(io(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &dmabuf), 0);
	CHECK_EQ(io(fd, DRM_IOCTL_SYNCOBJ_CREATE, &cr), 0);
	struct drm_syncobj_handle ex = { .handle = cr.handle };
	CHECK_EQ(io(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &ex), 0);
	int sp[2];
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	pid_t c = spawn(sync_child, &sp[1]);
	CHECK_EQ(send_fd(sp[0], ex.fd), 0);
	CHECK_EQ(send_fd(sp[0], dmabuf.fd), 0);

	/* the child's batch signals it: a wait for submit and signal */
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&cr.handle, .count_handles = 1,
				      .timeout_nsec = deadline(20),
				      .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
	CHECK_EQ(io(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w), 0);
	uint32_t dw = 0;
	struct drm_i915_gem_pread pr = { .handle = target, .size = 4, .data_ptr = (uintptr_t)&dw };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	CHECK_EQ(dw, STORE_VALUE);

	/* the child's timeline syncobj, imported here: point 3 */
	struct drm_syncobj_handle imp = { .fd = recv_fd(sp[0]) };
	CHECK_EQ(io(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp), 0);
	uint64_t point = 0;
	struct drm_syncobj_timeline_array q = { .handles = (uintptr_t)&imp.handle,
						.points = (uintptr_t)&point, .count_handles = 1 };
	CHECK_EQ(io(fd, DRM_IOCTL_SYNCOBJ_QUERY, &q), 0);
	CHECK_EQ(point, 3);
	post(sp[0]);
	CHECK_EQ(reap(c), 0);
	close(sp[0]);
	close(sp[1]);
	close(ex.fd);
	close(dmabuf.fd);
	close(imp.fd);
}

/* 3 ---------------------------------------------------------------- */
struct ctx_case {
	int fd;
	uint32_t ctx;
};

static int ctx_getprio(int fd, uint32_t ctx, int64_t *prio)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx,
						.param = I915_CONTEXT_PARAM_PRIORITY };
	int r = io(fd, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &p);
	*prio = (int64_t)p.value;
	return r;
}

static int ctx_child(void *p)
{
	struct ctx_case *c = p;
	int own = open(NODE, O_RDWR | O_CLOEXEC);
	int64_t prio;
	struct drm_i915_gem_context_destroy d = { .ctx_id = c->ctx };
	if (own < 0 || ctx_getprio(own, c->ctx, &prio) != -ENOENT ||
	    io(own, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d) != -ENOENT)
		return 1;   /* another file's context is not ours */
	/* the inherited descriptor is the parent's file: its context */
	struct drm_i915_gem_context_param sp = { .ctx_id = c->ctx,
						 .param = I915_CONTEXT_PARAM_PRIORITY, .value = -7 };
	if (io(c->fd, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &sp))
		return 2;
	close(own);
	return 0;
}

static void check_contexts(int fd)
{
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), 0);
	struct ctx_case c = { fd, cc.ctx_id };
	CHECK_EQ(reap(spawn(ctx_child, &c)), 0);
	int64_t prio = 0;
	CHECK_EQ(ctx_getprio(fd, cc.ctx_id, &prio), 0);
	CHECK_EQ(prio, -7);
}

/* 4 ---------------------------------------------------------------- */
struct thread_wait {
	int fd;
	uint32_t syncobj;
	int ret;
};

static void *waiter(void *p)
{
	struct thread_wait *t = p;
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&t->syncobj, .count_handles = 1,
				      .timeout_nsec = deadline(20),
				      .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
	t->ret = io(t->fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
	return NULL;
}

static void check_threads(int fd)
{
	struct drm_syncobj_create cr = { 0 };
	CHECK_EQ(io(fd, DRM_IOCTL_SYNCOBJ_CREATE, &cr), 0);
	struct thread_wait t = { fd, cr.handle, 1 };
	pthread_t th;
	CHECK_EQ(pthread_create(&th, NULL, waiter, &t), 0);
	usleep(50 * 1000);   /* the waiter is (most likely) blocked by now */
	struct drm_syncobj_array sig = { .handles = (uintptr_t)&cr.handle, .count_handles = 1 };
	CHECK_EQ(io(fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &sig), 0);
	pthread_join(th, NULL);
	CHECK_EQ(t.ret, 0);
}

/* 5 ---------------------------------------------------------------- */
static int dying_child(void *p)
{
	int *sock = p;
	int fd = open(CARD, O_RDWR | O_CLOEXEC);   /* not master: authenticated by the parent */
	struct drm_auth auth = { 0 };
	if (fd < 0 || io(fd, DRM_IOCTL_GET_MAGIC, &auth) ||
	    write(*sock, &auth.magic, sizeof(auth.magic)) != sizeof(auth.magic) || !wait_post(*sock))
		return 1;
	struct drm_syncobj_create cr = { 0 };
	uint32_t h = shim_gem_create(fd, 4096);
	struct drm_gem_flink fl = { .handle = h };
	if (!h || io(fd, DRM_IOCTL_GEM_FLINK, &fl) || io(fd, DRM_IOCTL_SYNCOBJ_CREATE, &cr))
		return 1;
	if (write(*sock, &fl.name, sizeof(fl.name)) != sizeof(fl.name))
		return 1;
	/* never signalled: blocks until the parent kills us */
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&cr.handle, .count_handles = 1,
				      .timeout_nsec = INT64_MAX,
				      .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
	io(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
	return 2;
}

static void check_death(int fd)
{
	int p[2];
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, p), 0);
	pid_t c = spawn(dying_child, &p[1]);
	struct drm_auth auth = { 0 };
	CHECK_EQ(read(p[0], &auth.magic, sizeof(auth.magic)), sizeof(auth.magic));
	CHECK_EQ(io(fd, DRM_IOCTL_AUTH_MAGIC, &auth), 0);
	post(p[0]);
	uint32_t name = 0;
	CHECK_EQ(read(p[0], &name, sizeof(name)), sizeof(name));
	usleep(50 * 1000);   /* in its wait */
	kill(c, SIGKILL);
	CHECK_EQ(reap(c), 128 + SIGKILL);
	/* the server goes on serving us... */
	uint32_t h = shim_gem_create(fd, 4096);
	CHECK(h != 0);
	uint32_t v = 0x1234, back = 0;
	struct drm_i915_gem_pwrite pw = { .handle = h, .size = 4, .data_ptr = (uintptr_t)&v };
	struct drm_i915_gem_pread pr = { .handle = h, .size = 4, .data_ptr = (uintptr_t)&back };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	CHECK_EQ(back, 0x1234);
	/* ...and the dead child's file is closed: its name goes (the server
	 * sees the connection close a moment after the exit) */
	int ret = 0;
	for (int i = 0; i < 200; i++) {
		struct drm_gem_open op = { .name = name };
		if ((ret = io(fd, DRM_IOCTL_GEM_OPEN, &op)) == -ENOENT)
			break;
		if (!ret) {
			struct drm_gem_close cl = { .handle = op.handle };
			io(fd, DRM_IOCTL_GEM_CLOSE, &cl);
		}
		usleep(10 * 1000);
	}
	CHECK_EQ(ret, -ENOENT);
}

/* 6 ---------------------------------------------------------------- */
struct sw_sync_fence_arg {   /* drivers/dma-buf/sw_sync.c's uAPI */
	uint32_t value;
	char name[32];
	int32_t fence;
};
#define SW_SYNC_CREATE_FENCE _IOWR('W', 0, struct sw_sync_fence_arg)
#define SW_SYNC_INC _IOW('W', 1, uint32_t)
#define SW_SYNC_PATH "/sys/kernel/debug/sync/sw_sync"

static int fence_status(int fence)
{
	struct sync_file_info info = { 0 };
	return io(fence, SYNC_IOC_FILE_INFO, &info) ? -1000 : info.status;
}

static int sw_sync_child(void *p)
{
	int sock = *(int *)p;
	int tl = recv_fd(sock);   /* the parent's timeline, another number */
	uint32_t one = 1;
	return tl < 0 || io(tl, SW_SYNC_INC, &one) ? 1 : 0;
}

static void check_sw_sync(void)
{
	int tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);
	CHECK(tl >= 0);
	struct sw_sync_fence_arg f = { .value = 1, .name = "shared" };
	CHECK_EQ(io(tl, SW_SYNC_CREATE_FENCE, &f), 0);
	CHECK_EQ(fence_status(f.fence), 0);   /* active */
	int sp[2];
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	pid_t c = spawn(sw_sync_child, &sp[1]);
	CHECK_EQ(send_fd(sp[0], tl), 0);
	struct pollfd pfd = { f.fence, POLLIN, 0 };
	CHECK_EQ(poll(&pfd, 1, 20000), 1);
	CHECK_EQ(fence_status(f.fence), 1);   /* signalled */
	CHECK_EQ(reap(c), 0);
	close(sp[0]);
	close(sp[1]);
	close(f.fence);
	/* a fence still pending when its timeline's last descriptor closes */
	struct sw_sync_fence_arg g = { .value = 5, .name = "closed" };
	CHECK_EQ(io(tl, SW_SYNC_CREATE_FENCE, &g), 0);
	close(tl);
	CHECK(fence_status(g.fence) < 0);   /* signalled with an error */
	close(g.fence);
}

/* vgem's uAPI (include/uapi/drm/vgem_drm.h) */
struct vgem_attach { uint32_t handle, flags, out_fence, pad; };
struct vgem_signal { uint32_t fence, flags; };
#define VGEM_ATTACH DRM_IOWR(DRM_COMMAND_BASE + 1, struct vgem_attach)
#define VGEM_SIGNAL DRM_IOW(DRM_COMMAND_BASE + 2, struct vgem_signal)

struct vgem_ctx { int dmabuf, go, done; };

static int vgem_child(void *p)
{
	struct vgem_ctx *c = p;
	struct pollfd pfd = { c->dmabuf, POLLIN, 0 };
	int busy = poll(&pfd, 1, 0) == 0;   /* the write fence is pending */
	post(c->done);
	if (!wait_post(c->go))
		return 1;
	pfd.revents = 0;
	int ready = poll(&pfd, 1, 20000) == 1 && (pfd.revents & POLLIN);
	return busy && ready ? 0 : 1;
}

static void check_vgem(void)
{
	int vgem = open("/dev/dri/card1", O_RDWR | O_CLOEXEC);
	CHECK(vgem >= 0);
	if (vgem < 0)
		return;
	struct drm_mode_create_dumb d = { .width = 1024, .height = 1, .bpp = 32 };
	CHECK_EQ(io(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &d), 0);
	struct drm_prime_handle ex = { .handle = d.handle, .flags = DRM_CLOEXEC };
	CHECK_EQ(io(vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex), 0);
	struct vgem_attach a = { .handle = d.handle, .flags = 1 /* VGEM_FENCE_WRITE */ };
	CHECK_EQ(io(vgem, VGEM_ATTACH, &a), 0);
	int go[2], done[2];
	CHECK_EQ(pipe(go), 0);
	CHECK_EQ(pipe(done), 0);
	struct vgem_ctx c = { ex.fd, go[0], done[1] };
	pid_t pid = spawn(vgem_child, &c);
	CHECK(wait_post(done[0]));
	struct vgem_signal sg = { .fence = a.out_fence };
	CHECK_EQ(io(vgem, VGEM_SIGNAL, &sg), 0);
	post(go[1]);
	CHECK_EQ(reap(pid), 0);
	close(go[0]); close(go[1]); close(done[0]); close(done[1]);
	close(ex.fd);
	close(vgem);
}

/* Keeps the server's threads busy (GETPARAM over its own file) until
 * the pipe closes, so that a closed connection waits for a CPU. */
static int busy_child(void *p)
{
	int stop = ((int *)p)[0];
	close(((int *)p)[1]);   /* the parent's close of it ends the loop */
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);   /* never master */
	int v;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &v };
	struct pollfd pfd = { stop, POLLIN, 0 };
	while (fd >= 0 && poll(&pfd, 1, 0) == 0)
		io(fd, DRM_IOCTL_I915_GETPARAM, &gp);
	return 0;
}

static void check_reopen_master(void)
{
	int stop[2];
	CHECK_EQ(pipe(stop), 0);
	pid_t kids[4];
	for (int i = 0; i < 4; i++)
		kids[i] = spawn(busy_child, stop);
	for (int i = 0; i < 100; i++) {
		int again = open(CARD, O_RDWR | O_CLOEXEC);
		CHECK(again >= 0);
		CHECK_EQ(io(again, DRM_IOCTL_SET_MASTER, NULL), 0);
		close(again);
	}
	close(stop[1]);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(reap(kids[i]), 0);
	close(stop[0]);
}

int main(void)
{
	const char *server = getenv("GTSIM_SERVER");
	CHECK(server && *server);   /* run by `gtsim run --shared` */
	int fd = open(CARD, O_RDWR | O_CLOEXEC);   /* the first opener: master */
	CHECK(fd >= 0);
	if (fd < 0)
		return test_exit();
	check_fork_mmap(fd);
	check_syncobj_fd(fd);
	check_contexts(fd);
	check_threads(fd);
	check_death(fd);
	check_sw_sync();
	check_vgem();
	close(fd);
	check_reopen_master();
	return test_exit();
}
