/* DRM_IOCTL_I915_GEM_EXECBUFFER2 (and _WR, the same number): the phases of
 * i915's i915_gem_do_execbuffer in its order, so that each bad argument
 * gets the errno i915 gives, and a failing call changes nothing userspace
 * can see (no request, no relocation written, offsets not reported).
 *   1. argument checks, exec list copied (EINVAL, EFAULT), EXEC_SECURE
 *      (EPERM: not DRM master), extensions and fences (EINVAL, ENOENT);
 *   2. context (ENOENT), engine (EINVAL), objects (ENOENT, EINVAL),
 *      banned context or wedged device (EIO);
 *   3. reservation in the context's PPGTT, relocations if anything moved
 *      or userspace did not promise I915_EXEC_NO_RELOC;
 *   4. the request: dependencies, objects made active, seqno, ring;
 *   5. TAIL written after dev->lock is dropped; new offsets reported. */
#include "kernel/execbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "kernel/request.h"
#include "common/user_copy.h"
#include "kernel/vm.h"

/* i915 takes the exec list in one kvmalloc_array of count + 2 elements
 * (the object, its vma pointer and flags), and kvmalloc refuses more than
 * INT_MAX bytes: a longer list is -ENOMEM before anything is read (a
 * fuzzed count near 2^30 allocated 59 GB here: fuzz_ioctl). */
#define EB_I915_ELEMENT (sizeof(struct drm_i915_gem_exec_object2) + sizeof(void *) + \
			 sizeof(unsigned int))

static int eb_copy_exec(struct execbuf *eb)
{
	size_t n = eb->count;
	if ((uint64_t)(n + 2) * EB_I915_ELEMENT > INT_MAX)
		return -ENOMEM;
	if (n <= EB_STACK) {
		eb->exec = eb->exec_stack;
		eb->eo = eb->eo_stack;
	} else {
		eb->exec = malloc(n * sizeof(*eb->exec));
		eb->eo = calloc(n, sizeof(*eb->eo));
		if (!eb->exec || !eb->eo)
			return -ENOMEM;
	}
	/* A fault-guarded copy (user_copy.h): a bad pointer is -EFAULT, not a
	 * crash, and no system call on the hot path. */
	if (copy_from_user_ptr(eb->exec, eb->args->buffers_ptr, n * sizeof(*eb->exec)))
		return -EFAULT;
	return 0;
}

/* Report the objects' addresses (canonical) where they changed. */
static void eb_report_offsets(struct execbuf *eb)
{
	for (unsigned i = 0; i < eb->count; i++) {
		if (!eb->eo[i].moved)
			continue;
		uint64_t off = gen8_canonical(eb->eo[i].vma->start);
		uint64_t uptr = eb->args->buffers_ptr + (uint64_t)i * sizeof(*eb->exec) +
				offsetof(struct drm_i915_gem_exec_object2, offset);
		copy_to_user_ptr(uptr, &off, sizeof(off));
	}
}

/* eb_locked's answer when the ring is nearly full: wait, then again. */
#define EB_THROTTLE 1

/* Phases 2-4 under dev->lock. */
static int eb_locked(struct execbuf *eb, struct rq_engine **kick)
{
	requests_retire(eb->dev);
	eb->ctx = ctx_lookup(eb->file, (uint32_t)eb->args->rsvd1);
	if (!eb->ctx)
		return -ENOENT;
	int err = eb_select_engine(eb->args, eb->ctx, &eb->engine, &eb->engine_slot);
	/* i915's eb_pin_engine throttles before anything else is done for
	 * the request: the caller waits without dev->lock, then starts
	 * again. */
	if (!err) {
		/* the context's own ring on the engine (lrc.h), if it has run
		 * there: i915 throttles on ce->ring */
		struct rq_engine *e = &eb->dev->requests->engine[eb->engine];
		unsigned slot = eb->engine_slot % CTX_MAX_ENGINES;
		uint32_t id = eb->ctx->lrc_slot[slot];
		eb->ring = id && eb->ctx->lrc_engine[slot] == eb->engine ? lrc_slot_ring(e, id) : NULL;
	}
	if (!err && !eb->throttled && request_throttle_needed(&eb->dev->requests->engine[eb->engine],
							      eb->ring))
		err = EB_THROTTLE;
	if (!err)
		err = eb_lookup_objects(eb);
	if (!err && (eb->ctx->banned || __atomic_load_n(&eb->dev->wedged, __ATOMIC_ACQUIRE)))
		err = -EIO;
	if (!err)
		err = eb_reserve(eb);
	if (!err && eb->has_reloc)
		err = eb_relocate(eb);
	if (!err)
		err = eb_submit(eb, kick);
	if (!err)
		eb_report_offsets(eb);
	eb_unpin(eb);
	return err;
}

int i915_gem_execbuffer2_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_execbuffer2 *args = arg;
	struct execbuf eb;
	struct rq_engine *kick = NULL;
	int err;

	if (args->buffer_count < 1 || args->buffer_count > INT_MAX)
		return -EINVAL;
	err = eb_check_args(args);
	if (err)
		return err;
	/* Only the fields the phases read need clearing. */
	eb.file = file;
	eb.dev = file->dev;
	eb.args = args;
	eb.exec = NULL;
	eb.eo = NULL;
	eb.count = args->buffer_count;
	eb.looked_up = 0;
	eb.ctx = NULL;
	eb.batch_start = args->batch_start_offset;
	eb.batch_len = args->batch_len;
	eb.has_reloc = !(args->flags & I915_EXEC_NO_RELOC);
	eb.in_fence = NULL;
	eb.fences = NULL;
	eb.nfences = 0;
	eb.handle_index = NULL;
	eb.throttled = false;
	eb.ring = NULL;
	eb.fault_in = NULL;
	eb.nfault_in = 0;
	eb.faulted_in = false;

	err = eb_copy_exec(&eb);
	if (!err && (args->flags & I915_EXEC_SECURE))
		err = -EPERM;
	if (!err)
		err = eb_parse_fences(&eb);
	while (!err) {
		pthread_mutex_lock(&eb.dev->lock);
		err = eb_locked(&eb, &kick);
		eb_release_objects(&eb);
		ctx_put(eb.ctx);
		eb.ctx = NULL;
		pthread_mutex_unlock(&eb.dev->lock);
		if (err == EB_FAULT_IN) {
			eb_userptr_fault_in(&eb);
			err = 0;
			continue;
		}
		if (err != EB_THROTTLE)
			break;
		err = request_throttle(&eb.dev->requests->engine[eb.engine], eb.ring,
				       ioctl_file_flags() & O_NONBLOCK);
		eb.throttled = true;
	}
	if (kick)
		request_kick(kick);
	eb_release_fences(&eb);
	free(eb.handle_index);
	free(eb.fault_in);
	if (eb.exec != eb.exec_stack) {
		free(eb.exec);
		free(eb.eo);
	}
	if (err)
		TRACE(TRACE_GEM, "execbuf failed: %d", err);
	return err;
}
