/* gtsim public C API: a simulated Intel GEN GPU and the i915 GEM interface.
 *
 * A device is the whole machine (kernel model + GPU). A file is one open of
 * the DRM device node; it owns GEM handles and contexts, like a struct
 * drm_file in the kernel. gtsim_ioctl() takes the real uAPI structs from
 * <i915_drm.h> and <drm.h> and returns 0 or a negative errno, exactly the
 * value i915 would give. */
#ifndef GTSIM_GTSIM_H
#define GTSIM_GTSIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/ioctl.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gtsim_device;
struct gtsim_file;

struct gtsim_config {
	const char *device;        /* "bdw" (default) or "skl"; NULL: GTSIM_DEVICE */
	int sync;                  /* 1: run every batch inside execbuf (GTSIM_SYNC=1) */
	uint64_t ggtt_size;        /* 0: the device's size; tests shrink it */
	uint64_t aperture_size;    /* 0: the device's size */
	unsigned hangcheck_ms;     /* 0: default (GTSIM_HANGCHECK_MS or 1500) */
};

/* cfg may be NULL: everything from the environment. NULL on failure. */
struct gtsim_device *gtsim_device_create(const struct gtsim_config *cfg);
void gtsim_device_destroy(struct gtsim_device *dev);

/* A file of the render node (renderD128). */
struct gtsim_file *gtsim_open(struct gtsim_device *dev);
/* A file of node minor: 0 the primary node (card0: DRM master and
 * authentication, the first opener becomes master), 128 the render node;
 * GTSIM_VGEM_MINOR and + 128 (card1, renderD129) a vgem file
 * (gtsim_open_vgem). NULL for another minor. */
#define GTSIM_VGEM_MINOR 1
struct gtsim_file *gtsim_open_node(struct gtsim_device *dev, int minor);
/* A file of the vgem device beside it (Linux's virtual GEM driver: dumb
 * buffers, PRIME, fences signalled by userspace; src/kernel/vgem/), on the
 * same device so that PRIME shares objects with its i915 files. */
struct gtsim_file *gtsim_open_vgem(struct gtsim_device *dev);
void gtsim_close(struct gtsim_file *file);

/* 0 or -errno. request is the ioctl number (DRM_IOCTL_*). A wait that a
 * signal handler interrupted (GEM_WAIT, GEM_SET_DOMAIN, the syncobj waits:
 * i915's -ERESTARTSYS) returns -GTSIM_ERESTARTSYS: the caller, standing
 * for the system call's return, restarts the call when every handler that
 * ran has SA_RESTART and reports EINTR otherwise (the shim does). */
#define GTSIM_ERESTARTSYS 512   /* Linux's include/linux/errno.h */
int gtsim_ioctl(struct gtsim_file *file, unsigned long request, void *arg);
/* gtsim_ioctl made through a descriptor whose status flags (fcntl
 * F_GETFL) are f_flags: with O_NONBLOCK, an execbuf that would wait for
 * room in its context's ring returns -EWOULDBLOCK instead, as i915's
 * eb_pin_timeline (file->f_flags). gtsim_ioctl is this with 0. */
int gtsim_ioctl_flags(struct gtsim_file *file, unsigned long request, void *arg, int f_flags);

/* gtsim_ioctl as libdrm's drmIoctl makes the system call: again while a
 * signal interrupted it (-EINTR, -EAGAIN, -GTSIM_ERESTARTSYS). For callers
 * without the shim whose handlers (libFuzzer's SIGALRM, say) already ran. */
static inline int gtsim_ioctl_retry(struct gtsim_file *file, unsigned long request, void *arg)
{
	int r;
	do
		r = gtsim_ioctl(file, request, arg);
	while (r == -EINTR || r == -EAGAIN || r == -GTSIM_ERESTARTSYS);
	return r;
}

/* mmap of the device file at a fake offset returned by MMAP_GTT/MMAP_OFFSET
 * (or a dumb-buffer map offset). Returns the mapping or MAP_FAILED with
 * errno set. */
void *gtsim_mmap(struct gtsim_file *file, void *addr, size_t length, int prot,
		 int flags, uint64_t offset);

/* Shared-device mode (docs/shared-device.md): what a client in another
 * process maps instead. gtsim_mmap_export: the same checks as gtsim_mmap
 * for an mmap of length bytes at offset; gtsim_gem_mmap_export: those of
 * GEM_MMAP for args. *fd: a new descriptor (the caller closes it) to map
 * MAP_SHARED at *fd_off, the object's own memory (its memfd), so the
 * client's and the GPU's views are one. A GTT map of a tiled object is
 * -ENODEV (its detiled view needs the client's page faults). 0 or -errno. */
