/* GEM_USERPTR objects of a client of the device server
 * (userptr_shadow.h). */
#include "kernel/server/userptr_shadow.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "common/trace.h"
#include "common/user_copy.h"
#include "kernel/object.h"
#include "kernel/user_mm.h"

struct userptr_shadow {
	struct gem_object *obj;
	struct userptr_shadow *next, **prev;   /* in shadows */
	pthread_mutex_t lock;
	pid_t pid;             /* the creator: i915 keeps the creating mm */
	uint8_t *agreed;       /* both sides' contents at the last sync */
	uint8_t *client;       /* the client's contents, read at a sync */
	bool primed;           /* agreed and the shadow hold the client's memory */
};

/* Every shadow, for the watcher: while the GPU uses an object it is
 * synced every WATCH_NS, so that a batch polling the client's memory (a
 * semaphore, a spinner the CPU ends by writing into its userptr batch)
 * sees the client's write, and the client the GPU's, within about that. */
#define WATCH_NS 1000000
static pthread_mutex_t shadows_lock = PTHREAD_MUTEX_INITIALIZER;
static struct userptr_shadow *shadows;
static pthread_once_t watcher_once = PTHREAD_ONCE_INIT;

static void *watch(void *arg)
{
	(void)arg;
	for (;;) {
		nanosleep(&(struct timespec){ 0, WATCH_NS }, NULL);
		pthread_mutex_lock(&shadows_lock);
		for (struct userptr_shadow *s = shadows; s; s = s->next)
			if (__atomic_load_n(&s->obj->active_count, __ATOMIC_RELAXED))
				userptr_shadow_sync(s->obj);
		pthread_mutex_unlock(&shadows_lock);
	}
	return NULL;
}

static void start_watcher(void)
{
	pthread_t t;
	if (!pthread_create(&t, NULL, watch, NULL))
		pthread_detach(t);
}

