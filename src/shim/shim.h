/* The preloaded device interposer (libgtsim-shim.so): internal interfaces.
 *
 * real.c     the C library's own functions, found with dlsym(RTLD_NEXT)
 * devnode.c  the DRM nodes: which fds are opens of /dev/dri/card0 or
 *            renderD128, the gtsim_file behind each, the process's device
 * sysfs.c    a temporary directory holding the sysfs files libdrm and
 *            libpciaccess read, and the rewriting of /sys and /dev/dri
 *            paths into it
 * debugfs.c  the files of that tree whose contents are the kernel
 *            model's: debugfs, module parameters
 * bar_mmio.c CPU access to the GPU's registers through a mapping of the
 *            PCI BAR (x86_decode.c decodes the faulting instructions)
 * hook_*.c   the interposed functions (hook_dmabuf.c: lseek and poll of
 *            PRIME's dma-buf descriptors) */
#ifndef GTSIM_SHIM_H
#define GTSIM_SHIM_H

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

struct gtsim_file;
struct statx;

/* glibc declares path arguments nonnull, so the compiler would drop a
 * hook's NULL check; the system calls behind them answer EFAULT (or accept
 * NULL) instead of crashing. This hides the pointer's origin from it. */
#define SHIM_MAYBE_NULL(p) __asm__("" : "+r"(p))
/* clang also warns, from the declaration alone, that such a check is
 * always true (-Wpointer-bool-conversion); the check is the point here. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpointer-bool-conversion"
#endif

/* real.c */
struct real_fns {
	int (*open)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*openat64)(int, const char *, int, ...);
	FILE *(*fopen)(const char *, const char *);
	FILE *(*fopen64)(const char *, const char *);
	int (*fclose)(FILE *);
	int (*close)(int);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*fcntl64)(int, int, ...);
	int (*ioctl)(int, unsigned long, ...);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	void *(*mmap64)(void *, size_t, int, int, int, off_t);
	int (*munmap)(void *, size_t);
	int (*mprotect)(void *, size_t, int);
	void *(*mremap)(void *, size_t, size_t, int, ...);
	int (*madvise)(void *, size_t, int);
	int (*stat)(const char *, struct stat *);
	int (*lstat)(const char *, struct stat *);
	int (*fstat)(int, struct stat *);
	int (*fstatat)(int, const char *, struct stat *, int);
	int (*statx)(int, const char *, int, unsigned, struct statx *);
	int (*access)(const char *, int);
	int (*faccessat)(int, const char *, int, int);
	int (*eaccess)(const char *, int);
	ssize_t (*readlink)(const char *, char *, size_t);
	ssize_t (*readlinkat)(int, const char *, char *, size_t);
	char *(*realpath)(const char *, char *);
	DIR *(*opendir)(const char *);
	int (*scandir)(const char *, struct dirent ***,
		       int (*)(const struct dirent *),
		       int (*)(const struct dirent **, const struct dirent **));
	int (*sigaction)(int, const struct sigaction *, struct sigaction *);
};
extern struct real_fns real;
/* Resolves every entry of `real` (once; cheap afterwards). */
void real_init(void);

/* procmem.c: /proc/self/mem over fake-offset mappings */
void procmem_note_open(int fd, const char *path);
ssize_t procmem_rw(int fd, void *buf, size_t count, const off_t *offset, bool write,
		   bool *handled);

/* devnode.c */
#define DRM_MAJOR 226
/* The minor of /dev/dri/<name> we present (0 card0, 128 renderD128), -1
 * for any other path. Accepts "/dev/dri/card0" etc., and /proc/self/fd/N,
 * /proc/<pid>/fd/N, /dev/fd/N when N is an open of a node (a reopen). */
int devnode_minor_for_path(const char *path);
/* "/dev/dri/card0" or "/dev/dri/renderD128". */
const char *devnode_path(int minor);
/* Opens a new file on the process's device and a real fd standing for it
 * (flags: O_CLOEXEC / O_NONBLOCK honoured). fd or -1 with errno. */
int devnode_open(int minor, int flags);
/* The process's device (created on first use; NULL if that fails). */
struct gtsim_device *devnode_device(void);
/* The gtsim_file behind fd, or NULL when fd is not one of our nodes; the
 * file stays open until devnode_release(*held), even if fd is closed. */
struct node_open;
struct gtsim_file *devnode_acquire(int fd, struct node_open **held);
void devnode_release(struct node_open *held);
/* Shared mode (docs/shared-device.md): the device server's socket path,
 * NULL when this process has a device of its own. */
const char *devnode_server(void);
/* Shared mode: the connection the calling thread uses for fd, a node
 * opened on the server (held until devnode_release(*held)); -1 when fd is
 * not such a node, -2 when no connection could be made. */
int devnode_remote_acquire(int fd, struct node_open **held);
/* The minor behind fd, or -1. */
int devnode_fd_minor(int fd);

/* Shared mode, around a forwarded ioctl (remote_userptr.c): the pages of
 * this process's userptr objects an EXECBUFFER2 or SET_DOMAIN names are
 * faulted in by the calling thread first; a USERPTR's range is noted. */
void remote_userptr_before(unsigned long request, const void *arg);
void remote_userptr_after(unsigned long request, const void *arg, int ret);
/* fd is closed (or about to be replaced): forget it. */
void devnode_forget(int fd);
/* newfd now refers to the same open file as oldfd (dup). */
void devnode_dup(int oldfd, int newfd);
/* The fake stat of a node. */
void devnode_fill_stat(int minor, struct stat *st);
void devnode_fill_statx(int minor, struct statx *stx);

/* fork.c: in the child, makes dev a private copy (object memory copied,
 * batches run inside execbuf); false when that failed (the child then
 * gets a new, empty device). */