struct drm_i915_gem_mmap;
int gtsim_mmap_export(struct gtsim_file *file, size_t length, uint64_t offset, int *fd,
		      uint64_t *fd_off);
int gtsim_gem_mmap_export(struct gtsim_file *file, const struct drm_i915_gem_mmap *args, int *fd,
			  uint64_t *fd_off);

/* The mmu notifier: a host integration calls this before the process's
 * mapping of [addr, addr + len) is unmapped, moved, reprotected or
 * replaced. GEM_USERPTR objects there wait for the GPU and are validated
 * again before their next use (-EFAULT if their memory is gone). */
void gtsim_mm_invalidate(void *addr, size_t len);

/* The same host integration calls this when [addr, addr + len) is
 * unmapped, moved, reprotected or replaced: the GTT mappings of tiled
 * objects there (the fenced views, whose pages the kernel model protects
 * to keep them coherent) are forgotten. */
void gtsim_gtt_views_forget(void *addr, size_t len);

/* An access of the process's own memory from outside its mappings
 * (/proc/self/mem, as a debugger reads it) at [addr, addr + len): the
 * fake-offset (MMAP_OFFSET / MMAP_GTT) mappings are VM_PFNMAP on i915,
 * so Linux hands such an access to i915's vm_access, which refuses a
 * range running past the mapped object. Returns 1 when addr lies in such
 * a mapping and the access is allowed (the mapping's bytes up to *end are
 * the object's), -EINVAL when the range runs past the object, and 0 when
 * addr lies in none; then *end is where the next one starts (or
 * addr + len: ordinary memory up to there). */
int gtsim_mm_io_access(uint64_t addr, uint64_t len, uint64_t *end);

/* Wait until every engine is idle (all submitted work retired). */
void gtsim_device_idle(struct gtsim_device *dev);
/* Wait until no engine executes anything and nothing queued could start:
 * requests still waiting for a fence that has not signaled (an IGT cork,
 * an unsignaled in-fence) stay queued. Before fork: a process may fork
 * while its queued requests wait for a fence only it will signal (IGT
 * gem_exec_schedule pi-ringfull forks with a ring of corked requests). */
void gtsim_device_quiesce(struct gtsim_device *dev);

/* The rest is what a host integration presenting the device as the DRM
 * device nodes (the preloaded shim, src/shim) needs besides the ioctls;
 * the kernel model implements it in src/kernel/host.c. */

/* sync_file descriptors the kernel model hands out (execbuf out-fences,
 * syncobj exports). gtsim_is_sync_fd: 1 when fd is one of them (or a
 * syncobj fd), else 0. gtsim_sync_file_ioctl: SYNC_IOC_MERGE /
 * SYNC_IOC_FILE_INFO on such an fd, 0 or -errno; -ENOTTY when fd is not a
 * sync_file or request is not a sync_file ioctl. */
int gtsim_is_sync_fd(int fd);
/* fd, a dma-buf (PRIME export) of one of dev's objects: the poll(2) events
 * among events it has now (dma_buf_poll(): POLLIN once no GPU write is
 * outstanding, POLLOUT once the GPU is done with the object). -1 when fd
 * is not a regular file. */
int gtsim_dmabuf_poll(struct gtsim_device *dev, int fd, short events);
/* The same as an ioctl of the dma-buf (a number of gtsim's own in the
 * dma-buf range, which gtsim_dmabuf_ioctl serves), so that a shared
 * device's client asks its server with the descriptor. */
struct gtsim_dmabuf_poll {
	short events, revents;
};
#define GTSIM_DMABUF_IOCTL_POLL _IOWR('b', 0x7f, struct gtsim_dmabuf_poll)
/* An ioctl on fd, a dma-buf of one of dev's objects (dma_buf_ioctl):
 * DMA_BUF_IOCTL_SYNC, its flags checked (-EINVAL), SYNC_START waiting for
 * the GPU as i915's begin_cpu_access does (a read for its outstanding
 * write, a write for every use); any other request -ENOTTY. arg is the
 * kernel's copy of the argument (NULL: -EFAULT). 0 or -errno. */
int gtsim_dmabuf_ioctl(struct gtsim_device *dev, int fd, unsigned long request, void *arg);
int gtsim_sync_file_ioctl(int fd, unsigned long request, void *arg);

/* The GPU's registers as the CPU reaches them through the PCI BAR: reg is
 * the offset in BAR 0's 2 MiB register range (absolute MMIO offset, e.g.
 * 0x2358 RCS TIMESTAMP); unwritten registers read 0. */
