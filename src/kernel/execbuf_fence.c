/* Explicit fences of an execbuf, as i915 takes them and Mesa 22.3 uses
 * them: I915_EXEC_FENCE_IN / FENCE_SUBMIT (a sync_file fd in the low half
 * of rsvd2), I915_EXEC_FENCE_ARRAY (cliprects_ptr -> num_cliprects
 * drm_i915_gem_exec_fence {handle, WAIT|SIGNAL} on binary syncobjs) and
 * the DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES extension (handles plus
 * timeline points). FENCE_SUBMIT waits for the fence's request to start
 * (go to its engine), not to complete; for another driver's fence or a
 * sw_sync point, for it to signal (i915_request_await_execution). */
#include "kernel/execbuf.h"

#include <errno.h>
#include <stdlib.h>

#include "kernel/file.h"
#include "kernel/sync/fence.h"
#include "common/user_copy.h"

/* i915's i915_user_extensions: a chain of at most this many. */
#define MAX_EXTENSIONS 512

static int add_fence(struct execbuf *eb, uint32_t handle, uint32_t flags, uint64_t point,
		     bool timeline)
{
	struct syncobj_table *t = file_syncobjs(eb->file);
	if (flags & __I915_EXEC_FENCE_UNKNOWN_FLAGS)
		return -EINVAL;
	if (!syncobj_exists(t, handle))
		return -ENOENT;
	/* Waiting and signaling the same timeline point would break it. */
	if (timeline && point && (flags & I915_EXEC_FENCE_SIGNAL) && (flags & I915_EXEC_FENCE_WAIT))
		return -EINVAL;
	struct gt_fence *fence = NULL;
	if (flags & I915_EXEC_FENCE_WAIT) {
		int err = 0;
		fence = syncobj_find_fence(t, handle, point, &err);
		if (!fence)
			return err ? err : -EINVAL;   /* nothing submitted for it */
	}
	if (!flags)
		return 0;
	struct eb_fence *f = realloc(eb->fences, (eb->nfences + 1) * sizeof(*f));
	if (!f) {
		fence_put(fence);
		return -ENOMEM;
	}
	eb->fences = f;
	f[eb->nfences++] = (struct eb_fence){ handle, flags, point, fence };
	return 0;
}

static int add_fence_array(struct execbuf *eb)
{
	const struct drm_i915_gem_execbuffer2 *args = eb->args;
	for (uint32_t i = 0; i < args->num_cliprects; i++) {
		struct drm_i915_gem_exec_fence uf;
		if (copy_from_user_ptr(&uf, args->cliprects_ptr + (uint64_t)i * sizeof(uf),
				       sizeof(uf)))
			return -EFAULT;
		int err = add_fence(eb, uf.handle, uf.flags, 0, false);
		if (err)
			return err;
	}
	return 0;
}

static int add_timeline_fences(struct execbuf *eb, uint64_t ext_ptr)
{
	struct drm_i915_gem_execbuffer_ext_timeline_fences tf;
	if (copy_from_user_ptr(&tf, ext_ptr, sizeof(tf)))
		return -EFAULT;
	for (uint64_t i = 0; i < tf.fence_count; i++) {
		struct drm_i915_gem_exec_fence uf;
		uint64_t point;
		if (copy_from_user_ptr(&uf, tf.handles_ptr + i * sizeof(uf), sizeof(uf)) ||
		    copy_from_user_ptr(&point, tf.values_ptr + i * sizeof(point), sizeof(point)))
			return -EFAULT;
		int err = add_fence(eb, uf.handle, uf.flags, point, true);
		if (err)
			return err;
	}
	return 0;
}

static int parse_extensions(struct execbuf *eb)
{
	const struct drm_i915_gem_execbuffer2 *args = eb->args;
	/* The chain reuses cliprects_ptr, so no fence array with it. */
	if ((args->flags & I915_EXEC_FENCE_ARRAY) || args->num_cliprects)
		return -EINVAL;
	uint64_t ptr = args->cliprects_ptr;
	for (unsigned n = 0; ptr; n++) {
		struct i915_user_extension ext;
		if (n == MAX_EXTENSIONS)
			return -E2BIG;
		if (copy_from_user_ptr(&ext, ptr, sizeof(ext)))
			return -EFAULT;
		if (ext.flags || ext.rsvd[0] || ext.rsvd[1] || ext.rsvd[2] || ext.rsvd[3])
			return -EINVAL;
		if (ext.name != DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES)
			return -EINVAL;
		int err = add_timeline_fences(eb, ptr);
		if (err)
			return err;
		ptr = ext.next_extension;
	}
	return 0;
}

int eb_parse_fences(struct execbuf *eb)
{
	uint64_t flags = eb->args->flags;
	int err;
	if (flags & I915_EXEC_USE_EXTENSIONS) {
		err = parse_extensions(eb);
		if (err)
			return err;
	}
	if (flags & I915_EXEC_FENCE_ARRAY) {
		err = add_fence_array(eb);
		if (err)
			return err;
	}
	const uint64_t in_flags = I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT;
	if (flags & in_flags) {
		if ((flags & in_flags) == in_flags)
			return -EINVAL;
		eb->in_fence = sync_file_import((int)(uint32_t)eb->args->rsvd2);
		if (!eb->in_fence)
			return -EINVAL;
		if (flags & I915_EXEC_FENCE_SUBMIT) {
			/* i915_request_await_execution: wait for the
			 * signaler to start, not to complete (gem_exec_schedule
			 * submit-*-slice: a batch ending a spinner runs beside
			 * it) */
			struct gt_fence *started = fence_execution_get(eb->in_fence);
			fence_put(eb->in_fence);
			eb->in_fence = started;
			if (!started)
				return -ENOMEM;
		}
	}
	return 0;
}

int eb_export_out_fence(struct execbuf *eb, struct gt_fence *done)
{
	if (!(eb->args->flags & I915_EXEC_FENCE_OUT))
		return -1;
	return sync_file_export(done);
}

void eb_signal_fences(struct execbuf *eb, struct gt_fence *done, int out_fd)
{
	struct syncobj_table *t = file_syncobjs(eb->file);
	for (unsigned i = 0; i < eb->nfences; i++)
		if (eb->fences[i].flags & I915_EXEC_FENCE_SIGNAL)
			syncobj_set_fence(t, eb->fences[i].handle, eb->fences[i].point, done);
	if (out_fd >= 0)
		eb->args->rsvd2 = (eb->args->rsvd2 & 0xffffffffull) | (uint64_t)out_fd << 32;
}

void eb_release_fences(struct execbuf *eb)
{
	for (unsigned i = 0; i < eb->nfences; i++)
		fence_put(eb->fences[i].fence);
	free(eb->fences);
	eb->fences = NULL;
	eb->nfences = 0;
	fence_put(eb->in_fence);
	eb->in_fence = NULL;
}
