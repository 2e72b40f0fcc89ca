/* PREAD and PWRITE copy without holding the device (i915 on Linux 6.1:
 * i915_gem_shmem_pread/pwrite copy with the pages pinned and no lock held;
 * IGT gem_pread/gem_pwrite exhaustion park thousands of threads in such a
 * copy). A thread's PREAD into a page registered with userfaultfd (missing
 * pages) faults there and waits; meanwhile the same file's GEM_CREATE,
 * PWRITE, PREAD of another object, an execbuf and a MADVISE(DONTNEED) of
 * the object being copied all return (the madvise keeps the pages: the
 * copy pins them, retained = 1, and the object is not purged); once the
 * fault is served the PREAD returns 0 and the page holds the object's
 * bytes, written by hand before. The same for a PWRITE from such a page.
 * Before: the copy held the device lock, so the main thread's first ioctl
 * waited for ever (the alarm below ends the test as a failure). */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "eb_test.h"
#include "uffd_test.h"

static struct gtsim_file *f;
static uint8_t *page;
static uint32_t obj_a;
static int thread_ret = -1;
static bool writing;

static void *faulting_copy(void *arg)
{
	(void)arg;
	int ret;
	if (writing) {
		struct drm_i915_gem_pwrite w = { .handle = obj_a, .offset = 64, .size = 256,
						 .data_ptr = (uintptr_t)page + 16 };
		ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PWRITE, &w);
	} else {
		struct drm_i915_gem_pread r = { .handle = obj_a, .offset = 64, .size = 256,
						.data_ptr = (uintptr_t)page + 16 };
		ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PREAD, &r);
	}
	__atomic_store_n(&thread_ret, ret, __ATOMIC_RELEASE);
	return NULL;
}

static void blocked(int sig)
{
	(void)sig;
	static const char msg[] = "an ioctl waited behind the faulting copy: the copy holds the device\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

static void round_trip(bool write_mode)
{
	writing = write_mode;
	__atomic_store_n(&thread_ret, -1, __ATOMIC_RELEASE);
	void *mem;
	int ufd = uffd_page(&mem, MAP_PRIVATE);
	page = mem;

	struct gtsim_device *dev = eb_device(0, 5000, 0);
	f = gtsim_open(dev);
	obj_a = eb_create(f, 8192);
	uint8_t pattern[512];
	for (unsigned i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(i * 7 + 3);
	eb_write(f, obj_a, 0, pattern, sizeof(pattern));

	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, faulting_copy, NULL), 0);
	uffd_expect_fault(ufd, page);

	/* while the copy waits on the fault, the device serves the file */
	signal(SIGALRM, blocked);
	alarm(20);
	uint32_t b = eb_create(f, 4096);
	uint32_t v = 0x12345678, got = 0;
	eb_write(f, b, 8, &v, 4);
	eb_read(f, b, 8, &got, 4);
	CHECK_EQ(got, 0x12345678u);
	uint32_t bb = eb_create(f, 4096);
	uint32_t dw[8];
	unsigned n = emit_store(dw, 0x500000, 0xbeef);
	dw[n++] = MI_BATCH_BUFFER_END;
	eb_write(f, bb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = b, .offset = 0x500000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2,
					       .flags = I915_EXEC_RENDER };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	CHECK_EQ(eb_wait(f, b, 5000000000ll), 0);
	CHECK_EQ(eb_read32(f, b, 0), 0xbeefu);
	if (!write_mode) {
		/* the copy pins the pages: DONTNEED keeps them (i915: has pages) */
		struct drm_i915_gem_madvise m = { .handle = obj_a, .madv = I915_MADV_DONTNEED };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MADVISE, &m), 0);
		CHECK_EQ(m.retained, 1u);
	}
	alarm(0);
	CHECK_EQ(__atomic_load_n(&thread_ret, __ATOMIC_ACQUIRE), -1);   /* still in the copy */

	/* serve the fault: the copy finishes */
	static uint8_t fill[4096];
	for (unsigned i = 0; i < sizeof(fill); i++)
		fill[i] = (uint8_t)(0xc5 ^ i);
	struct uffdio_copy copy = { .dst = (uintptr_t)page, .src = (uintptr_t)fill, .len = 4096 };
	CHECK_EQ(ioctl(ufd, UFFDIO_COPY, &copy), 0);
	pthread_join(t, NULL);
	CHECK_EQ(thread_ret, 0);
	uint8_t back[512];
	eb_read(f, obj_a, 0, back, sizeof(back));
	for (unsigned i = 0; i < 256; i++) {
		if (write_mode) {   /* the object got the page's bytes */
			CHECK_EQ(back[64 + i], fill[16 + i]);
		} else {            /* the page got the object's bytes */
			CHECK_EQ(page[16 + i], pattern[64 + i]);
			CHECK_EQ(back[64 + i], pattern[64 + i]);   /* not purged */
		}
	}
	CHECK_EQ(back[0], pattern[0]);
	eb_close(f, bb);
	eb_close(f, b);
	eb_close(f, obj_a);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	munmap(page, 4096);
	close(ufd);
}

int main(void)
{
	eb_require_async("the faulting copy waits on a thread of its own");
	round_trip(false);
	round_trip(true);
	return test_exit();
}