uint32_t gtsim_mmio_read(struct gtsim_device *dev, uint32_t reg);
void gtsim_mmio_write(struct gtsim_device *dev, uint32_t reg, uint32_t val);

/* fork(): call gtsim_fork_prepare() in the parent right before fork, with
 * every device quiesced (gtsim_device_quiesce); it takes the kernel model's
 * process-wide locks, which gtsim_fork_parent() and gtsim_fork_child()
 * release on each side. In the child, once the memory of the device's GEM
 * objects has been made private to it (the memfds named "gtsim-gem" and
 * their shared mappings), gtsim_device_fork_child(dev) lets dev go on
 * there with engine and worker threads of its own (fork copied none of
 * the parent's; if one cannot be made, every batch runs to its end inside
 * execbuf, as with GTSIM_SYNC=1). */
void gtsim_fork_prepare(void);
/* Right before fork, after gtsim_device_quiesce: the kernel worker parked
 * holding no lock (so the child inherits none taken); let go in the
 * parent after the fork (the child's copy starts a worker of its own). */
void gtsim_device_fork_hold(struct gtsim_device *dev);
void gtsim_device_fork_parent(struct gtsim_device *dev);
void gtsim_fork_parent(void);
void gtsim_fork_child(void);
/* In a fork child, before its device has threads: whether a live GEM
 * object's memory is the file of inode ino (an object closed while a CPU
 * mapping keeps its memory is not: that memory stays shared). */
bool gtsim_device_owns_inode(struct gtsim_device *dev, ino_t ino);
void gtsim_device_fork_child(struct gtsim_device *dev);

/* debugfs (/sys/kernel/debug/dri/<minor>/NAME) as i915 presents it and
 * the i915 module's parameters (/sys/module/i915/parameters/NAME, also
 * dri/<minor>/i915_params/NAME). *_name(i) lists them (NULL past the
 * end) with their permission bits in *mode; *_read gives the text a read
 * gives now (malloc'ed; NULL when name is unknown); *_write applies one
 * write of buf[0..len) (0 or -errno: -EACCES for a read-only file). */
const char *gtsim_debugfs_name(unsigned i, unsigned *mode);
char *gtsim_debugfs_read(struct gtsim_device *dev, const char *name);
int gtsim_debugfs_write(struct gtsim_device *dev, const char *name, const char *buf,
			size_t len);
const char *gtsim_param_name(unsigned i, unsigned *mode);
char *gtsim_param_read(const char *name);
int gtsim_param_write(const char *name, const char *buf, size_t len);

/* The engines' sysfs directories (/sys/class/drm/card0/engine/<name>/,
 * kernel/engine_props.h): gtsim_engine_dir_name(i) names engine i (NULL
 * past the end); gtsim_engine_file_name lists the files of engine i's
 * directory on a device of generation gen (NULL past the end; some only
 * where the engine can preempt; ".defaults/NAME" in the subdirectory);
 * *_read and *_write as the debugfs ones (NULL or -errno). */
const char *gtsim_engine_dir_name(unsigned i);
const char *gtsim_engine_file_name(int gen, unsigned engine, unsigned i, unsigned *mode);
char *gtsim_engine_file_read(struct gtsim_device *dev, const char *engine, const char *file);
int gtsim_engine_file_write(struct gtsim_device *dev, const char *engine, const char *file,
			    const char *buf, size_t len);

/* Software sync timelines (the kernel's sw_sync, debugfs sync/sw_sync):
 * one per open of that file. gtsim_sw_sync_ioctl: SW_SYNC_IOC_CREATE_FENCE
 * (a sync_file fd of a fence signaled when the timeline reaches value),
 * SW_SYNC_IOC_INC; 0 or -errno. Destroying it signals its pending fences
 * with -ENOENT. */
struct gtsim_sw_timeline;
struct gtsim_sw_timeline *gtsim_sw_sync_create(void);
int gtsim_sw_sync_ioctl(struct gtsim_sw_timeline *tl, unsigned long request, void *arg);
void gtsim_sw_sync_destroy(struct gtsim_sw_timeline *tl);

/* A copy of the device's last error state (i915's format, as written to
 * gtsim_error_state_path(); free() it), NULL when no
 * engine has hung. */
char *gtsim_error_state(struct gtsim_device *dev);
/* Where this process's error states are written: $GTSIM_ERROR_STATE, or
 * $TMPDIR/gtsim-error-<pid> ($TMPDIR unset or too long: /tmp), into buf
 * (cut to len). The directory of the per-process files, else NULL, in
 * *dir (malloc'ed; may be NULL). */
void gtsim_error_state_path(char *buf, size_t len, char **dir);

#ifdef __cplusplus
}
#endif
#endif
