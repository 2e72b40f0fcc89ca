/* A fork child continues with every GEM object of its parent, however
 * many there are (src/shim/fork.c): 1100 objects of 128 KiB (each in a
 * memfd of its own, above the slab limit), each holding its index; the
 * child reads every index back and runs a batch in the last object. IGT's
 * gem_softpin evict-single-offset forks with 1025 such objects; the copy
 * table once held 1024 and the child got a fresh device (-ENOENT). */
#include "test.h"
#include "shim_gem.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define COUNT 1100
#define SIZE (128u << 10)

static int child(int fd, const uint32_t *handles)
{
	for (unsigned i = 0; i < COUNT; i++) {
		uint32_t v = ~0u;
		struct drm_i915_gem_pread r = { .handle = handles[i], .offset = 0, .size = 4,
						.data_ptr = (uintptr_t)&v };
		if (ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &r) || v != i)
			return 10;
	}
	struct drm_i915_gem_exec_object2 obj = { .handle = handles[COUNT - 1] };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj, .buffer_count = 1,
					       .batch_start_offset = 64 };
	return ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ? 11 : 0;
}

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	uint32_t *handles = calloc(COUNT, sizeof(*handles));
	for (unsigned i = 0; i < COUNT; i++) {
		handles[i] = shim_gem_create(fd, SIZE);
		uint32_t v = i;
		struct drm_i915_gem_pwrite w = { .handle = handles[i], .offset = 0, .size = 4,
						 .data_ptr = (uintptr_t)&v };
		CHECK(handles[i] && !ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &w));
	}
	uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_pwrite w = { .handle = handles[COUNT - 1], .offset = 64, .size = 8,
					 .data_ptr = (uintptr_t)bbe };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &w), 0);

	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(child(fd, handles));
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	free(handles);
	return test_exit();
}
