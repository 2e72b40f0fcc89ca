/* An execbuf faults in its userptr objects' pages without holding the
 * device (i915 on Linux 6.1: eb_lookup_vmas -> i915_gem_object_userptr_
 * submit_init -> pin_user_pages_fast, under no lock; IGT gem_exec_schedule
 * pi-userfault). The page behind a userptr object is registered with
 * userfaultfd (missing pages): a thread's execbuf naming it must fault on
 * it (the fault arrives on the userfaultfd, at the page's address) and
 * wait there; meanwhile another context's execbuf on the same file goes
 * through and its batch completes; once the fault is served the first
 * execbuf returns 0 and its batch runs, storing into the page.
 * Before: execbuf only read /proc/self/maps, so no fault ever came (the
 * read of the userfaultfd waited forever: poll's 5 s end here). */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "eb_test.h"
#include "uffd_test.h"

#define PAGE_ADDR 0x400000ull
#define BB_ADDR 0x200000ull

static struct gtsim_file *f;
static uint32_t *page;
static int thread_ret = -1;

static uint32_t batch_storing(uint64_t addr, uint32_t value)
{
	uint32_t dw[8], bb = eb_create(f, 4096);
	unsigned n = emit_store(dw, addr, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, bb, 0, dw, n * 4);
	return bb;
}

static void *faulting_execbuf(void *arg)
{
	(void)arg;
	struct drm_i915_gem_userptr u = { .user_ptr = (uintptr_t)page, .user_size = 4096 };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_USERPTR, &u))
		return NULL;
	uint32_t bb = batch_storing(PAGE_ADDR, 0x600d);
	uint32_t ctx = eb_context_create(f);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = u.handle, .offset = PAGE_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = BB_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2,
					       .flags = I915_EXEC_RENDER, .rsvd1 = ctx };
	thread_ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	if (!thread_ret)
		thread_ret = eb_wait(f, u.handle, 5000000000ll);
	eb_close(f, bb);
	eb_close(f, u.handle);
	return NULL;
}

int main(void)
{
	eb_require_async("the faulting execbuf waits on a thread of its own");
	void *mem;
	int ufd = uffd_page(&mem, MAP_SHARED);
	page = mem;

	struct gtsim_device *dev = eb_device(0, 5000, 0);
	f = gtsim_open(dev);
	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, faulting_execbuf, NULL), 0);

	/* the execbuf faults on the page */
	uffd_expect_fault(ufd, page);

	/* while it waits, another context's batch goes through */
	uint32_t other = eb_create(f, 4096);
	uint32_t bb = batch_storing(0x500000, 0xbeef);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = other, .offset = 0x500000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2,
					       .flags = I915_EXEC_RENDER,
					       .rsvd1 = eb_context_create(f) };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	CHECK_EQ(eb_wait(f, other, 5000000000ll), 0);
	CHECK_EQ(eb_read32(f, other, 0), 0xbeefu);
	CHECK_EQ(__atomic_load_n(&thread_ret, __ATOMIC_ACQUIRE), -1);   /* still waiting */

	/* serve the fault: the first execbuf goes on and its batch runs */
	static uint32_t fill[1024];
	for (unsigned i = 0; i < 1024; i++)
		fill[i] = 0xc5c5c5c5;
	struct uffdio_copy copy = { .dst = (uintptr_t)page, .src = (uintptr_t)fill, .len = 4096 };
	CHECK_EQ(ioctl(ufd, UFFDIO_COPY, &copy), 0);
	pthread_join(t, NULL);
	CHECK_EQ(thread_ret, 0);
	CHECK_EQ(__atomic_load_n(&page[0], __ATOMIC_ACQUIRE), 0x600du);
	CHECK_EQ(page[1], 0xc5c5c5c5u);

	eb_close(f, bb);
	eb_close(f, other);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	close(ufd);
	return test_exit();
}