struct gem_object *userptr_shadow_create(struct gtsim_device *dev, pid_t pid, uint64_t ptr,
					 uint64_t size, int *err)
{
	struct userptr_shadow *s = calloc(1, sizeof(*s));
	void *gpu = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *agreed = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *client = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct gem_object *obj = NULL;
	*err = -ENOMEM;
	if (s && gpu != MAP_FAILED && agreed != MAP_FAILED && client != MAP_FAILED)
		obj = obj_create_user(dev, gpu, size, err);
	if (!obj) {
		if (gpu != MAP_FAILED)
			munmap(gpu, size);
		if (agreed != MAP_FAILED)
			munmap(agreed, size);
		if (client != MAP_FAILED)
			munmap(client, size);
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	s->pid = pid;
	s->agreed = agreed;
	s->client = client;
	s->obj = obj;
	obj->shadow = s;
	obj->user_ptr = ptr;   /* the client's address; obj->map is the shadow */
	pthread_once(&watcher_once, start_watcher);
	pthread_mutex_lock(&shadows_lock);
	s->next = shadows;
	s->prev = &shadows;
	if (shadows)
		shadows->prev = &s->next;
	shadows = s;
	pthread_mutex_unlock(&shadows_lock);
	return obj;
}

void userptr_shadow_release(struct gem_object *obj)
{
	struct userptr_shadow *s = obj->shadow;
	pthread_mutex_lock(&shadows_lock);
	*s->prev = s->next;
	if (s->next)
		s->next->prev = s->prev;
	pthread_mutex_unlock(&shadows_lock);
	munmap(obj->map, obj->size);
	munmap(s->agreed, obj->size);
	munmap(s->client, obj->size);
	pthread_mutex_destroy(&s->lock);
	free(s);
	obj->shadow = NULL;
}

/* The client's range into s->client. A range mapped without PROT_READ
 * (IGT's spinners map their userptr batch PROT_WRITE only) is pinned by
 * i915 all the same (FOLL_WRITE): process_vm_readv refuses it, so such a
 * read goes through /proc/PID/mem, which reads as the kernel does
 * (FOLL_FORCE). */
static bool read_client(const struct gem_object *obj, const struct userptr_shadow *s)
{
	struct iovec l = { s->client, obj->size };
	struct iovec r = { (void *)(uintptr_t)obj->user_ptr, obj->size };
	if (process_vm_readv(s->pid, &l, 1, &r, 1, 0) == (ssize_t)obj->size)
		return true;
	char path[32];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)s->pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t done = 0;
	while (done < obj->size) {
		ssize_t n = pread(fd, s->client + done, obj->size - done,
				  (off_t)(obj->user_ptr + done));
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	return done == obj->size;
}

/* The GPU's bytes [start, end) to the client (a page the client made
 * read-only or unmapped meanwhile keeps its contents: i915's writes would
 * go to pages the client no longer sees). */
static void write_client(const struct gem_object *obj, const struct userptr_shadow *s,
			 size_t start, size_t end)
{
	struct iovec l = { (uint8_t *)obj->map + start, end - start };
	struct iovec r = { (void *)(uintptr_t)(obj->user_ptr + start), end - start };
	if (process_vm_writev(s->pid, &l, 1, &r, 1, 0) != (ssize_t)(end - start))
		TRACE(TRACE_GEM, "userptr object %p: the GPU's write at +0x%zx not written back",
		      (void *)obj, start);
}

/* One word of the merge: the client's changes win over the agreed
 * contents in the shadow, the GPU's go to the client (reported as dirty). */
static bool merge_word(uint8_t *gpu, uint8_t *agreed, const uint8_t *client, bool readonly)
{
	bool dirty = false;
	for (unsigned b = 0; b < 8; b++) {
		if (client[b] != agreed[b])
			gpu[b] = agreed[b] = client[b];
		else if (gpu[b] != agreed[b] && !readonly) {
			agreed[b] = gpu[b];
			dirty = true;
		}
	}
	return dirty;
}

int userptr_shadow_sync(struct gem_object *obj)
{
	struct userptr_shadow *s = obj->shadow;
	pthread_mutex_lock(&s->lock);
	if (!read_client(obj, s)) {
		pthread_mutex_unlock(&s->lock);
		return -EFAULT;
	}
	uint8_t *gpu = obj->map;
	if (!s->primed) {
		memcpy(gpu, s->client, obj->size);
		memcpy(s->agreed, s->client, obj->size);
		s->primed = true;
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	/* The GPU may be writing the shadow meanwhile (another request):
	 * its later bytes go at the next sync. */
	size_t run = SIZE_MAX;   /* start of the dirty run being collected */
	for (size_t off = 0; off < obj->size; off += 8) {
		uint64_t g, a, c;
		memcpy(&g, gpu + off, 8);
		memcpy(&a, s->agreed + off, 8);
		memcpy(&c, s->client + off, 8);
		bool dirty = (g != a || c != a) &&
			     merge_word(gpu + off, s->agreed + off, s->client + off, obj->readonly);
		if (dirty && run == SIZE_MAX)
			run = off;
		else if (!dirty && run != SIZE_MAX) {
			write_client(obj, s, run, off);
			run = SIZE_MAX;
		}
	}
	if (run != SIZE_MAX)
		write_client(obj, s, run, obj->size);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int userptr_shadow_validate(struct gem_object *obj)
{
	/* pin_user_pages() in the creator's address space (user_mm.h reads
	 * the maps of the process user copies go to) */
	struct userptr_shadow *s = obj->shadow;
	pid_t caller = user_copy_remote();
	user_copy_set_remote(s->pid);
	int ret = user_mm_check_range(obj->user_ptr, obj->size,
				      obj->readonly ? USER_MM_READ : USER_MM_WRITE);
	user_copy_set_remote(caller);
	if (!ret)
		ret = userptr_shadow_sync(obj);
	TRACE(TRACE_GEM, "userptr object %p (pid %d): pages %s", (void *)obj, (int)s->pid,
	      ret ? "missing: -EFAULT" : "synced");
	return ret;
}
