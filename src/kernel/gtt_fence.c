/* The fenced GTT view of tiled objects (gtt_fence.h).
 *
 * One view per object (a linear shadow memfd, a state per page) and a
 * registry of the client's mappings of views, read by the fault hook.
 * view_lock guards both; lock order dev->lock, then view_lock. Nothing
 * done under view_lock touches a client mapping (only the shadow's own
 * host mapping and the object's), so the hook never faults with it held.
 * Protections change through the raw system call: the shim's mprotect is
 * the mmu notifier's entry, not ours. */
#include "kernel/gtt_fence.h"

#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "common/map_file.h"
#include "common/sigfault.h"
#include "common/trace.h"
#include "gpu/surface/surface.h"
#include "gtsim/gtsim.h"
#include "kernel/device.h"
#include "kernel/object.h"

enum { PAGE_STALE, PAGE_CLEAN, PAGE_DIRTY };

struct gtt_view {
	struct gem_object *obj;    /* NULL once the object is gone */
	int memfd;
	uint8_t *shadow;           /* host mapping of memfd, RW */
	uint8_t *state;            /* per page */
	uint64_t size;
	unsigned surface_tiling;   /* enum surface_tiling, as of the last sync */
	uint32_t stride;
};

struct view_map {
	uint64_t start, end;
	uint64_t off;              /* the view's byte at start */
	struct gtt_view *view;     /* NULL: free */
	int prot;                  /* what the client asked for */
};

static pthread_mutex_t view_lock = PTHREAD_MUTEX_INITIALIZER;
static struct view_map *maps;
static unsigned nmaps;
static unsigned maps_used;            /* atomic: quick test for munmap */
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;

static unsigned to_surface_tiling(uint32_t i915_tiling)
{
	return i915_tiling == I915_TILING_X ? SURFACE_TILE_X :
	       i915_tiling == I915_TILING_Y ? SURFACE_TILE_Y : SURFACE_LINEAR;
}

static void set_prot(uint64_t addr, uint64_t len, int prot)
{
	syscall(SYS_mprotect, (void *)(uintptr_t)addr, (size_t)len, prot);
}

/* Page p's protection in every mapping of v, as its state allows. */
static void protect_page(struct gtt_view *v, uint64_t p)
{
	uint64_t off = p * GT_PAGE_SIZE;
	for (unsigned i = 0; i < nmaps; i++) {
		struct view_map *m = &maps[i];
		if (m->view != v || off < m->off || m->start + (off - m->off) >= m->end)
			continue;
		int prot = v->state[p] == PAGE_STALE ? PROT_NONE :
			   v->state[p] == PAGE_CLEAN ? (m->prot & PROT_READ) : m->prot;
		set_prot(m->start + (off - m->off), GT_PAGE_SIZE, prot);
	}
}

/* Copies between byte L.. of the linear view and the tiled object, one
 * contiguous run at a time (surface_row_run): to_view detiles, else tiles
 * back. Bytes whose tiled address lies past the object (a partial last
 * row of tiles) read as zero and are dropped on write. */
static void copy_page(struct gtt_view *v, uint64_t p, bool to_view)
{
	uint8_t *tiled = v->obj->map;
	uint64_t end = (p + 1) * GT_PAGE_SIZE;
	for (uint64_t l = p * GT_PAGE_SIZE; l < end;) {
		uint64_t run = end - l, src = l;
		if (v->surface_tiling != SURFACE_LINEAR && v->stride) {
			uint64_t y = l / v->stride, x = l % v->stride;
			uint64_t r = surface_row_run(v->surface_tiling, x);
			if (r > v->stride - x)
				r = v->stride - x;
			if (r < run)
				run = r;
			src = surface_tiled_offset(v->surface_tiling, x, y, v->stride);
		}
		bool inside = src < v->obj->size && run <= v->obj->size - src;
		if (to_view) {
			if (inside)
				memcpy(v->shadow + l, tiled + src, run);
			else
				memset(v->shadow + l, 0, run);
		} else if (inside) {
			memcpy(tiled + src, v->shadow + l, run);
		}
		l += run;
	}
}

