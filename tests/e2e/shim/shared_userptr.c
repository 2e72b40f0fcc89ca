/* GEM_USERPTR on the shared device (docs/shared-device.md "USERPTR"), run
 * under `gtsim run --shared`: the device server makes the object over the
 * client's malloc'ed pages, which live in another process than the GPU.
 *
 *  1. A batch stores a dword into the object (MI_STORE_DATA_IMM) and
 *     copies one (MI_COPY_MEM_MEM) the CPU wrote after the object was
 *     made: after GEM_WAIT the CPU reads both in its own memory.
 *  2. A fork child submits on the inherited descriptor a batch storing
 *     into the parent's object: the store lands in the parent's memory
 *     (i915 pins the creator's pages; the child's copy-on-write copy
 *     does not see it); its copy reads the parent's memory, not its own
 *     copy-on-write one.
 *  3. A read-only object: the GPU reads it (copied into a writable one);
 *     its store into it is dropped (gen8+ PPGTT read-only PTEs).
 *  4. i915's errnos: UNSYNCHRONIZED -ENODEV, PROBE of an unmapped range
 *     and of a GEM mapping -EFAULT, a range unmapped after creation
 *     -EFAULT at execbuf, unaligned -EINVAL, PREAD -EINVAL.
 *  5. While a batch runs: it polls (MI_SEMAPHORE_WAIT) a dword of a
 *     userptr object mapped PROT_WRITE only until the CPU writes it, then
 *     stores; the wait returns and the CPU reads the store.
 *  6. A page registered with userfaultfd, mapped PROT_WRITE only: the
 *     execbuf's own thread faults it in (the server's remote read gets
 *     -EFAULT from userfaultfd), the process's
 *     handler thread fills it, and the batch copies from it.
 * Oracles: the values written and i915 6.1's i915_gem_userptr.c. Without
 * the shared device's USERPTR (-ENODEV before) 1-4 fail. */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shim_gem.h"
#include "test.h"

#define MI_COPY_MEM_MEM ((0x2eu << 23) | 3u)
#define USER_ADDR 0x100000u    /* the userptr object's PPGTT address */
#define RO_ADDR 0x200000u      /* the read-only object's */
#define BATCH_ADDR 0x400000u

struct uffd_job {
	int ufd;
	int faults;
};

