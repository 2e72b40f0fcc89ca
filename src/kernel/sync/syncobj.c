/* drm_syncobj: per-file handle tables and the objects they name, binary
 * and timeline. A timeline is kept as the points in the order they were
 * added, each a dma_fence_chain link (drivers/dma-buf/dma-fence-chain.c):
 * a point above the previous one continues its fence context (prev_seqno
 * = the previous point); one that is not (added out of order) starts a
 * new context and takes the previous seqno if that is higher. A link's
 * fence waits for it and every link before it. The fence for point P
 * (dma_fence_chain_find_seqno) is found from the newest link back: the
 * first link of another context than the newest, or whose prev_seqno is
 * below P. Leading points that have signaled are collected when new ones
 * arrive, so a long-lived timeline (one per queue in Mesa) stays small. */
#include "kernel/sync/syncobj.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/sync/sync_fd.h"

struct timeline_point {
	uint64_t seqno;
	uint64_t context;             /* dma_fence_chain's fence context */
	uint64_t prev_seqno;          /* the link before's, same context; else 0 */
	struct gt_fence *fence;
};

static uint64_t next_chain_context = 1;   /* atomic */

struct syncobj {
	int refcount;                 /* atomic */
	pthread_mutex_t lock;
	struct gt_fence *base;        /* binary payload, or below the chain */
	struct timeline_point *points;
	unsigned num_points, cap_points;
	uint64_t collected_seqno;     /* newest point collected as signaled */
	uint64_t collected_context;   /* and its context */
};

struct syncobj_table {
	pthread_mutex_t lock;
	struct syncobj **slots;       /* slots[h - 1] for handle h */
	uint32_t num_slots;
};

struct syncobj *syncobj_new(bool signaled)
{
	struct syncobj *so = calloc(1, sizeof(*so));
	if (!so)
		return NULL;
	so->refcount = 1;
	pthread_mutex_init(&so->lock, NULL);
	if (signaled)
		so->base = fence_create_signaled();
	return so;
}

struct syncobj *syncobj_ref(struct syncobj *so)
{
	if (so)
		__atomic_add_fetch(&so->refcount, 1, __ATOMIC_RELAXED);
	return so;
}

static void drop_payload_locked(struct syncobj *so)
{
	fence_put(so->base);
	so->base = NULL;
	for (unsigned i = 0; i < so->num_points; i++)
		fence_put(so->points[i].fence);
	so->num_points = 0;
	so->collected_seqno = 0;
}

