/* The process's registry of userptr and fake-offset ranges (user_mm.h).
 *
 * A table of slots that only grows, up to what the process maps at once:
 * a fake-offset mapping unmapped without the notifier (a client without
 * the shim's munmap hook) is found gone in /proc/self/maps, as i915's VMA
 * is closed by the unmap, when the table is full or the range is probed
 * (sweep_io). The fault handler reads the table without a
 * lock (a replaced table is kept, never freed, so a handler still reading
 * it stays safe). Writers hold mm_lock. Lock order: dev->lock, then
 * mm_lock. */
#include "kernel/user_mm.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/sigfault.h"
#include "common/trace.h"
#include "common/user_copy.h"
#include "gtsim/gtsim.h"
#include "kernel/device.h"
#include "kernel/object.h"

enum { SLOT_FREE, SLOT_USERPTR, SLOT_IO };

struct mm_slot {
	uint64_t start, end;
	struct gem_object *obj;    /* SLOT_USERPTR; SLOT_IO: NULL once freed */
	int prot, flags;           /* SLOT_IO */
	bool gtt;                  /* SLOT_IO: through the aperture (GTT) */
	uint64_t ino;              /* SLOT_IO: the mapped memfd's inode */
	uint64_t obj_size;         /* SLOT_IO: the object's size (vm_access) */
	int kind;
	int lost;                  /* written by the fault handler */
};

struct mm_table {
	unsigned cap;
	struct mm_table *older;   /* the table it replaced, kept (see slot_alloc) */
	struct mm_slot slot[];
};

static pthread_mutex_t mm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mm_table *mm_table;     /* atomic pointer: readers in the handler */
static unsigned mm_used;              /* slots not free: 0 makes invalidation free */
static pthread_once_t fixup_once = PTHREAD_ONCE_INIT;
static _Thread_local bool mm_quiet;

static bool overlaps(const struct mm_slot *s, uint64_t start, uint64_t end)
{
	return s->kind != SLOT_FREE && s->start < end && start < s->end;
}

/* The fault fixup: a SIGSEGV on an unmapped page of a live userptr range
 * (its mapping went away without the notifier seeing it) gets an
 * anonymous zero page there; the access resumes and the object is lost. */
static bool userptr_fault(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	if (sig != SIGSEGV || info->si_code != SEGV_MAPERR)
		return false;
	uint64_t a = (uintptr_t)info->si_addr;
	struct mm_table *t = __atomic_load_n(&mm_table, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; t && i < t->cap; i++) {
		struct mm_slot *s = &t->slot[i];
		if (__atomic_load_n(&s->kind, __ATOMIC_ACQUIRE) != SLOT_USERPTR ||
		    a < s->start || a >= s->end)
			continue;
		uint64_t page = a & ~(uint64_t)(GT_PAGE_SIZE - 1);
		long p = syscall(SYS_mmap, page, GT_PAGE_SIZE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == -1 && errno != EEXIST)
			return false;
		__atomic_store_n(&s->lost, 1, __ATOMIC_RELEASE);
		return true;
	}
	return false;
}

static void install_fixup(void)
{
	sigfault_add_hook(userptr_fault);
}

static char *read_maps(int *err);
static unsigned sweep_io(void);

static int first_free(const struct mm_table *t)
{
	for (unsigned i = 0; t && i < t->cap; i++)
		if (t->slot[i].kind == SLOT_FREE)
			return (int)i;
	return -1;
}

/* A free slot (growing the table). mm_lock held. A full table first drops
 * the fake-offset ranges no longer mapped; it grows when that leaves less
 * than a quarter free (so that the sweep's cost is spread over many
 * additions). */
static int slot_alloc(void)
{
	struct mm_table *t = mm_table;
	int i = first_free(t);
	if (i >= 0)
		return i;
	if (t && sweep_io() >= t->cap / 4)
		return first_free(t);
	unsigned cap = t ? t->cap * 2 : 64;
	struct mm_table *n = calloc(1, sizeof(*n) + cap * sizeof(n->slot[0]));
	if (!n)
		return -1;
	n->cap = cap;
	n->older = t;
	if (t)
		memcpy(n->slot, t->slot, t->cap * sizeof(t->slot[0]));
	/* The old table stays allocated, linked from the new one: a fault
	 * handler may be reading it. */
	__atomic_store_n(&mm_table, n, __ATOMIC_RELEASE);
	i = first_free(n);
	return i;
}

