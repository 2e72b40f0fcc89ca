/* Fork sharing (docs/shared-device.md "Fork sharing"), the default
 * mode's: a fork child uses its parent's DRM file,
 * on the parent's device.
 *
 * The parent opens renderD128, creates a context, a target object (with
 * a CPU mapping) and a batch object, and forks twice. The first child,
 * on the inherited descriptor: GEM_BUSY of the parent's target, a batch
 * of its own storing VALUE_CHILD into the parent's object on the
 * parent's context, GEM_WAIT, its CPU mapping shows the store; it creates
 * an object and writes VALUE_NEW there (PWRITE), sends that handle and
 * the id of a context it creates over a pipe, and exits. The parent:
 * PREAD of its target gives VALUE_CHILD, PREAD of the child's handle
 * VALUE_NEW, the child's context id is one of its file's (GETPARAM), and
 * its own batch on the same objects still runs after the child's exit
 * (its file outlived the child's connections). A second child reads the
 * first child's object and sees busy a batch the parent left held by a
 * semaphore, which the fork did not wait for; its own child (a grandchild)
 * reads that object too.
 *
 * Oracle: i915's rule that a DRM file is per open file description,
 * which fork shares (handles, contexts, object memory are one); the
 * values are the ones written. With the argument "private" the program
 * checks instead what GTSIM_FORK_SHARE=0 (a private copy of the device per
 * child, docs/shared-device.md) gives: the parent sees none of it. */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shim_gem.h"
#include "shim_proc.h"
#include "test.h"

#define NODE "/dev/dri/renderD128"
#define TARGET_VA 0x100000ull
#define BATCH_VA 0x200000ull
#define VALUE_PARENT 0x11111111u
#define VALUE_CHILD 0xc0ffee01u
#define VALUE_NEW 0x12345678u
#define VALUE_AFTER 0x0afe7e12u
#define VALUE_HELD 0x4e1d4e1du
#define SEMA_VA 0x300000ull
#define OUT_VA 0x400000ull

