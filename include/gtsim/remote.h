/* Shared-device mode (docs/shared-device.md): one device server process
 * owns the gtsim_device; client processes reach it over a Unix socket, one
 * connection per DRM open, one message per ioctl.
 *
 * The wire (SOCK_SEQPACKET, so a message is one record):
 *   request  struct gtsim_wire_req, then `size` bytes of the ioctl's struct
 *            (size = _IOC_SIZE(request)); an fd the struct carries in
 *            (common/drm_fd_args.h) travels as SCM_RIGHTS;
 *   reply    struct gtsim_wire_rep, then the struct as the handler left it;
 *            an fd it carries out travels as SCM_RIGHTS and the client
 *            writes its own number for it into the struct.
 * The first request of a connection is GTSIM_WIRE_OPEN (request = the node
 * minor: 0 card0, 128 renderD128), which makes the connection's DRM file
 * and replies with its id (a uint64_t), or GTSIM_WIRE_ATTACH (request =
 * such an id), which makes the connection a second way to the same file:
 * the shim gives each thread and each fork child of a process its own
 * connection to a file, so that replies never cross and a blocking wait
 * holds back only its own thread. GTSIM_WIRE_MMAP (struct gtsim_wire_map)
 * replies with the descriptor to map for an mmap of the device file or a
 * GEM_MMAP; GTSIM_WIRE_DEBUGFS (struct gtsim_wire_debugfs, no file needed)
 * reads or writes a debugfs file or module parameter of the server's
 * device, a read's text coming back in a memfd. GTSIM_WIRE_FDIOCTL is an
 * ioctl on a descriptor the server made (a sync_file, a dma-buf, a
 * sw_sync timeline), passed first; GTSIM_WIRE_SWSYNC_OPEN makes a sw_sync
 * timeline and replies with its descriptor (the write end of a pipe whose
 * last close, in any process, destroys the timeline); GTSIM_WIRE_SWSYNC_REAP
 * destroys at once the timelines whose last descriptor has been closed.
 * GTSIM_WIRE_CANCEL (no struct, no reply) is sent by a client on the
 * connection whose IOCTL reply it awaits when a signal handler ran
 * meanwhile: the server's interruptible waits in that ioctl end as a
 * signal ends i915's (-ERESTARTSYS, or the ioctl's own -EINTR), and the
 * client restarts the call or fails it with EINTR as the kernel's return
 * to user space does (SA_RESTART); arriving after the reply it is
 * ignored.
 * Pointers inside the struct stay the client's: the server reads and
 * writes them in process `pid` (process_vm_readv/writev), -EFAULT when
 * they are bad, as i915's copy_from_user. */
#ifndef GTSIM_REMOTE_H
#define GTSIM_REMOTE_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gtsim_device;

#define GTSIM_WIRE_MAGIC 0x67747331u   /* "gts1" */
enum gtsim_wire_op {
	GTSIM_WIRE_OPEN = 1,
	GTSIM_WIRE_IOCTL = 2,
	GTSIM_WIRE_ATTACH = 3,
	GTSIM_WIRE_MMAP = 4,
	GTSIM_WIRE_DEBUGFS = 5,
	GTSIM_WIRE_FDIOCTL = 6,
	GTSIM_WIRE_SWSYNC_OPEN = 7,
	GTSIM_WIRE_SWSYNC_REAP = 8,
	GTSIM_WIRE_CANCEL = 9,
	GTSIM_WIRE_MMIO = 10,
};
/* or'ed into GTSIM_WIRE_IOCTL: the client's descriptor is O_NONBLOCK */
#define GTSIM_WIRE_OP_NONBLOCK 0x100u

/* GTSIM_WIRE_MMAP: handle 0: an mmap of length bytes of the device file
 * at offset (a MMAP_OFFSET/MMAP_GTT fake offset); else GEM_MMAP of
 * [offset, +length) of object handle with flags. The reply has fd_off, the
 * offset to map the passed descriptor at. */
struct gtsim_wire_map {
	uint64_t offset, length, flags;
	uint32_t handle, pad;
	uint64_t fd_off;
};

/* GTSIM_WIRE_DEBUGFS: kind 0 a debugfs file (dri/N/name), 1 a module
 * parameter, 2 an engine file ("rcs0/name"); write: the `size - sizeof`
 * bytes after the struct are written, else the file is read. */
enum gtsim_wire_debugfs_kind { GTSIM_DEBUGFS_FILE, GTSIM_DEBUGFS_PARAM, GTSIM_DEBUGFS_ENGINE };
struct gtsim_wire_debugfs {
	uint32_t kind, write;
	char name[64];
};

/* GTSIM_WIRE_MMIO: a 32-bit register access through the PCI BAR, as
 * gtsim_mmio_read/write; a read's value comes back in value. */
struct gtsim_wire_mmio {
	uint32_t reg, write;
	uint64_t value;
};

struct gtsim_wire_req {
	uint32_t magic;
	uint32_t op;          /* enum gtsim_wire_op */
	uint64_t request;     /* OPEN: the minor; IOCTL: the ioctl number */
	int32_t pid;          /* the calling process (its memory for pointers) */
	uint32_t size;        /* bytes of struct that follow */
};