/* A slot as `init` says (its kind last, for the fault handler). */
static int slot_fill(const struct mm_slot *init)
{
	pthread_mutex_lock(&mm_lock);
	int i = slot_alloc();
	if (i >= 0) {
		struct mm_slot *s = &mm_table->slot[i];
		s->start = init->start;
		s->end = init->end;
		s->obj = init->obj;
		s->prot = init->prot;
		s->flags = init->flags;
		s->gtt = init->gtt;
		s->ino = init->ino;
		s->obj_size = init->obj_size;
		s->lost = 0;
		__atomic_store_n(&s->kind, init->kind, __ATOMIC_RELEASE);
		__atomic_fetch_add(&mm_used, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mm_lock);
	return i;
}

static void slot_clear(struct mm_slot *s)
{
	__atomic_store_n(&s->kind, SLOT_FREE, __ATOMIC_RELEASE);
	s->obj = NULL;
	__atomic_fetch_sub(&mm_used, 1, __ATOMIC_RELEASE);
}

int user_mm_add_userptr(struct gem_object *obj)
{
	pthread_once(&fixup_once, install_fixup);
	return slot_fill(&(const struct mm_slot){ .kind = SLOT_USERPTR, .start = obj->user_ptr,
						 .end = obj->user_ptr + obj->size, .obj = obj });
}

int user_mm_add_io(uint64_t addr, uint64_t len, struct gem_object *obj, bool gtt, int prot,
		   int flags)
{
	/* whatever was mapped there before is gone (mmap found the range
	 * free, or MAP_FIXED replaced it): a client without the notifier
	 * leaves such ranges behind */
	pthread_mutex_lock(&mm_lock);
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++) {
		struct mm_slot *s = &mm_table->slot[i];
		if (s->kind == SLOT_IO && overlaps(s, addr, addr + len))
			slot_clear(s);
	}
	pthread_mutex_unlock(&mm_lock);
	int slot = slot_fill(&(const struct mm_slot){ .kind = SLOT_IO, .start = addr,
						      .end = addr + len, .obj = obj, .prot = prot,
						      .flags = flags, .gtt = gtt,
						      .ino = (uint64_t)obj->ino,
						      .obj_size = obj->size });
	return slot < 0 ? -ENOMEM : 0;
}

/* i915 6.1 gem/i915_gem_mman.c vm_access: the offset is addr less the
 * mapping's start; range_overflows(offset, len, obj->base.size) is
 * -EINVAL. Linux's __access_remote_vm passes it the whole rest of the
 * access, not one page. */
int gtsim_mm_io_access(uint64_t addr, uint64_t len, uint64_t *end)
{
	uint64_t stop = addr + len < addr ? UINT64_MAX : addr + len;
	int ret = 0;
	*end = stop;
	if (!__atomic_load_n(&mm_used, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&mm_lock);
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++) {
		const struct mm_slot *s = &mm_table->slot[i];
		if (s->kind != SLOT_IO || s->end <= addr || s->start >= *end)
			continue;
		if (s->start > addr) {   /* a later one: ordinary memory before it */
			*end = s->start;
			continue;
		}
		uint64_t offset = addr - s->start;
		ret = offset > s->obj_size || len > s->obj_size - offset ? -EINVAL : 1;
		*end = s->end < stop ? s->end : stop;
		break;
	}
	pthread_mutex_unlock(&mm_lock);
	return ret;
}

void user_mm_forget_io(struct gem_object *obj)
{
	pthread_mutex_lock(&mm_lock);
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++)
		if (mm_table->slot[i].kind == SLOT_IO && mm_table->slot[i].obj == obj)
			mm_table->slot[i].obj = NULL;
	pthread_mutex_unlock(&mm_lock);
}

void user_mm_each_io(struct gem_object *obj, bool gtt_only,
		     void (*fn)(void *ctx, uint64_t addr, uint64_t len, int prot, int flags),
		     void *ctx)
{
	struct mm_slot *list = NULL;
	unsigned n = 0;
	pthread_mutex_lock(&mm_lock);
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++) {
		struct mm_slot *s = &mm_table->slot[i];
		if (s->kind != SLOT_IO || s->obj != obj || (gtt_only && !s->gtt))
			continue;
		struct mm_slot *grown = realloc(list, (n + 1) * sizeof(*list));
		if (!grown)
			break;
		list = grown;
		list[n++] = *s;
	}
	pthread_mutex_unlock(&mm_lock);
	for (unsigned i = 0; i < n; i++)
		fn(ctx, list[i].start, list[i].end - list[i].start, list[i].prot, list[i].flags);
	free(list);
}

void user_mm_quiet(bool quiet)
{
	mm_quiet = quiet;
}

