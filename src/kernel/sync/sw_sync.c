/* Software timelines (drivers/dma-buf/sw_sync.c, Linux 6.1), which IGT's
 * sw_sync tests and the scheduling tests use to hold back work:
 *  - a timeline starts at 0; SW_SYNC_IOC_CREATE_FENCE gives a sync_file of
 *    a fence that signals once the timeline reaches `value` (at once when
 *    it already has: !__dma_fence_is_later(value, timeline), 32-bit
 *    wrap-safe);
 *  - SW_SYNC_IOC_INC advances it by a count (in steps of at most INT_MAX,
 *    as sw_sync_ioctl_inc) and signals the fences it passed;
 *  - closing the timeline signals its pending fences with -ENOENT
 *    (sw_sync_debugfs_release). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "gtsim/gtsim.h"
#include "kernel/sync/fence.h"

/* include/uapi/linux/sync_file.h keeps these out of its header. */
struct sw_sync_create_fence_data {
	uint32_t value;
	char name[32];
	int32_t fence;
};
#define SW_SYNC_IOC_MAGIC 'W'
#define SW_SYNC_IOC_CREATE_FENCE _IOWR(SW_SYNC_IOC_MAGIC, 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC _IOW(SW_SYNC_IOC_MAGIC, 1, uint32_t)

struct sw_point {
	uint32_t seqno;
	struct gt_fence *fence;
	struct sw_point *next;
};

struct gtsim_sw_timeline {
	pthread_mutex_t lock;
	uint32_t value;
	struct sw_point *points;   /* pending */
};

static bool is_later(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

struct gtsim_sw_timeline *gtsim_sw_sync_create(void)
{
	struct gtsim_sw_timeline *tl = calloc(1, sizeof(*tl));
	if (tl)
		pthread_mutex_init(&tl->lock, NULL);
	return tl;
}

/* Unlinks the points the timeline passed (error: -ENOENT on close, 0 on
 * INC) into *done, to be signaled outside the lock. */
static struct sw_point *take_passed(struct gtsim_sw_timeline *tl, bool all)
{
	struct sw_point *done = NULL, **pp = &tl->points;
	while (*pp) {
		struct sw_point *p = *pp;
		if (all || !is_later(p->seqno, tl->value)) {
			*pp = p->next;
			p->next = done;
			done = p;
		} else {
			pp = &p->next;
		}
	}
	return done;
}

static void signal_points(struct sw_point *p, int error)
{
	while (p) {
		struct sw_point *next = p->next;
		fence_signal(p->fence, error);
		fence_put(p->fence);
		free(p);
		p = next;
	}
}

void gtsim_sw_sync_destroy(struct gtsim_sw_timeline *tl)
{
	if (!tl)
		return;
	pthread_mutex_lock(&tl->lock);
	struct sw_point *pending = take_passed(tl, true);
	pthread_mutex_unlock(&tl->lock);
	signal_points(pending, -ENOENT);
	pthread_mutex_destroy(&tl->lock);
	free(tl);
}

static int create_fence(struct gtsim_sw_timeline *tl, struct sw_sync_create_fence_data *d)
{
	struct gt_fence *f = NULL;
	pthread_mutex_lock(&tl->lock);
	if (!is_later(d->value, tl->value)) {
		f = fence_create_signaled();
	} else {
		struct sw_point *p = calloc(1, sizeof(*p));
		f = p ? fence_create() : NULL;
		if (f) {
			p->seqno = d->value;
			p->fence = fence_get(f);
			fence_set_context(f, (uintptr_t)tl, d->value);
			p->next = tl->points;
			tl->points = p;
		} else {
			free(p);
		}
	}
	pthread_mutex_unlock(&tl->lock);
	if (!f)
		return -ENOMEM;
	int fd = sync_file_export(f);
	fence_put(f);
	if (fd < 0)
		return fd;
	d->fence = fd;
	return 0;
}

static void inc(struct gtsim_sw_timeline *tl, uint32_t count)
{
	do {
		uint32_t step = count > INT_MAX ? INT_MAX : count;
		count -= step;
		pthread_mutex_lock(&tl->lock);
		tl->value += step;
		struct sw_point *done = take_passed(tl, false);
		pthread_mutex_unlock(&tl->lock);
		signal_points(done, 0);
	} while (count);
}

int gtsim_sw_sync_ioctl(struct gtsim_sw_timeline *tl, unsigned long request, void *arg)
{
	if (!tl)
		return -EBADF;
	switch (request) {
	case SW_SYNC_IOC_CREATE_FENCE:
		return arg ? create_fence(tl, arg) : -EFAULT;
	case SW_SYNC_IOC_INC:
		if (!arg)
			return -EFAULT;
		inc(tl, *(const uint32_t *)arg);
		return 0;
	default:
		return -ENOTTY;
	}
}