/* The fault hook: an access to a stale page detiles it, a write makes it
 * dirty (and writable). Faults outside views, and writes to a mapping the
 * client made read-only, are not ours. */
static bool view_fault(int sig, siginfo_t *info, void *uctx)
{
	if (sig != SIGSEGV || !__atomic_load_n(&maps_used, __ATOMIC_ACQUIRE))
		return false;
	uint64_t a = (uintptr_t)info->si_addr;
#if defined(__x86_64__)
	bool write = (((ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
	(void)uctx;
	bool write = true;
#endif
	bool handled = false;
	pthread_mutex_lock(&view_lock);
	for (unsigned i = 0; i < nmaps; i++) {
		struct view_map *m = &maps[i];
		if (!m->view || a < m->start || a >= m->end)
			continue;
		struct gtt_view *v = m->view;
		uint64_t p = (a - m->start + m->off) / GT_PAGE_SIZE;
		if (!v->obj || (write && !(m->prot & PROT_WRITE)) ||
		    (!write && !(m->prot & PROT_READ)))
			break;
		if (v->state[p] == PAGE_STALE) {
			copy_page(v, p, true);
			v->state[p] = PAGE_CLEAN;
		}
		if (write)
			v->state[p] = PAGE_DIRTY;
		protect_page(v, p);
		handled = true;
		break;
	}
	pthread_mutex_unlock(&view_lock);
	return handled;
}

static void install_hook(void)
{
	sigfault_add_hook(view_fault);
}

static struct gtt_view *view_create(struct gem_object *obj)
{
	struct gtt_view *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->size = obj->size;
	v->state = calloc(obj->size / GT_PAGE_SIZE, 1);
	v->memfd = memfd_create("gtsim-gtt-view", MFD_CLOEXEC);
	if (!v->state || v->memfd < 0 || ftruncate(v->memfd, (off_t)obj->size))
		goto fail;
	v->shadow = (void *)syscall(SYS_mmap, NULL, (size_t)obj->size, PROT_READ | PROT_WRITE,
				    MAP_SHARED, v->memfd, 0);
	if (v->shadow == MAP_FAILED)
		goto fail;
	/* the shadow's mapping keeps the file: no descriptor per view
	 * (common/map_file.h) */
	if (map_file_reopen_works()) {
		close(v->memfd);
		v->memfd = -1;
	}
	v->obj = obj;
	v->surface_tiling = to_surface_tiling(obj->tiling);
	v->stride = obj->stride;
	return v;
fail:
	if (v->memfd >= 0)
		close(v->memfd);
	free(v->state);
	free(v);
	return NULL;
}

static int map_add(uint64_t start, uint64_t end, struct gtt_view *v, int prot)
{
	unsigned i = 0;
	while (i < nmaps && maps[i].view)
		i++;
	if (i == nmaps) {
		struct view_map *grown = realloc(maps, (nmaps + 8) * sizeof(*maps));
		if (!grown)
			return -ENOMEM;
		memset(grown + nmaps, 0, 8 * sizeof(*maps));
		maps = grown;
		nmaps += 8;
	}
	maps[i] = (struct view_map){ .start = start, .end = end, .view = v, .prot = prot };
	__atomic_fetch_add(&maps_used, 1, __ATOMIC_RELEASE);
	return 0;
}

void *gtt_fence_map(struct gem_object *obj, void *addr, size_t len, int prot, int flags)
{
	pthread_once(&hook_once, install_hook);
	pthread_mutex_lock(&view_lock);
	if (!obj->gtt_view)
		obj->gtt_view = view_create(obj);
	struct gtt_view *v = obj->gtt_view;
	void *p = MAP_FAILED;
	int err = ENOMEM;
	if (v) {
		int fd = v->memfd >= 0 ? v->memfd
				       : map_file_open(v->shadow, (size_t)v->size, O_RDWR | O_CLOEXEC);
		p = fd < 0 ? MAP_FAILED
			   : (void *)syscall(SYS_mmap, addr, len, PROT_NONE, flags, fd, 0);
		err = fd < 0 ? -fd : p == MAP_FAILED ? errno : 0;
		if (fd >= 0 && fd != v->memfd)
			close(fd);
	}
	if (p != MAP_FAILED) {
		if (map_add((uintptr_t)p, (uintptr_t)p + len, v, prot)) {
			syscall(SYS_munmap, p, len);
			p = MAP_FAILED;
			err = ENOMEM;
		} else {
			for (uint64_t pg = 0; pg * GT_PAGE_SIZE < len; pg++)
				if (v->state[pg] != PAGE_STALE)
					protect_page(v, pg);
		}
	}
	pthread_mutex_unlock(&view_lock);
	TRACE(TRACE_GEM, "mmap gtt: tiled object %p (tiling %u, stride %u) through a fence: "
	      "linear view at %p", (void *)obj, obj->tiling, obj->stride, p);
	if (p == MAP_FAILED)
		errno = err;
	return p;
}

/* Dirty pages back into the object, every page stale. view_lock held. */
static void view_flush(struct gtt_view *v)
{
	uint64_t pages = v->size / GT_PAGE_SIZE, dirty = 0, touched = 0;
	for (uint64_t p = 0; p < pages; p++) {
		if (v->state[p] == PAGE_STALE)
			continue;
		if (v->state[p] == PAGE_DIRTY) {
			copy_page(v, p, false);
			dirty++;
		}
		v->state[p] = PAGE_STALE;
		touched++;
	}
	if (touched)
		for (unsigned i = 0; i < nmaps; i++)
			if (maps[i].view == v)
				set_prot(maps[i].start, maps[i].end - maps[i].start, PROT_NONE);
	if (dirty)
		TRACE(TRACE_GEM, "gtt fence: object %p, %llu dirty pages tiled back", (void *)v->obj,
		      (unsigned long long)dirty);
}

void gtt_fence_sync(struct gem_object *obj)
{
	if (!obj->gtt_view)
		return;
	pthread_mutex_lock(&view_lock);
	struct gtt_view *v = obj->gtt_view;
	view_flush(v);
	v->surface_tiling = to_surface_tiling(obj->tiling);
	v->stride = obj->stride;
	pthread_mutex_unlock(&view_lock);
}

void gtt_fence_release(struct gem_object *obj)
{
	struct gtt_view *v = obj->gtt_view;
	if (!v)
		return;
	pthread_mutex_lock(&view_lock);
	view_flush(v);
	/* The mappings keep the shadow's pages: they become plain memory. */
	for (unsigned i = 0; i < nmaps; i++)
		if (maps[i].view == v) {
			set_prot(maps[i].start, maps[i].end - maps[i].start, maps[i].prot);
			maps[i].view = NULL;
			__atomic_fetch_sub(&maps_used, 1, __ATOMIC_RELEASE);
		}
	syscall(SYS_munmap, v->shadow, (size_t)v->size);
	if (v->memfd >= 0)
		close(v->memfd);
	free(v->state);
	free(v);
	obj->gtt_view = NULL;
	pthread_mutex_unlock(&view_lock);
}

void gtsim_gtt_views_forget(void *addr, size_t len)
{
	if (!__atomic_load_n(&maps_used, __ATOMIC_ACQUIRE) || !len)
		return;
	uint64_t start = (uintptr_t)addr, end = start + len;
	pthread_mutex_lock(&view_lock);
	for (unsigned i = 0; i < nmaps; i++) {
		struct view_map *m = &maps[i];
		if (!m->view || m->end <= start || end <= m->start)
			continue;
		/* The view's pages stay in the shadow; dirty ones are tiled
		 * back at the object's next synchronisation point. A mapping
		 * cut at its head or tail keeps its rest; one cut inside keeps
		 * its head, and the tail becomes plain memory. */
		if (start <= m->start && end >= m->end) {
			m->view = NULL;
			__atomic_fetch_sub(&maps_used, 1, __ATOMIC_RELEASE);
		} else if (start <= m->start) {
			m->off += end - m->start;
			m->start = end;
		} else {
			if (end < m->end)
				set_prot(end, m->end - end, m->prot);
			m->end = start;
		}
	}
	pthread_mutex_unlock(&view_lock);
}
