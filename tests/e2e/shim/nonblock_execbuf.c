/* An execbuf on a descriptor set O_NONBLOCK does not wait for ring space
 * (i915 6.1, gem/i915_gem_execbuffer.c eb_pin_timeline: the throttle's
 * i915_request_wait gets a timeout of 0 when file->f_flags has
 * O_NONBLOCK, and its failure is returned as -EWOULDBLOCK), made through
 * the interposed ioctl, in the default and the shared-device mode.
 *
 * A batch holds the render engine on MI_SEMAPHORE_WAIT; nop batches then
 * fill the context's 16 KiB ring, 56 bytes a request (see
 * tests/integration/kernel/test_execbuf_throttle.c), until less than a
 * page is free: about (16384 - 4096) / 56 = 219 requests. The next
 * execbuf must fail at once with EAGAIN (== EWOULDBLOCK) and make no
 * out-fence. Without O_NONBLOCK it would block: an alarm then interrupts
 * it (EINTR), which fails the test instead of hanging it. Once the flag
 * is cleared and the semaphore released, the same execbuf succeeds.
 * Hangcheck is off (as IGT turns it off), so the held batch is not reset
 * however slowly the ring fills. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shim_gem.h"
#include "test.h"

#define SEMA_ADDR 0x100000u

static void on_alarm(int sig)
{
	(void)sig;
}

static int execbuf(int fd, struct drm_i915_gem_exec_object2 *objs, unsigned n, uint64_t flags,
		   uint64_t *rsvd2)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = n, .flags = flags,
	};
	int r = ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	if (rsvd2)
		*rsvd2 = eb.rsvd2;
	return r;
}

int main(void)
{
	int p = open("/sys/module/i915/parameters/enable_hangcheck", O_WRONLY);
	CHECK(p >= 0 && write(p, "0", 1) == 1);
	close(p);
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	uint32_t sema = shim_gem_create(fd, 4096), held = shim_gem_create(fd, 4096);
	uint32_t nop = shim_gem_create(fd, 4096);
	volatile uint32_t *sema_map = shim_gem_cpu_map(fd, sema);
	uint32_t *held_map = shim_gem_cpu_map(fd, held), *nop_map = shim_gem_cpu_map(fd, nop);
	CHECK(sema && held && nop && sema_map && held_map && nop_map);
	if (!sema_map || !held_map || !nop_map)
		return test_exit();
	shim_sema_batch(held_map, SEMA_ADDR, SEMA_ADDR + 4, 7);
	nop_map[0] = MI_BATCH_BUFFER_END;
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = sema, .offset = SEMA_ADDR,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = held },
	};
	CHECK_EQ(execbuf(fd, objs, 2, I915_EXEC_RENDER, NULL), 0);

	struct sigaction sa = { .sa_handler = on_alarm };   /* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(30);
	CHECK_EQ(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
	struct drm_i915_gem_exec_object2 o = { .handle = nop };
	int count = 0, r = 0, err = 0;
	uint64_t rsvd2 = 0;
	while (count < 1000) {
		r = execbuf(fd, &o, 1, I915_EXEC_RENDER | I915_EXEC_FENCE_OUT, &rsvd2);
		if (r) {
			err = errno;
			break;
		}
		close((int)(rsvd2 >> 32));
		count++;
	}
	alarm(0);
	fprintf(stderr, "%d nop execbufs, then %d (%s)\n", count, r, strerror(err));
	CHECK_EQ(r, -1);
	CHECK_EQ(err, EAGAIN);
	CHECK_EQ(rsvd2 >> 32, 0);   /* no out-fence */
	CHECK(count > 200 && count < 240);

	/* blocking again: waits for room once the engine goes on */
	CHECK_EQ(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK), 0);
	sema_map[0] = 1;
	CHECK_EQ(execbuf(fd, &o, 1, I915_EXEC_RENDER, NULL), 0);
	struct drm_i915_gem_wait w = { .bo_handle = nop, .timeout_ns = 10000000000ll };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	CHECK_EQ(sema_map[1], 7);
	close(fd);
	return test_exit();
}