void syncobj_unref(struct syncobj *so)
{
	if (!so || __atomic_sub_fetch(&so->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	drop_payload_locked(so);
	free(so->points);
	pthread_mutex_destroy(&so->lock);
	free(so);
}

void syncobj_replace_fence(struct syncobj *so, struct gt_fence *fence)
{
	pthread_mutex_lock(&so->lock);
	drop_payload_locked(so);
	so->base = fence_get(fence);
	pthread_mutex_unlock(&so->lock);
	fence_notify_change();  /* WAIT_FOR_SUBMIT waiters */
}

/* Drops signaled points at the front, keeping the newest one so the
 * timeline's head stays known. */
static void collect_signaled_locked(struct syncobj *so)
{
	if (so->base && fence_is_signaled(so->base) && !fence_error(so->base)) {
		fence_put(so->base);
		so->base = NULL;
	}
	unsigned drop = 0;
	while (!so->base && drop + 1 < so->num_points &&
	       fence_is_signaled(so->points[drop].fence) &&
	       !fence_error(so->points[drop].fence)) {
		so->collected_seqno = so->points[drop].seqno;
		so->collected_context = so->points[drop].context;
		fence_put(so->points[drop].fence);
		drop++;
	}
	if (drop) {
		so->num_points -= drop;
		memmove(so->points, so->points + drop, so->num_points * sizeof(*so->points));
	}
}

/* Grows the points array for one more. so->lock held. */
static bool grow_points_locked(struct syncobj *so)
{
	if (so->num_points < so->cap_points)
		return true;
	unsigned cap = so->cap_points ? so->cap_points * 2 : 4;
	void *grown = realloc(so->points, cap * sizeof(*so->points));
	if (!grown)
		return false;
	so->points = grown;
	so->cap_points = cap;
	return true;
}

int syncobj_reserve_point(struct syncobj *so)
{
	pthread_mutex_lock(&so->lock);
	bool ok = grow_points_locked(so);
	pthread_mutex_unlock(&so->lock);
	return ok ? 0 : -ENOMEM;
}

void syncobj_add_point(struct syncobj *so, uint64_t point, struct gt_fence *fence)
{
	pthread_mutex_lock(&so->lock);
	collect_signaled_locked(so);
	if (!grow_points_locked(so)) {
		/* Out of memory: wait for the fence instead of losing the
		 * point; the payload then holds a signaled fence. */
		pthread_mutex_unlock(&so->lock);
		fence_wait(fence, -1);
		pthread_mutex_lock(&so->lock);
		fence_put(so->base);
		so->base = fence_get(fence);
		pthread_mutex_unlock(&so->lock);
		fence_notify_change();
		return;
	}
	/* dma_fence_chain_init: continue the previous link's context when
	 * the point is later, else a new context at max(previous, point).
	 * The previous link may have been collected; a binary payload below
	 * the chain is no link. */
	struct timeline_point *pt = &so->points[so->num_points];
	const struct timeline_point *prev = so->num_points ? pt - 1 : NULL;
	bool has_prev = prev || so->collected_seqno;
	uint64_t prev_seqno = prev ? prev->seqno : so->collected_seqno;
	uint64_t prev_context = prev ? prev->context : so->collected_context;
	if (has_prev && point > prev_seqno) {
		pt->context = prev_context;
		pt->prev_seqno = prev_seqno;
	} else {
		pt->context = __atomic_fetch_add(&next_chain_context, 1, __ATOMIC_RELAXED);
		pt->prev_seqno = 0;
		if (has_prev && point < prev_seqno)
			point = prev_seqno;
	}
	pt->seqno = point;
	pt->fence = fence_get(fence);
	so->num_points++;
	pthread_mutex_unlock(&so->lock);
	fence_notify_change();
}

/* The fence for base plus points[0..last]: the only unsignaled one, or a
 * merge when several are still pending or one failed. */
static struct gt_fence *prefix_fence_locked(struct syncobj *so, unsigned last)
{
	struct gt_fence **parts = malloc((last + 2) * sizeof(*parts));
	struct gt_fence *result;
	unsigned n = 0;
	if (!parts)
		return NULL;
	if (so->base)
		parts[n++] = so->base;
	for (unsigned i = 0; i <= last; i++)
		parts[n++] = so->points[i].fence;
	unsigned pending = 0, failed = 0, pick = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!fence_is_signaled(parts[i])) {
			pending++;
			pick = i;
		} else if (fence_error(parts[i])) {
			failed++;
		}
	}
	if (!failed && pending <= 1)
		result = fence_get(parts[pending ? pick : n - 1]);
	else
		result = fence_merge(parts, n);
	free(parts);
	return result;
}

int syncobj_fence_at(struct syncobj *so, uint64_t point, struct gt_fence **out)
{
	int ret = 0;
	*out = NULL;
	pthread_mutex_lock(&so->lock);
	if (so->num_points == 0) {
		/* A binary payload is no chain: only point 0 exists. */
		if (point == 0 && so->base)
			*out = fence_get(so->base);
		else
			ret = -EINVAL;
	} else if (point == 0) {
		*out = prefix_fence_locked(so, so->num_points - 1);
	} else if (so->points[so->num_points - 1].seqno < point) {
		ret = -EINVAL;          /* not submitted yet */
	} else {
		/* dma_fence_chain_find_seqno: back from the newest link while
		 * it is of the newest's context and its predecessor's seqno
		 * still reaches point; past the first kept link, the link
		 * found was collected (signaled). */
		const struct timeline_point *head = &so->points[so->num_points - 1];
		unsigned i = so->num_points - 1;
		bool collected = false;
		while (so->points[i].context == head->context && so->points[i].prev_seqno >= point) {
			if (i == 0) {
				collected = true;
				break;
			}
			i--;
		}
		*out = collected ? fence_create_signaled() : prefix_fence_locked(so, i);
	}
	pthread_mutex_unlock(&so->lock);
	if (!ret && !*out)
		ret = -ENOMEM;
	return ret;
}