void user_mm_remove(int slot)
{
	if (slot < 0)
		return;
	pthread_mutex_lock(&mm_lock);
	if ((unsigned)slot < mm_table->cap && mm_table->slot[slot].kind != SLOT_FREE)
		slot_clear(&mm_table->slot[slot]);
	pthread_mutex_unlock(&mm_lock);
}

bool user_mm_lost(int slot)
{
	struct mm_table *t = __atomic_load_n(&mm_table, __ATOMIC_ACQUIRE);
	return slot >= 0 && t && (unsigned)slot < t->cap &&
	       __atomic_load_n(&t->slot[slot].lost, __ATOMIC_ACQUIRE);
}

/* Is [start, end) touching an IO range. mm_lock held. */
static bool overlaps_io(uint64_t start, uint64_t end)
{
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++)
		if (mm_table->slot[i].kind == SLOT_IO && overlaps(&mm_table->slot[i], start, end))
			return true;
	return false;
}

/* /proc/self/maps, whole; the caller frees it. NULL on failure, with
 * *err -ENOMEM when an allocation failed (i915's kmalloc), else -EFAULT. */
static char *read_maps(int *err)
{
	*err = -EFAULT;
	char path[32] = "/proc/self/maps";
	if (user_copy_remote())   /* a device server's client (user_copy.h) */
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)user_copy_remote());
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			*err = -ENOMEM;
			break;
		}
		if (len + 4096 > cap) {
			char *n = realloc(buf, cap *= 2);
			if (!n) {
				free(buf);
				buf = NULL;
				*err = -ENOMEM;
				break;
			}
			buf = n;
		}
		ssize_t r = read(fd, buf + len, cap - len - 1);
		if (r < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		if (r == 0) {
			buf[len] = 0;
			break;
		}
		len += (size_t)r;
	}
	close(fd);
	return buf;
}

int user_mm_check_range(uint64_t addr, uint64_t len, unsigned need)
{
	uint64_t end = addr + len;
	if (end < addr)
		return -EFAULT;
	/* A device server's client maps objects from their memfds (the
	 * registry is its own process's): those ranges are its IO ones. */
	bool remote = user_copy_remote() != 0;
	pthread_mutex_lock(&mm_lock);
	bool io = !remote && overlaps_io(addr, end) && (sweep_io(), overlaps_io(addr, end));
	pthread_mutex_unlock(&mm_lock);
	if (io)
		return -EFAULT;   /* i915 maps fake offsets VM_PFNMAP */
	int err;
	char *maps = read_maps(&err);
	if (!maps)
		return err;
	/* The VMAs are listed in address order: walk them from addr on, as
	 * probe_range() does, failing at a hole or a missing protection. */
	int ret = -EFAULT;
	for (char *line = maps; *line && addr < end;) {
		unsigned long long s, e;
		char perms[8] = "";
		if (sscanf(line, "%llx-%llx %7s", &s, &e, perms) == 3 && e > addr) {
			if (s > addr)
				break;   /* a hole */
			if (((need & USER_MM_READ) && perms[0] != 'r') ||
			    ((need & USER_MM_WRITE) && perms[1] != 'w'))
				break;
			char *nl = strchr(line, '\n');
			char *name = strstr(line, "/memfd:gtsim-");
			if (remote && name && (!nl || name < nl))
				break;
			addr = e;
		}
		char *nl = strchr(line, '\n');
		if (!nl)
			break;
		line = nl + 1;
	}
	if (addr >= end)
		ret = 0;
	free(maps);
	return ret;
}

/* One line of /proc/self/maps: the range, the inode, whether it is the
 * empty memfd that replaces a revoked mapping (gem_mmap.c). */
struct vma_line {
	unsigned long long start, end, ino;
	bool purged;
};

/* The lines of maps (sorted by address, as the kernel prints them) in
 * *out; how many, or -1. */
static long parse_maps(const char *maps, struct vma_line **out)
{
	long n = 0, cap = 0;
	struct vma_line *v = NULL;
	for (const char *line = maps; *line;) {
		unsigned long long a, b, ino;
		int at = 0;
		if (sscanf(line, "%llx-%llx %*s %*s %*s %llu %n", &a, &b, &ino, &at) == 3) {
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				struct vma_line *g = realloc(v, (size_t)cap * sizeof(*v));
				if (!g) {
					free(v);
					return -1;
				}
				v = g;
			}
			v[n++] = (struct vma_line){ a, b, ino,
				at && !strncmp(line + at, "/memfd:gtsim-purged", 19) };
		}
		const char *nl = strchr(line, '\n');
		if (!nl)
			break;
		line = nl + 1;
	}
	*out = v;
	return n;
}