/* Serves one userfault: the page gets 0xfa017ed in every dword. */
static void *uffd_fill(void *p)
{
	struct uffd_job *job = p;
	struct uffd_msg msg;
	struct pollfd pfd = { job->ufd, POLLIN, 0 };
	if (poll(&pfd, 1, 10000) != 1 || read(job->ufd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	static uint32_t page[1024] __attribute__((aligned(4096)));
	for (unsigned i = 0; i < 1024; i++)
		page[i] = 0xfa017ed;
	struct uffdio_copy copy = { .dst = msg.arg.pagefault.address & ~4095ull,
				    .src = (uintptr_t)page, .len = 4096 };
	if (!ioctl(job->ufd, UFFDIO_COPY, &copy))
		job->faults++;
	return NULL;
}

static int userptr(int fd, void *p, uint64_t size, uint32_t flags, uint32_t *handle)
{
	struct drm_i915_gem_userptr u = { .user_ptr = (uintptr_t)p, .user_size = size,
					  .flags = flags };
	int r = ioctl(fd, DRM_IOCTL_I915_GEM_USERPTR, &u);
	*handle = r ? 0 : u.handle;
	return r ? -errno : 0;
}

static void gem_wait(int fd, uint32_t h)
{
	struct drm_i915_gem_wait w = { .bo_handle = h, .timeout_ns = -1 };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
}

/* Submits the dwords in a new batch with the objects softpinned at their
 * addresses (writable): 0 or -errno of the execbuf; the batch's handle in
 * *batch (closed when the execbuf fails). */
static int submit(int fd, const uint32_t *dw, unsigned n, const uint32_t *handles,
		  const uint32_t *addrs, unsigned nobj, uint32_t *batch)
{
	uint32_t bb = shim_gem_create(fd, 4096);
	uint32_t *map = shim_gem_cpu_map(fd, bb);
	CHECK(bb && map);
	if (!map)
		return -ENOMEM;
	memcpy(map, dw, n * 4);
	struct drm_i915_gem_exec_object2 o[4] = { 0 };
	for (unsigned i = 0; i < nobj; i++)
		o[i] = (struct drm_i915_gem_exec_object2){
			.handle = handles[i], .offset = addrs[i],
			.flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE };
	o[nobj] = (struct drm_i915_gem_exec_object2){ .handle = bb, .offset = BATCH_ADDR,
						      .flags = EXEC_OBJECT_PINNED };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o,
					       .buffer_count = nobj + 1,
					       .flags = I915_EXEC_RENDER };
	int r = ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ? -errno : 0;
	*batch = bb;
	if (r) {
		struct drm_gem_close c = { .handle = bb };
		ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
	}
	return r;
}

/* submit, then waits for the batch and closes it */
static int run(int fd, const uint32_t *dw, unsigned n, const uint32_t *handles,
	       const uint32_t *addrs, unsigned nobj)
{
	uint32_t bb;
	int r = submit(fd, dw, n, handles, addrs, nobj, &bb);
	if (!r) {
		gem_wait(fd, bb);
		struct drm_gem_close c = { .handle = bb };
		ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
	}
	return r;
}

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	uint32_t *mem = aligned_alloc(4096, 8192);
	CHECK(mem != NULL);
	if (fd < 0 || !mem)
		return test_exit();
	memset(mem, 0, 8192);
	uint32_t h;
	CHECK_EQ(userptr(fd, mem, 8192, 0, &h), 0);

	/* 1: a store and a copy of what the CPU wrote after the USERPTR */
	mem[16] = 0x5eed1234;
	const uint32_t b1[] = {
		MI_STORE_DWORD_IMM_GEN8, USER_ADDR, 0, 0xdeadbeef,
		MI_COPY_MEM_MEM, USER_ADDR + 128, 0, USER_ADDR + 64, 0,
		MI_BATCH_BUFFER_END,
	};
	CHECK_EQ(run(fd, b1, 10, &h, (const uint32_t[]){ USER_ADDR }, 1), 0);
	CHECK_EQ(mem[0], 0xdeadbeef);
	CHECK_EQ(mem[32], 0x5eed1234);
	CHECK_EQ(mem[1], 0);   /* nothing else written */

	/* 2: a fork child's batch on the parent's object */
	mem[1024] = 0xfeed0001;   /* second page, copied by the child's batch */
	int ready[2];
	CHECK_EQ(pipe(ready), 0);
	pid_t pid = fork();
	if (pid == 0) {
		mem[1024] = 0x0bad0bad;   /* the child's own copy: not the object */
		const uint32_t b2[] = {
			MI_STORE_DWORD_IMM_GEN8, USER_ADDR + 256, 0, 0xc0ffee,
			MI_COPY_MEM_MEM, USER_ADDR + 4096 + 4, 0, USER_ADDR + 4096, 0,
			MI_BATCH_BUFFER_END,
		};
		int r = run(fd, b2, 10, &h, (const uint32_t[]){ USER_ADDR }, 1);
		_exit(r == 0 && mem[64] == 0 ? 0 : 1);
	}
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(mem[64], 0xc0ffee);
	CHECK_EQ(mem[1025], 0xfeed0001);   /* the parent's memory was read, not the child's */
	CHECK_EQ(mem[1024], 0xfeed0001);
	CHECK_EQ(mem[0], 0xdeadbeef);      /* the first batch's store stays */

	/* 3: read-only */
	uint32_t *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(ro != MAP_FAILED);
	ro[0] = 0x12345678;
	ro[1] = 0x11111111;
	CHECK_EQ(mprotect(ro, 4096, PROT_READ), 0);
	uint32_t hro;
	CHECK_EQ(userptr(fd, ro, 4096, I915_USERPTR_READ_ONLY, &hro), 0);
	const uint32_t b3[] = {
		MI_COPY_MEM_MEM, USER_ADDR + 512, 0, RO_ADDR, 0,
		MI_STORE_DWORD_IMM_GEN8, RO_ADDR + 4, 0, 0x22222222,
		MI_BATCH_BUFFER_END,
	};
	CHECK_EQ(run(fd, b3, 10, (const uint32_t[]){ h, hro },
		     (const uint32_t[]){ USER_ADDR, RO_ADDR }, 2), 0);
	CHECK_EQ(mem[128], 0x12345678);
	CHECK_EQ(ro[1], 0x11111111);
	/* a writable object needs a writable range (pin_user_pages FOLL_WRITE) */
	uint32_t hrw;
	CHECK_EQ(userptr(fd, ro, 4096, 0, &hrw), 0);
	CHECK_EQ(run(fd, b3 + 9, 1, &hrw, (const uint32_t[]){ RO_ADDR }, 1), -EFAULT);

	/* 4: i915's errnos */
	uint32_t x;
	CHECK_EQ(userptr(fd, mem, 4096, I915_USERPTR_UNSYNCHRONIZED, &x), -ENODEV);
	CHECK_EQ(userptr(fd, (char *)mem + 1, 4096, 0, &x), -EINVAL);
	void *hole = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(hole != MAP_FAILED);
	CHECK_EQ(munmap((char *)hole + 4096, 4096), 0);
	CHECK_EQ(userptr(fd, hole, 8192, I915_USERPTR_PROBE, &x), -EFAULT);
	CHECK_EQ(userptr(fd, hole, 4096, I915_USERPTR_PROBE, &x), 0);
	uint32_t gem = shim_gem_create(fd, 4096);
	struct drm_i915_gem_mmap_offset mo = { .handle = gem, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	void *gmap = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mo.offset);
	CHECK(gmap != MAP_FAILED);
	CHECK_EQ(userptr(fd, gmap, 4096, I915_USERPTR_PROBE, &x), -EFAULT);
	/* made over mapped memory, unmapped before its first use */
	uint32_t hgone;
	CHECK_EQ(userptr(fd, hole, 4096, 0, &hgone), 0);
	CHECK_EQ(munmap(hole, 4096), 0);
	CHECK_EQ(run(fd, b1 + 9, 1, &hgone, (const uint32_t[]){ USER_ADDR }, 1), -EFAULT);
	struct drm_i915_gem_pread pr = { .handle = h, .size = 4, .data_ptr = (uintptr_t)&x };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr) ? errno : 0, EINVAL);

	/* 5: a running batch sees the client's write: it polls a dword of
	 * a PROT_WRITE-only userptr mapping (as IGT's userptr spinners are
	 * mapped) until the CPU writes 1 there, then stores */
	volatile uint32_t *wo = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(wo != MAP_FAILED);
	uint32_t hwo, bb;
	CHECK_EQ(userptr(fd, (void *)wo, 4096, 0, &hwo), 0);
	uint32_t b5[9];
	shim_sema_batch(b5, USER_ADDR, USER_ADDR + 4, 0x77);
	CHECK_EQ(submit(fd, b5, 9, &hwo, (const uint32_t[]){ USER_ADDR }, 1, &bb), 0);
	usleep(50000);
	struct drm_i915_gem_busy busy = { .handle = bb };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy), 0);
	CHECK(busy.busy != 0);
	CHECK_EQ(wo[1], 0);
	wo[0] = 1;
	struct drm_i915_gem_wait w = { .bo_handle = bb, .timeout_ns = 5000000000ll };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	CHECK_EQ(wo[1], 0x77);

	/* 6: a page registered with userfaultfd: the execbuf's thread
	 * faults it in, this process's handler thread fills it, the batch
	 * copies from it */
	int ufd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (ufd < 0) {
		printf("userfaultfd unavailable: case 6 not run\n");
		return test_exit();
	}
	struct uffdio_api api = { .api = UFFD_API };
	CHECK_EQ(ioctl(ufd, UFFDIO_API, &api), 0);
	/* mapped as IGT's userfault subtest maps it: PROT_WRITE only */
	void *lazy = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct uffdio_register reg = { .range = { (uintptr_t)lazy, 4096 },
				       .mode = UFFDIO_REGISTER_MODE_MISSING };
	CHECK_EQ(ioctl(ufd, UFFDIO_REGISTER, &reg), 0);
	/* its handle is the number of a closed object over unmapped memory
	 * (drm_gem_handle_create: the lowest free id) */
	struct drm_gem_close gc = { .handle = hgone };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	uint32_t hl;
	CHECK_EQ(userptr(fd, lazy, 4096, 0, &hl), 0);
	CHECK_EQ(hl, hgone);
	struct uffd_job job = { ufd, 0 };
	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, uffd_fill, &job), 0);
	const uint32_t b6[] = {
		MI_COPY_MEM_MEM, USER_ADDR + 1024, 0, RO_ADDR + 8, 0,
		MI_BATCH_BUFFER_END,
	};
	CHECK_EQ(run(fd, b6, 6, (const uint32_t[]){ h, hl },
		     (const uint32_t[]){ USER_ADDR, RO_ADDR }, 2), 0);
	pthread_join(t, NULL);
	CHECK_EQ(job.faults, 1);
	CHECK_EQ(mem[256], 0xfa017ed);
	return test_exit();
}