uint64_t syncobj_query_point(struct syncobj *so, bool last_submitted)
{
	uint64_t point;
	pthread_mutex_lock(&so->lock);
	if (so->num_points == 0) {
		point = 0;
	} else if (last_submitted) {
		point = so->points[so->num_points - 1].seqno;
	} else {
		point = so->collected_seqno;
		bool base_done = !so->base || fence_is_signaled(so->base);
		for (unsigned i = 0; base_done && i < so->num_points; i++) {
			if (!fence_is_signaled(so->points[i].fence))
				break;
			point = so->points[i].seqno;
		}
	}
	pthread_mutex_unlock(&so->lock);
	return point;
}

/* Tables. */

struct syncobj_table *syncobj_table_create(void)
{
	struct syncobj_table *t = calloc(1, sizeof(*t));
	if (t)
		pthread_mutex_init(&t->lock, NULL);
	return t;
}

void syncobj_table_destroy(struct syncobj_table *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->num_slots; i++)
		syncobj_unref(t->slots[i]);
	free(t->slots);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

int syncobj_table_add(struct syncobj_table *t, struct syncobj *so, uint32_t *handle)
{
	pthread_mutex_lock(&t->lock);
	uint32_t i = 0;
	while (i < t->num_slots && t->slots[i])
		i++;
	if (i == t->num_slots) {
		uint32_t n = t->num_slots ? t->num_slots * 2 : 16;
		void *grown = n > t->num_slots ? realloc(t->slots, n * sizeof(*t->slots)) : NULL;
		if (!grown) {
			pthread_mutex_unlock(&t->lock);
			return -ENOMEM;
		}
		t->slots = grown;
		memset(t->slots + t->num_slots, 0, (n - t->num_slots) * sizeof(*t->slots));
		t->num_slots = n;
	}
	t->slots[i] = syncobj_ref(so);
	*handle = i + 1;
	pthread_mutex_unlock(&t->lock);
	return 0;
}

struct syncobj *syncobj_lookup(struct syncobj_table *t, uint32_t handle)
{
	struct syncobj *so = NULL;
	if (!t)
		return NULL;
	pthread_mutex_lock(&t->lock);
	if (handle >= 1 && handle <= t->num_slots)
		so = syncobj_ref(t->slots[handle - 1]);
	pthread_mutex_unlock(&t->lock);
	return so;
}

int syncobj_table_remove(struct syncobj_table *t, uint32_t handle)
{
	struct syncobj *so = NULL;
	pthread_mutex_lock(&t->lock);
	if (handle >= 1 && handle <= t->num_slots) {
		so = t->slots[handle - 1];
		t->slots[handle - 1] = NULL;
	}
	pthread_mutex_unlock(&t->lock);
	if (!so)
		return -EINVAL;
	syncobj_unref(so);
	return 0;
}

bool syncobj_exists(struct syncobj_table *t, uint32_t handle)
{
	struct syncobj *so = syncobj_lookup(t, handle);
	syncobj_unref(so);
	return so != NULL;
}

struct gt_fence *syncobj_find_fence(struct syncobj_table *t, uint32_t handle,
				    uint64_t point, int *err)
{
	struct gt_fence *f = NULL;
	struct syncobj *so = syncobj_lookup(t, handle);
	int ret = so ? syncobj_fence_at(so, point, &f) : -ENOENT;
	syncobj_unref(so);
	if (err)
		*err = ret;
	return f;
}

int syncobj_set_fence(struct syncobj_table *t, uint32_t handle, uint64_t point,
		      struct gt_fence *f)
{
	struct syncobj *so = syncobj_lookup(t, handle);
	if (!so)
		return -ENOENT;
	if (point)
		syncobj_add_point(so, point, f);
	else
		syncobj_replace_fence(so, f);
	syncobj_unref(so);
	return 0;
}

/* Syncobj fds. */

static void *syncobj_obj_get(void *obj) { return syncobj_ref(obj); }
static void syncobj_obj_put(void *obj) { syncobj_unref(obj); }
static const struct sync_fd_ops syncobj_fd_ops = { syncobj_obj_get, syncobj_obj_put };

int syncobj_export_fd(struct syncobj *so)
{
	return sync_fd_create(SYNC_FD_SYNCOBJ, syncobj_ref(so), &syncobj_fd_ops,
			      "syncobj_file", NULL);
}

struct syncobj *syncobj_import_fd(int fd)
{
	return sync_fd_lookup(fd, SYNC_FD_SYNCOBJ, NULL);
}