/* Is a VMA over [s->start, s->end) still a mapping of s's memfd (or of
 * the empty memfd that replaces a revoked one)? A binary search for the
 * first VMA ending after s->start. */
static bool io_mapped(const struct vma_line *v, long n, const struct mm_slot *s)
{
	long lo = 0, hi = n;
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (v[mid].end <= s->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (long i = lo; i < n && v[i].start < s->end; i++)
		if (v[i].ino == s->ino || v[i].purged)
			return true;
	return false;
}

/* Frees the fake-offset slots whose mapping is gone; how many. mm_lock
 * held. */
static unsigned sweep_io(void)
{
	unsigned freed = 0;
	struct vma_line *vmas = NULL;
	long nvmas = -1;
	int err;
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++) {
		struct mm_slot *s = &mm_table->slot[i];
		if (s->kind != SLOT_IO)
			continue;
		if (nvmas < 0) {
			char *maps = read_maps(&err);
			if (!maps)
				return 0;
			nvmas = parse_maps(maps, &vmas);
			free(maps);
			if (nvmas < 0)
				return 0;
		}
		if (!io_mapped(vmas, nvmas, s)) {
			slot_clear(s);
			freed++;
		}
	}
	free(vmas);
	if (freed)
		TRACE(TRACE_GEM, "user mm: %u fake-offset ranges found unmapped", freed);
	return freed;
}

void user_mm_stats(unsigned *used, unsigned *cap)
{
	pthread_mutex_lock(&mm_lock);
	*used = __atomic_load_n(&mm_used, __ATOMIC_RELAXED);
	*cap = mm_table ? mm_table->cap : 0;
	pthread_mutex_unlock(&mm_lock);
}

/* The devices with userptr objects overlapping [start, end) (at most n),
 * dropping the IO ranges there (they are being unmapped or replaced). */
static unsigned devices_touched(uint64_t start, uint64_t end, struct gtsim_device **devs,
				unsigned n)
{
	unsigned count = 0;
	pthread_mutex_lock(&mm_lock);
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++) {
		struct mm_slot *s = &mm_table->slot[i];
		if (!overlaps(s, start, end))
			continue;
		if (s->kind == SLOT_IO) {
			slot_clear(s);
			continue;
		}
		struct gtsim_device *dev = s->obj->dev;
		unsigned j = 0;
		while (j < count && devs[j] != dev)
			j++;
		if (j == count && count < n)
			devs[count++] = dev;
	}
	pthread_mutex_unlock(&mm_lock);
	return count;
}

/* i915_gem_userptr_invalidate(): wait for the GPU to be done with every
 * userptr object of dev overlapping [start, end), then mark them stale.
 * dev->lock held. */
static void invalidate_device(struct gtsim_device *dev, uint64_t start, uint64_t end)
{
	struct gem_object **objs = NULL;
	unsigned n = 0;
	pthread_mutex_lock(&mm_lock);
	for (unsigned i = 0; mm_table && i < mm_table->cap; i++) {
		struct mm_slot *s = &mm_table->slot[i];
		if (s->kind != SLOT_USERPTR || s->obj->dev != dev || !overlaps(s, start, end))
			continue;
		struct gem_object **grown = realloc(objs, (n + 1) * sizeof(*objs));
		if (!grown)
			break;
		objs = grown;
		objs[n++] = obj_get(s->obj);
	}
	pthread_mutex_unlock(&mm_lock);
	for (unsigned i = 0; i < n; i++) {
		obj_wait_rendering(objs[i], true, -1);
		objs[i]->userptr_stale = true;
		TRACE(TRACE_GEM, "userptr object %p: range [0x%llx, 0x%llx) invalidated",
		      (void *)objs[i], (unsigned long long)start, (unsigned long long)end);
		obj_put(objs[i]);
	}
	free(objs);
}

void gtsim_mm_invalidate(void *addr, size_t len)
{
	if (!__atomic_load_n(&mm_used, __ATOMIC_ACQUIRE) || !len || mm_quiet)
		return;
	uint64_t start = (uintptr_t)addr & ~(uint64_t)(GT_PAGE_SIZE - 1);
	uint64_t end = (uintptr_t)addr + len;
	if (end < start)
		end = UINT64_MAX;
	struct gtsim_device *devs[8];
	unsigned n = devices_touched(start, end, devs, 8);
	for (unsigned i = 0; i < n; i++) {
		pthread_mutex_lock(&devs[i]->lock);
		invalidate_device(devs[i], start, end);
		pthread_mutex_unlock(&devs[i]->lock);
	}
}
