/* fork(): the child continues on a private copy of the parent's device.
 *
 * The device's data structures are already copied by fork (ordinary
 * memory); what is not is the memory of GEM objects, which lives in memfds
 * mapped MAP_SHARED ("memfd:gtsim-gem"), and the host threads (engines,
 * the kernel worker), which exist only in the parent. So:
 *  - before the fork the parent's device is idled (no batch half done, no
 *    engine or worker thread inside a lock) and the sync unit's locks are
 *    taken, to be released on both sides;
 *  - in the child every gtsim memfd is replaced, under the same descriptor
 *    number, by a new memfd holding a copy of its bytes, and every shared
 *    mapping of it is remapped at the same address: the kernel model's own
 *    pointers and the program's CPU mappings stay valid and now reach the
 *    child's copy;
 *  - the child's device gets engine and worker threads of its own
 *    (gtsim_device_fork_child).
 * What the child does never reaches the parent, and the other way round. */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/file_copy.h"
#include "common/map_file.h"
#include "common/trace.h"
#include "gtsim/gtsim.h"

/* The kernel model's memfds holding object memory: an object's own
 * ("gtsim-gem") and the slabs small objects share ("gtsim-slab"). */
static const char *const memfd_names[] = { "/memfd:gtsim-gem", "/memfd:gtsim-slab" };

/* The name of the gtsim memfd the link or maps path starts with, or NULL. */
static const char *gtsim_memfd_name(const char *path)
{
	for (unsigned i = 0; i < sizeof(memfd_names) / sizeof(memfd_names[0]); i++)
		if (!strncmp(path, memfd_names[i], strlen(memfd_names[i])))
			return memfd_names[i] + strlen("/memfd:");
	return NULL;
}

struct mapping {
	uintptr_t start, end;
	uint64_t offset;
	ino_t ino;
	int prot;
	const char *name;          /* the gtsim memfd's name */
};

/* Shared mappings of gtsim memfds, from /proc/self/maps. */
static int read_mappings(struct mapping **out, unsigned *count)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned n = 0, cap = 0;
	struct mapping *maps = NULL;
	char line[512];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uintptr_t start, end;
		uint64_t offset, ino;
		char perms[5];
		int path_at = 0;
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s %" SCNx64 " %*s %" SCNu64 " %n",
			   &start, &end, perms, &offset, &ino, &path_at) < 5 || !path_at)
			continue;
		const char *name = gtsim_memfd_name(line + path_at);
		if (!name || perms[3] != 's')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			struct mapping *grown = realloc(maps, cap * sizeof(*maps));
			if (!grown) {
				free(maps);
				fclose(f);
				return -ENOMEM;
			}
			maps = grown;
		}
		maps[n++] = (struct mapping){
			start, end, offset, (ino_t)ino,
			(perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			(perms[2] == 'x' ? PROT_EXEC : 0), name };
	}
	fclose(f);
	*out = maps;
	*count = n;
	return 0;
}

/* The gtsim memfd name of fd (NULL: not one), its stat in st. */
static const char *gtsim_memfd(int fd, struct stat *st)
{
	char link[64], target[128];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return NULL;
	target[len] = '\0';
	const char *name = gtsim_memfd_name(target);
	return name && fstat(fd, st) == 0 ? name : NULL;
}

/* Gives one memfd (all descriptors of its inode, all its shared mappings)
 * a private copy. */
static int privatize(int fd, const char *name, const struct stat *st,
		     const struct mapping *maps, unsigned n)
{
	int copy = memfd_create(name, MFD_CLOEXEC);
	if (copy < 0)
		return -errno;
	/* holes stay holes: a slab's untouched pages cost nothing */
	int err = ftruncate(copy, st->st_size) ? -errno
		  : file_copy_data(copy, 0, fd, 0, st->st_size);
	for (unsigned i = 0; !err && i < n; i++) {
		if (maps[i].ino != st->st_ino)
			continue;
		void *p = real.mmap((void *)maps[i].start, maps[i].end - maps[i].start, maps[i].prot,
				    MAP_SHARED | MAP_FIXED, copy, (off_t)maps[i].offset);
		if (p == MAP_FAILED)
			err = -errno;
	}
	if (!err && real.dup3(copy, fd, O_CLOEXEC) < 0)
		err = -errno;
	real.close(copy);
	return err;
}

int fork_privatize_memory(struct gtsim_device *dev)
{
	struct mapping *maps = NULL;
	unsigned nmaps = 0;
	int err = read_mappings(&maps, &nmaps);
	if (err)
		return err;
	/* Descriptors sharing an inode (an object and its dma-buf) follow the
	 * first one, which holds the copy by then. As many as the process has
	 * (IGT's gem_softpin evict-single-offset forks with 1025 objects). */
	struct done { ino_t ino; int fd; } *done = NULL;
	unsigned ndone = 0, cap = 0, copied = 0;
	DIR *dir = opendir("/proc/self/fd");
	if (!dir) {
		free(maps);
		return -errno;
	}
	int dir_fd = dirfd(dir);
	for (struct dirent *de; !err && (de = readdir(dir));) {
		struct stat st;
		char *end;
		long v = strtol(de->d_name, &end, 10);
		int fd = (int)v;
		const char *name = NULL;
		if (*end || v < 0 || v > INT32_MAX || fd == dir_fd || !(name = gtsim_memfd(fd, &st)))
			continue;
		int first = -1;
		for (unsigned i = 0; i < ndone && first < 0; i++)
			if (done[i].ino == st.st_ino)
				first = done[i].fd;
		if (first >= 0) {
			if (real.dup3(first, fd, O_CLOEXEC) < 0)
				err = -errno;
			continue;
		}
		if (ndone == cap) {
			unsigned ncap = cap ? 2 * cap : 256;
			struct done *nd = realloc(done, ncap * sizeof(*nd));
			if (!nd) {
				err = -ENOMEM;
				break;
			}
			done = nd;
			cap = ncap;
		}
		err = privatize(fd, name, &st, maps, nmaps);
		done[ndone].ino = st.st_ino;
		done[ndone++].fd = fd;
		copied++;
	}
	closedir(dir);
	/* Files only mapped (the kernel model keeps no descriptor of an
	 * object's own memfd, common/map_file.h): opened from their first
	 * mapping, privatized, closed; but only a live object's: the memory
	 * of an object the program closed while keeping its CPU mapping stays
	 * shared with the parent, one object, one memory, as on i915 (IGT
	 * gem_mmap_gtt ptrace POKEs into the child's mapping of it). */
	for (unsigned m = 0; !err && m < nmaps; m++) {
		bool seen = false;
		for (unsigned i = 0; i < ndone && !seen; i++)
			seen = done[i].ino == maps[m].ino;
		for (unsigned i = 0; i < m && !seen; i++)
			seen = maps[i].ino == maps[m].ino;
		if (seen || !gtsim_device_owns_inode(dev, maps[m].ino))
			continue;
		int fd = map_file_open((void *)maps[m].start, maps[m].end - maps[m].start,
				       O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st)) {
			err = fd < 0 ? fd : -errno;
			if (fd >= 0)
				real.close(fd);
			break;
		}
		err = privatize(fd, maps[m].name, &st, maps, nmaps);
		real.close(fd);
		copied++;
	}
	free(done);
	free(maps);
	TRACE(TRACE_SHIM, "fork child %d: %u object memfds copied (%d)", (int)getpid(), copied, err);
	return err;
}

bool fork_child_device(struct gtsim_device *dev)
{
	if (!dev)
		return true;
	if (fork_privatize_memory(dev))
		return false;
	gtsim_device_fork_child(dev);
	return true;
}
