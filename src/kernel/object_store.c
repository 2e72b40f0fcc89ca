/* The objects' backing store (object_store.h): slabs for small objects,
 * a memfd of its own for the others. */
#include "kernel/object_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_copy.h"
#include "common/map_file.h"
#include "common/trace.h"
#include "kernel/obj_ino.h"
#include "kernel/object.h"

#define SLAB_PAGES (STORE_SLAB_BYTES / GT_PAGE_SIZE)

struct store_slab {
	struct list_node link;
	int fd;
	uint8_t *map;
	uint64_t free_pages;
	uint64_t hint;                       /* first page to search from */
	uint64_t used[SLAB_PAGES / 64];      /* a bit per page */
};

static bool page_used(const struct store_slab *s, uint64_t p)
{
	return s->used[p / 64] >> (p % 64) & 1;
}

static void mark_pages(struct store_slab *s, uint64_t first, uint64_t n, bool used)
{
	for (uint64_t p = first; p < first + n; p++) {
		if (used)
			s->used[p / 64] |= 1ull << (p % 64);
		else
			s->used[p / 64] &= ~(1ull << (p % 64));
	}
	s->free_pages = used ? s->free_pages - n : s->free_pages + n;
}

/* First run of n free pages at or after the hint, then from the start;
 * SLAB_PAGES when there is none. */
static uint64_t find_run(const struct store_slab *s, uint64_t n)
{
	for (int pass = 0; pass < 2; pass++) {
		uint64_t p = pass ? 0 : s->hint, end = pass ? s->hint + n : SLAB_PAGES;
		if (end > SLAB_PAGES)
			end = SLAB_PAGES;
		uint64_t run = 0;
		for (; p < end; p++) {
			if (!(p % 64) && s->used[p / 64] == ~0ull) {
				run = 0;
				p += 63;
				continue;
			}
			run = page_used(s, p) ? 0 : run + 1;
			if (run == n)
				return p + 1 - n;
		}
	}
	return SLAB_PAGES;
}

static struct store_slab *slab_create(struct obj_store *store)
{
	struct store_slab *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	/* not "gtsim-gem": that names dma-bufs (an object's own memfd) */
	s->fd = memfd_create("gtsim-slab", MFD_CLOEXEC);
	if (s->fd < 0 || ftruncate(s->fd, (off_t)STORE_SLAB_BYTES))
		goto fail;
	s->map = mmap(NULL, STORE_SLAB_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (s->map == MAP_FAILED)
		goto fail;
	s->free_pages = SLAB_PAGES;
	list_add_tail(&store->slabs, &s->link);
	store->nslabs++;
	TRACE(TRACE_GEM, "store: slab %u (%llu MiB) created", store->nslabs,
	      (unsigned long long)(STORE_SLAB_BYTES >> 20));
	return s;
fail:
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	return NULL;
}

static void slab_destroy(struct obj_store *store, struct store_slab *s)
{
	list_del(&s->link);
	store->nslabs--;
	munmap(s->map, STORE_SLAB_BYTES);
	close(s->fd);
	free(s);
}

void store_init(struct obj_store *store)
{
	list_init(&store->slabs);
	store->nslabs = 0;
}

void store_fini(struct obj_store *store)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &store->slabs) {
		struct store_slab *s = list_entry(n, struct store_slab, link);
		if (s->free_pages == SLAB_PAGES)
			slab_destroy(store, s);
	}
}

static int attach_slab(struct obj_store *store, struct gem_object *obj)
{
	uint64_t pages = obj->size / GT_PAGE_SIZE, first = SLAB_PAGES;
	struct store_slab *s = NULL;
	struct list_node *n, *t;
	list_for_each_safe(n, t, &store->slabs) {
		s = list_entry(n, struct store_slab, link);
		if (s->free_pages >= pages && (first = find_run(s, pages)) < SLAB_PAGES)
			break;
	}
	if (first == SLAB_PAGES) {
		if (!(s = slab_create(store)))
			return -ENOMEM;
		first = 0;
	}
	mark_pages(s, first, pages, true);
	s->hint = first + pages;
	if (s->hint >= SLAB_PAGES)
		s->hint = 0;
	obj->slab = s;
	obj->slab_offset = first * GT_PAGE_SIZE;
	obj->memfd = s->fd;
	obj->memfd_offset = obj->slab_offset;
	obj->map = s->map + obj->slab_offset;
	obj_ino_set(obj, 0, 0);
	obj->own_file = false;
	return 0;
}

/* After an own file is mapped: its descriptor goes when the mapping can
 * give one back (map_file.h), so that no object holds a descriptor. The
 * descriptor kept, or -1. */
