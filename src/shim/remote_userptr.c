/* USERPTR on the shared device, the client's part: i915 gets a userptr
 * object's pages in the execbuf (or SET_DOMAIN) of the calling thread,
 * faulting them in as the process's own accesses would, so a
 * userfaultfd handler of the client is asked (IGT gem_userptr_blits
 * userfault). The server reads the client's memory remotely, which
 * userfaultfd refuses (-EFAULT); so before such a call is forwarded this
 * thread touches one byte per page of the objects it names, as the
 * in-process execbuf does without its lock (kernel/execbuf_lookup.c). The
 * objects are those this process made (handle -> range, the last
 * RANGES ones, the newest first); a stale entry or one of another file
 * only costs a guarded read. */
#include <drm.h>
#include <i915_drm.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "common/user_copy.h"
#include "shim.h"

#define RANGES 256
#define PAGE 4096u

static struct {
	uint32_t handle;
	uint64_t ptr, size;
} ranges[RANGES];
static unsigned next;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static bool is(unsigned long request, unsigned long known)
{
	return _IOC_TYPE(request) == _IOC_TYPE(known) && _IOC_NR(request) == _IOC_NR(known);
}

static void touch(uint32_t handle)
{
	uint64_t ptr = 0, size = 0;
	pthread_mutex_lock(&lock);
	/* the newest first: a closed object's handle is given again */
	for (unsigned k = 1; k <= RANGES && k <= next && !size; k++) {
		unsigned i = (next - k) % RANGES;
		if (ranges[i].handle == handle) {
			ptr = ranges[i].ptr;
			size = ranges[i].size;
		}
	}
	pthread_mutex_unlock(&lock);
	for (uint64_t off = 0; off < size; off += PAGE) {
		uint8_t byte;
		if (copy_from_user_ptr(&byte, ptr + off, 1))
			break;   /* unmapped: the server says -EFAULT */
	}
}

void remote_userptr_before(unsigned long request, const void *arg)
{
	if (!__atomic_load_n(&next, __ATOMIC_RELAXED))
		return;
	struct drm_i915_gem_execbuffer2 eb;
	struct drm_i915_gem_set_domain sd;
	if (is(request, DRM_IOCTL_I915_GEM_EXECBUFFER2) &&
	    !copy_from_user_ptr(&eb, (uintptr_t)arg, sizeof(eb))) {
		for (uint32_t i = 0; i < eb.buffer_count && i < 4096; i++) {
			struct drm_i915_gem_exec_object2 entry;
			if (copy_from_user_ptr(&entry, eb.buffers_ptr + i * sizeof(entry),
					       sizeof(entry)))
				break;
			touch(entry.handle);
		}
	} else if (is(request, DRM_IOCTL_I915_GEM_SET_DOMAIN) &&
		   !copy_from_user_ptr(&sd, (uintptr_t)arg, sizeof(sd))) {
		touch(sd.handle);
	}
}

void remote_userptr_after(unsigned long request, const void *arg, int ret)
{
	struct drm_i915_gem_userptr u;
	if (ret || !is(request, DRM_IOCTL_I915_GEM_USERPTR) ||
	    copy_from_user_ptr(&u, (uintptr_t)arg, sizeof(u)))
		return;
	pthread_mutex_lock(&lock);
	ranges[next % RANGES].handle = u.handle;
	ranges[next % RANGES].ptr = u.user_ptr;
	ranges[next % RANGES].size = u.user_size;
	__atomic_store_n(&next, next + 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lock);
}