struct gtsim_wire_rep {
	int32_t ret;          /* 0 or -errno */
	uint32_t size;        /* bytes of struct that follow */
};

/* The largest struct: _IOC_SIZE's 14 bits. */
#define GTSIM_WIRE_MAX_ARG 16383u

/* Server (kernel/server/): serves every connection accepted on listen_fd
 * (a listening SOCK_SEQPACKET Unix socket) on a thread of its own against
 * dev, until the last client has gone (at least one came). 0 or -errno. */
int gtsim_server_run(struct gtsim_device *dev, int listen_fd);
/* The same until end_fd (a pidfd: the run's program) has polled readable
 * and no client is connected any more (a run's program closes and reopens
 * the device between its tests). */
int gtsim_server_run_until(struct gtsim_device *dev, int listen_fd, int end_fd);

/* A server inside the calling process (the shim's fork sharing):
 * serves listen_fd against dev from threads of its own, which block every
 * signal, for the rest of the process's life. NULL when it could not
 * start. own_timeline_ioctl (may be NULL): an ioctl on a sw_sync timeline
 * the calling process made itself (its own descriptors, which a client,
 * its fork child, passes back), -ENOTTY when fd is none of them; the
 * server asks it for a timeline of none of its own. */
struct gtsim_server;
struct gtsim_file;
typedef int gtsim_own_timeline_ioctl_fn(int fd, unsigned long request, void *arg);
struct gtsim_server *gtsim_server_start(struct gtsim_device *dev, int listen_fd,
					gtsim_own_timeline_ioctl_fn *own_timeline_ioctl);
/* An ioctl, in the server's own process, on a sw_sync timeline the server
 * made for a client (the client passed its descriptor): 0.. or -errno,
 * -ENOTTY when fd is none of them. */
int gtsim_server_timeline_ioctl(struct gtsim_server *srv, int fd, unsigned long request,
				void *arg);
/* Makes file, a DRM file this process opened, reachable by ATTACH: its id
 * (0: no memory). The server holds it with one reference, the caller's,
 * which gtsim_server_release_file drops: the file closes (gtsim_close)
 * when that reference and every connection to it are gone. */
uint64_t gtsim_server_share_file(struct gtsim_server *srv, struct gtsim_file *file);
void gtsim_server_release_file(struct gtsim_server *srv, uint64_t id);

/* Client (shim/remote/): a new DRM file of node minor on the server
 * listening at path; the connection's descriptor or -errno. */
int gtsim_remote_open(const char *path, int minor);
/* The same, with the file's id for gtsim_remote_attach in *id. */
int gtsim_remote_open_id(const char *path, int minor, uint64_t *id);
/* A new connection to the file id (of gtsim_remote_open_id): its
 * descriptor or -errno (-ENOENT: the file is closed). */
int gtsim_remote_attach(const char *path, uint64_t id);
/* mmap of the device file fd at offset, as gtsim_mmap: the object's
 * memory mapped here (MAP_FAILED with errno). */
void *gtsim_remote_mmap(int fd, void *addr, size_t length, int prot, int flags, uint64_t offset);
/* An ioctl on fd, a sync_file, dma-buf or sw_sync timeline of the
 * server's (0 or -errno; -ENOTTY when fd is none of them), and a new
 * sw_sync timeline (its descriptor or -errno), on this thread's connection
 * without a DRM file. */
int gtsim_remote_fd_ioctl(const char *path, int fd, unsigned long request, void *arg);
int gtsim_remote_sw_sync_open(const char *path);
/* After closing a timeline's descriptor: the server has destroyed it when
 * that was the last (its fences signalled). */
void gtsim_remote_sw_sync_reap(const char *path);
/* A register access through the PCI BAR on the server at path (the
 * shim's fault handler, on a connection of the thread's own): 0 or
 * -errno; a read's value in *value. */
int gtsim_remote_mmio(const char *path, uint32_t reg, int write, uint32_t *value);
/* A debugfs read (malloc'ed text, NULL with *err) or write (buf, len) on
 * the server at path, without a DRM file. */
char *gtsim_remote_debugfs_read(const char *path, enum gtsim_wire_debugfs_kind kind,
				const char *name, int *err);
int gtsim_remote_debugfs_write(const char *path, enum gtsim_wire_debugfs_kind kind,
			       const char *name, const char *buf, size_t len);
/* An ioctl on that file, as gtsim_ioctl: 0 or -errno. GEM_MMAP maps the
 * object here (GTSIM_WIRE_MMAP). */
int gtsim_remote_ioctl(int fd, unsigned long request, void *arg);
/* The same with the calling descriptor's status flags (gtsim_ioctl_flags);
 * O_NONBLOCK travels as GTSIM_WIRE_OP_NONBLOCK in the request's op. */
int gtsim_remote_ioctl_flags(int fd, unsigned long request, void *arg, int f_flags);
/* Is the calling thread awaiting a reply on connection conn (a signal
 * handler that runs meanwhile and calls the device needs another one). */
int gtsim_remote_busy(int conn);

#ifdef __cplusplus
}
#endif

#endif