static int own_fd_keep(int fd)
{
	if (!map_file_reopen_works())
		return fd;
	close(fd);
	return -1;
}

/* A memfd of size bytes mapped at addr (MAP_FIXED when addr is given), its
 * inode in *st; the descriptor, or -errno. */
static int own_memfd(uint64_t size, void **addr, struct stat *st)
{
	int fd = memfd_create("gtsim-gem", MFD_CLOEXEC);
	if (fd < 0)
		return -ENOMEM;
	if (ftruncate(fd, (off_t)size) || fstat(fd, st)) {
		close(fd);
		return -ENOMEM;
	}
	void *map = mmap(*addr, size, PROT_READ | PROT_WRITE,
			 MAP_SHARED | (*addr ? MAP_FIXED : 0), fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		return -ENOMEM;
	}
	*addr = map;
	return fd;
}

int store_attach(struct obj_store *store, struct gem_object *obj)
{
	obj->slab = NULL;
	if (obj->size <= STORE_SLAB_MAX_OBJECT)
		return attach_slab(store, obj);
	void *map = NULL;
	struct stat st;
	int fd = own_memfd(obj->size, &map, &st);
	if (fd < 0)
		return fd;
	obj->memfd = own_fd_keep(fd);
	obj->memfd_offset = 0;
	obj->own_file = true;
	obj->map = map;
	obj_ino_set(obj, st.st_ino, st.st_dev);
	return 0;
}

int store_open(const struct gem_object *obj, int flags)
{
	int fd;
	if (store_in_slab(obj)) {
		fd = fcntl(obj->memfd, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? -errno : fd;
	}
	if (obj->memfd < 0)
		return map_file_open(obj->map, obj->size, flags);
	/* a new open, so that the access mode is flags' (a dma-buf's DRM_RDWR) */
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", obj->memfd);
	fd = open(path, flags);
	return fd < 0 ? -errno : fd;
}

void store_punch(struct gem_object *obj)
{
	/* without a descriptor: the same hole punched through the mapping */
	if (obj->memfd < 0)
		(void)madvise(obj->map, obj->size, MADV_REMOVE);
	else
		(void)fallocate(obj->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)obj->memfd_offset, (off_t)obj->size);
}

bool store_in_slab(const struct gem_object *obj)
{
	return obj->slab && !obj->own_file;
}

int store_own(struct gem_object *obj)
{
	if (!store_in_slab(obj))
		return 0;
	struct store_slab *s = obj->slab;
	int fd = memfd_create("gtsim-gem", MFD_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -ENOMEM;
	if (ftruncate(fd, (off_t)obj->size) || fstat(fd, &st) ||
	    file_copy_data(fd, 0, s->fd, (off_t)obj->slab_offset, (off_t)obj->size)) {
		close(fd);
		return -ENOMEM;
	}
	/* The new file replaces the slab's pages at the same host address:
	 * the physical range and every pointer into map stay as they are. */
	if (mmap(obj->map, obj->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
	    MAP_FAILED) {
		close(fd);
		return -ENOMEM;
	}
	(void)fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			(off_t)obj->slab_offset, (off_t)obj->size);
	obj->memfd = own_fd_keep(fd);
	obj->memfd_offset = 0;
	obj->own_file = true;
	obj_ino_set(obj, st.st_ino, st.st_dev);
	TRACE(TRACE_GEM, "store: object %p (%llu bytes) moved to a memfd of its own",
	      (void *)obj, (unsigned long long)obj->size);
	return 0;
}

void store_detach(struct obj_store *store, struct gem_object *obj)
{
	struct store_slab *s = obj->slab;
	if (!s) {
		munmap(obj->map, obj->size);
		if (obj->memfd >= 0)
			close(obj->memfd);
		return;
	}
	if (obj->own_file) {
		/* promoted: the slab's own pages go back under its mapping */
		int kept = obj->memfd;
		void *p = mmap(obj->map, obj->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			       s->fd, (off_t)obj->slab_offset);
		if (kept >= 0)
			close(kept);
		/* else the range stays the other file's: keep it out of use */
		if (p == MAP_FAILED)
			return;
	}
	(void)fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			(off_t)obj->slab_offset, (off_t)obj->size);
	mark_pages(s, obj->slab_offset / GT_PAGE_SIZE, obj->size / GT_PAGE_SIZE, false);
	/* an empty slab goes (a failed ioctl leaves no descriptor behind) */
	if (s->free_pages == SLAB_PAGES)
		slab_destroy(store, s);
}