struct gtsim_device;
bool fork_child_device(struct gtsim_device *dev);
int fork_privatize_memory(struct gtsim_device *dev);

/* fork_share.c: a fork child uses its parent's device through a server
 * in the parent (the default; GTSIM_FORK_SHARE=0: fork.c's copy). fork_share_start: the server's
 * socket path (started on dev at the first call in this process), NULL
 * when it could not start; fork_share_file: the id of file there (0:
 * none); fork_share_release: drops the process's reference to a shared
 * file (the last reference closes it), false when this process has no
 * server (the caller closes the file itself); fork_share_child: in a fork
 * child, forgets the parent's server. */
struct gtsim_file;
bool fork_share_wanted(void);
const char *fork_share_start(struct gtsim_device *dev);
uint64_t fork_share_file(struct gtsim_file *file);
bool fork_share_release(uint64_t id);
void fork_share_child(void);
/* In the process whose server it is: an ioctl on a sw_sync timeline the
 * server made for a fork child (which passed it back), -ENOTTY when fd
 * is none of them or this process has no server. */
int fork_share_timeline_ioctl(int fd, unsigned long request, void *arg);

/* sysfs.c */
/* When path lies in the tree the shim serves (/sys/dev/char/226:*,
 * /sys/class/drm, the PCI device, /dev/dri as a directory), writes the
 * path inside the temporary directory to buf and returns buf; else
 * returns path unchanged. */
const char *sysfs_redirect(const char *path, char *buf, size_t size);
/* Strips the temporary directory's prefix from a resolved path (realpath)
 * in place, so clients see /sys/...; true when it did. */
bool sysfs_unredirect(char *resolved);
/* fd is an open of the served resource0 file (the PCI BAR 0). */
bool sysfs_is_bar0_fd(int fd);

/* The path inside the temporary tree (no leading '/') of a path that
 * lies in it (a rewritten one, or a real path resolved there), else NULL;
 * sysfs_tree_exists: the tree has been created. */
const char *sysfs_tree_relative(const char *path);
/* Registers the tree's removal at exit; called when the library loads
 * (devnode.c), before the program's own exit handlers, so that the tree
 * goes after them: IGT's exit handler still writes debugfs
 * (gem_quiescent_gpu) while the program exits. */
void sysfs_register_cleanup(void);
bool sysfs_tree_exists(void);

/* debugfs.c: the served files whose contents are the kernel model's
 * (debugfs, module parameters). debugfs_open(_at) give a new descriptor
 * (or -1 with errno) for such a file, DEBUGFS_NOT_OURS for any other path;
 * debugfs_forget(fd) applies what was written to fd, before it closes. */
#define DEBUGFS_NOT_OURS (-2)
int debugfs_open(const char *real_path, int flags);
int debugfs_open_at(int dirfd, const char *path, int flags);
/* /proc/self/fd/N (or /dev/fd/N) of such a file: a new open of it. */
int debugfs_reopen(const char *path, int flags);
/* write(2) on a served debugfs, parameter or engine file: applied now.
 * *handled false when fd is not such a file opened for writing; else the
 * bytes written or -errno (the kernel model's refusal). */
ssize_t debugfs_write(int fd, const void *buf, size_t n, bool *handled);
/* GTSIM_VGEM=1: the vgem module is "loaded": card1 and renderD129 exist
 * (devnode.c). Without it Mesa, which probes every render node, would
 * warn about vgem's missing DRI driver in every program. */
bool shim_vgem_loaded(void);
bool debugfs_is_ours(int fd);
/* Shared mode: fd is a sw_sync timeline this process opened on the
 * server (its close then waits for the server, gtsim_remote_sw_sync_reap). */
bool debugfs_is_server_timeline(int fd);
void debugfs_forget(int fd);
/* The sw_sync timeline behind fd (an open of sync/sw_sync), or NULL. */
struct gtsim_sw_timeline;
struct gtsim_sw_timeline *debugfs_sw_timeline(int fd);
/* fd is an in-process sw_sync timeline (its memfd), this process's or,
 * after a fork or SCM_RIGHTS, another's. */
bool debugfs_is_process_timeline(int fd);
/* This process has an in-process timeline open. */
bool debugfs_has_timelines(void);
/* An ioctl on the timeline of this process that fd names, found by the
 * memfd's inode (fd: a dup, or a copy a fork child passed back to its
 * parent's server); -ENOTTY when it names none. */
int debugfs_own_timeline_ioctl(int fd, unsigned long request, void *arg);
/* Fork sharing, in the child: the inherited in-process timelines are the
 * parent's, reached through its server (their ioctls and close). */
void debugfs_fork_share_child(void);

/* bar_mmio.c */
#define BAR0_SIZE (16u << 20)        /* GTTMMADR: registers, then the GGTT */
#define BAR0_MMIO_SIZE (2u << 20)    /* the register range */
/* mmap of resource0 at offset off: an inaccessible region whose loads and
 * stores are executed as register accesses. MAP_FAILED with errno (EINVAL
 * for a range outside the BAR). */
void *bar_mmio_map(void *addr, size_t len, int prot, int flags, off_t off);
/* [addr, addr+len) is being unmapped or replaced: it is BAR no longer. */
void bar_mmio_forget(void *addr, size_t len);
/* After an mprotect of [addr, addr+len): BAR pages stay inaccessible. */
void bar_mmio_keep_protected(void *addr, size_t len);

/* Is fd a dma-buf the kernel model exported (hook_dmabuf.c). */
bool shim_is_dmabuf(int fd);
/* Does /proc/self/fd/<fd> read as a link starting with prefix (a memfd's
 * "/memfd:NAME"). */
bool shim_fd_links_to(int fd, const char *prefix);

#endif