static int io(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int pwrite_dw(int fd, uint32_t h, uint32_t v)
{
	struct drm_i915_gem_pwrite pw = { .handle = h, .size = 4, .data_ptr = (uintptr_t)&v };
	return io(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
}

/* The first dword of h, 0xdead0000 | errno when PREAD fails. */
static uint32_t pread_dw(int fd, uint32_t h)
{
	uint32_t v = 0;
	struct drm_i915_gem_pread pr = { .handle = h, .size = 4, .data_ptr = (uintptr_t)&v };
	int err = io(fd, DRM_IOCTL_I915_GEM_PREAD, &pr);
	return err ? 0xdead0000u | (uint32_t)-err : v;
}

/* A batch in bb storing value at TARGET_VA (target softpinned there), run
 * on context ctx and waited for. 0 or -errno. */
static int store(int fd, uint32_t ctx, uint32_t bb, uint32_t target, uint32_t value)
{
	const uint32_t dw[] = { MI_STORE_DWORD_IMM_GEN8, (uint32_t)TARGET_VA, 0, value,
				MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_pwrite pw = { .handle = bb, .size = sizeof(dw),
					  .data_ptr = (uintptr_t)dw };
	int err = io(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	if (err)
		return err;
	err = shim_exec_pinned(fd, target, TARGET_VA, bb, BATCH_VA,
			       (struct drm_i915_gem_execbuffer2){ .flags = I915_EXEC_RENDER,
								  .rsvd1 = ctx });
	if (err)
		return err;
	struct drm_i915_gem_wait w = { .bo_handle = target, .timeout_ns = 10000000000ll };
	return io(fd, DRM_IOCTL_I915_GEM_WAIT, &w);
}

struct shared {
	int fd;
	uint32_t ctx, target, bb;
	volatile uint32_t *map;      /* the target's first dword, mapped before the fork */
};

/* The first child; writes { its object's handle, its context's id } to
 * the pipe. Exit status 0: every step worked. */
static int first_child(const struct shared *s, int pipe_w)
{
	struct drm_i915_gem_busy busy = { .handle = s->target };
	if (io(s->fd, DRM_IOCTL_I915_GEM_BUSY, &busy) || busy.busy)
		return 1;
	if (store(s->fd, s->ctx, s->bb, s->target, VALUE_CHILD))
		return 2;
	if (*s->map != VALUE_CHILD)
		return 3;
	uint32_t mine = shim_gem_create(s->fd, 4096);
	if (!mine || pwrite_dw(s->fd, mine, VALUE_NEW))
		return 4;
	struct drm_i915_gem_context_create cc = { 0 };
	if (io(s->fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc))
		return 5;
	uint32_t msg[2] = { mine, cc.ctx_id };
	return write(pipe_w, msg, sizeof(msg)) == sizeof(msg) ? 0 : 6;
}

/* A batch held by a semaphore on the dword at SEMA_VA (sema), storing
 * VALUE_HELD at OUT_VA (out) once that is 1. 0 or -errno. */
static int submit_held(int fd, uint32_t sema, uint32_t out)
{
	uint32_t bb = shim_gem_create(fd, 4096), dw[16];
	shim_sema_batch(dw, (uint32_t)SEMA_VA, (uint32_t)OUT_VA, VALUE_HELD);
	struct drm_i915_gem_pwrite pw = { .handle = bb, .size = sizeof(dw),
					  .data_ptr = (uintptr_t)dw };
	if (!bb || io(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw))
		return -EIO;
	struct drm_i915_gem_exec_object2 obj[3] = {
		{ .handle = sema, .offset = SEMA_VA, .flags = EXEC_OBJECT_PINNED },
		{ .handle = out, .offset = OUT_VA,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = BATCH_VA, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)obj, .buffer_count = 3, .flags = I915_EXEC_RENDER,
	};
	return io(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	bool private_copy = argc > 1 && !strcmp(argv[1], "private");
	struct shared s = { .fd = open(NODE, O_RDWR | O_CLOEXEC) };
	if (s.fd < 0)
		test_skip("no render node");
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(io(s.fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), 0);
	s.ctx = cc.ctx_id;
	s.target = shim_gem_create(s.fd, 4096);
	s.bb = shim_gem_create(s.fd, 4096);
	CHECK(s.target && s.bb);
	CHECK_EQ(pwrite_dw(s.fd, s.target, VALUE_PARENT), 0);
	s.map = shim_gem_cpu_map(s.fd, s.target);
	CHECK(s.map != NULL);
	if (!s.map)
		return test_exit();

	int p[2];
	CHECK_EQ(pipe(p), 0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(first_child(&s, p[1]));
	close(p[1]);
	uint32_t msg[2] = { 0, 0 };
	CHECK_EQ(read(p[0], msg, sizeof(msg)), sizeof(msg));   /* the child ran to its end */
	close(p[0]);
	CHECK_EQ(reap(pid), 0);

	/* A context id of the file: GETPARAM answers; of no file: -ENOENT. */
	struct drm_i915_gem_context_param cp = { .ctx_id = msg[1],
						 .param = I915_CONTEXT_PARAM_PRIORITY };
	int getparam = io(s.fd, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &cp);
	if (private_copy) {
		CHECK_EQ(pread_dw(s.fd, s.target), VALUE_PARENT);
		CHECK_EQ(*s.map, VALUE_PARENT);
		/* the child's handle is unknown, or the parent's own object's */
		CHECK(pread_dw(s.fd, msg[0]) != VALUE_NEW);
		CHECK_EQ(getparam, -ENOENT);
		return test_exit();
	}
	CHECK_EQ(pread_dw(s.fd, s.target), VALUE_CHILD);
	CHECK_EQ(*s.map, VALUE_CHILD);
	CHECK_EQ(pread_dw(s.fd, msg[0]), VALUE_NEW);
	CHECK_EQ(getparam, 0);

	/* The parent's file and device after the child's exit. */
	CHECK_EQ(store(s.fd, s.ctx, s.bb, s.target, VALUE_AFTER), 0);
	CHECK_EQ(pread_dw(s.fd, s.target), VALUE_AFTER);

	/* A second child, on the one server: the first child's object, and
	 * the batch the parent left held by a semaphore is busy there. The
	 * fork does not wait for that batch (i915's fork knows nothing of
	 * the GPU); it runs to its end once the parent releases it. */
	uint32_t sema = shim_gem_create(s.fd, 4096), out = shim_gem_create(s.fd, 4096);
	volatile uint32_t *sema_map = shim_gem_cpu_map(s.fd, sema);
	CHECK(sema_map != NULL);
	CHECK_EQ(submit_held(s.fd, sema, out), 0);
	fflush(NULL);
	double t0 = now_s();
	pid = fork();
	if (pid == 0) {
		struct drm_i915_gem_busy busy = { .handle = out };
		bool ok = pread_dw(s.fd, msg[0]) == VALUE_NEW && *s.map == VALUE_AFTER &&
			  !io(s.fd, DRM_IOCTL_I915_GEM_BUSY, &busy) && busy.busy;
		/* its own child (a grandchild): the same server */
		pid_t g = fork();
		if (g == 0)
			_exit(pread_dw(s.fd, msg[0]) == VALUE_NEW ? 0 : 1);
		_exit(ok && reap(g) == 0 ? 0 : 1);
	}
	double fork_s = now_s() - t0;
	CHECK(fork_s < 1.0);
	CHECK_EQ(reap(pid), 0);
	if (sema_map)
		*sema_map = 1;
	struct drm_i915_gem_wait w = { .bo_handle = out, .timeout_ns = 10000000000ll };
	CHECK_EQ(io(s.fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	CHECK_EQ(pread_dw(s.fd, out), VALUE_HELD);
	CHECK_EQ(close(s.fd), 0);
	return test_exit();
}
