/* What IGT's library does with the device besides ioctls on it, run under
 * `gtsim run` (the kernel model behind the shim). Oracles: Linux 6.1's
 * behaviour as its source defines it (drm_auth.c, drm_ioctl.c's
 * permissions, i915_debugfs.c and gt/intel_gt_debugfs.c, i915_params.c,
 * kernfs's permission check), and IGT 1.27.1's use of it:
 *  - gem_reopen_driver: open("/proc/self/fd/N") of a DRM fd gives a new
 *    file of the same node (its own handles), /dev/fd/N too; readlink of it
 *    names the node;
 *  - DRM master on card0: first opener master, SET/DROP_MASTER, GET_MAGIC /
 *    AUTH_MAGIC, GET_CLIENT, GET_STATS; the render node is refused them
 *    (-EACCES);
 *  - debugfs: i915_gem_drop_caches (DROP_SHRINK_ALL purges a DONTNEED
 *    object: MADVISE then reports it not retained), i915_wedged, the error
 *    state, clients; written through openat() on the debugfs directory as
 *    igt_sysfs_printf does;
 *  - a refused parameter write fails write(2) with kstrtoint's errno;
 *  - /sys/module/i915/parameters and dri/0/i915_params: reset=0 makes a
 *    hang wedge the device (THROTTLE and execbuf -EIO, i915_wedged reads
 *    1) and writing i915_wedged with resets enabled recovers it;
 *    enable_guc is read-only (open for writing: EACCES);
 *  - card0/engine/rcs0/ properties as IGT's gem_engine_property_printf
 *    reads and writes them (a reopen through /proc/self/fd), i915's
 *    defaults, .defaults/ read-only (sysfs_engines.c);
 *  - sync/sw_sync (IGT's lib/sw_sync.c): a fence at value N signals when
 *    INC brings the timeline to N, at once when it is there already, and
 *    with -ENOENT when the timeline is closed (drivers/dma-buf/sw_sync.c). */
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <drm.h>
#include <i915_drm.h>

#include "test.h"

#define DEBUGFS "/sys/kernel/debug/dri/0"
#define PARAMS "/sys/module/i915/parameters"

static int xioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) ? -errno : 0;
}

static uint32_t gem_create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	return xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c) ? 0 : c.handle;
}

/* The whole text of a file ("" when it cannot be read). */
static const char *read_text(int dirfd, const char *path)
{
	static char buf[65536];
	buf[0] = 0;
	int fd = dirfd >= 0 ? openat(dirfd, path, O_RDONLY) : open(path, O_RDONLY);
	if (fd < 0)
		return buf;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	close(fd);
	return buf;
}

/* One open/write/close, as IGT's igt_sysfs_write. 0 or -errno. */
static int write_text(int dirfd, const char *path, const char *text)
{
	int fd = dirfd >= 0 ? openat(dirfd, path, O_WRONLY) : open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int err = n < 0 ? -errno : n == (ssize_t)strlen(text) ? 0 : -EIO;
	close(fd);
	return err;
}

static void check_reopen(void)
{
	int fd = open("/dev/dri/card0", O_RDWR);
	CHECK(fd >= 0);
	uint32_t h = gem_create(fd, 4096);
	CHECK(h != 0);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int fd2 = open(path, O_RDWR);
	CHECK(fd2 >= 0 && fd2 != fd);
	struct stat st;
	CHECK_EQ(fstat(fd2, &st), 0);
	CHECK(S_ISCHR(st.st_mode));
	CHECK_EQ(major(st.st_rdev), 226);
	CHECK_EQ(minor(st.st_rdev), 0);
	/* A new file: the first file's handle is unknown there. */
	struct drm_gem_close cl = { .handle = h };
	CHECK_EQ(xioctl(fd2, DRM_IOCTL_GEM_CLOSE, &cl), -EINVAL);
	CHECK_EQ(xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl), 0);
	char target[64] = "";
	CHECK_EQ(readlink(path, target, sizeof(target) - 1), 14);
	CHECK_STR(target, "/dev/dri/card0");
	close(fd2);
	close(fd);

	int r = open("/dev/dri/renderD128", O_RDWR);
	snprintf(path, sizeof(path), "/dev/fd/%d", r);
	int r2 = open(path, O_RDWR);
	CHECK(r2 >= 0);
	CHECK_EQ(fstat(r2, &st), 0);
	CHECK_EQ(minor(st.st_rdev), 128);
	close(r2);
	close(r);
	/* Not a DRM fd: the real /proc answers. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", 0);
	int in = open(path, O_RDONLY);
	if (in >= 0) {
		CHECK_EQ(fstat(in, &st), 0);
		CHECK(!(S_ISCHR(st.st_mode) && major(st.st_rdev) == 226));
		close(in);
	}
}

static void check_master(void)
{
	int a = open("/dev/dri/card0", O_RDWR);   /* first opener: master */
	int b = open("/dev/dri/card0", O_RDWR);
	int r = open("/dev/dri/renderD128", O_RDWR);
	CHECK(a >= 0 && b >= 0 && r >= 0);
	CHECK_EQ(xioctl(a, DRM_IOCTL_SET_MASTER, NULL), 0);        /* already */
	CHECK_EQ(xioctl(b, DRM_IOCTL_SET_MASTER, NULL), -EBUSY);
	CHECK_EQ(xioctl(b, DRM_IOCTL_DROP_MASTER, NULL), -EINVAL);
	CHECK_EQ(xioctl(r, DRM_IOCTL_SET_MASTER, NULL), -EACCES);
	CHECK_EQ(xioctl(r, DRM_IOCTL_DROP_MASTER, NULL), -EACCES);

	struct drm_auth auth = { 0 };
	CHECK_EQ(xioctl(r, DRM_IOCTL_GET_MAGIC, &auth), -EACCES);
	CHECK_EQ(xioctl(b, DRM_IOCTL_GET_MAGIC, &auth), 0);
	CHECK(auth.magic != 0);
	uint32_t magic = auth.magic;
	CHECK_EQ(xioctl(b, DRM_IOCTL_GET_MAGIC, &auth), 0);
	CHECK_EQ(auth.magic, magic);                                /* stable */
	CHECK_EQ(xioctl(b, DRM_IOCTL_AUTH_MAGIC, &auth), -EACCES);  /* not master */
	struct drm_auth bad = { .magic = magic + 100 };
	CHECK_EQ(xioctl(a, DRM_IOCTL_AUTH_MAGIC, &bad), -EINVAL);
	CHECK_EQ(xioctl(a, DRM_IOCTL_AUTH_MAGIC, &auth), 0);
	CHECK_EQ(xioctl(a, DRM_IOCTL_AUTH_MAGIC, &auth), -EINVAL);  /* used once */

	/* GET_CLIENT (Linux's hollowed-out form): index 0 is the caller, with
	 * its authentication and pid; index 1 -EINVAL; render node -EACCES.
	 * GET_STATS: zeroed. */
	struct drm_client cl = { .idx = 0 };
	CHECK_EQ(xioctl(b, DRM_IOCTL_GET_CLIENT, &cl), 0);
	CHECK_EQ(cl.auth, geteuid() == 0 ? 1 : 0);   /* a root opener is authenticated */
	CHECK_EQ(cl.pid, (unsigned long)getpid());
	cl.idx = 1;
	CHECK_EQ(xioctl(b, DRM_IOCTL_GET_CLIENT, &cl), -EINVAL);
	cl.idx = 0;
	CHECK_EQ(xioctl(r, DRM_IOCTL_GET_CLIENT, &cl), -EACCES);
	struct drm_stats stats;
	memset(&stats, 0xff, sizeof(stats));
	CHECK_EQ(xioctl(a, DRM_IOCTL_GET_STATS, &stats), 0);
	CHECK_EQ(stats.count, 0);

	/* clients: the master's line says y. */
	const char *clients = read_text(-1, DEBUGFS "/clients");
	CHECK(strstr(clients, "command") != NULL);
	CHECK(strstr(clients, "   y    y ") != NULL);

	CHECK_EQ(xioctl(a, DRM_IOCTL_DROP_MASTER, NULL), 0);
	CHECK_EQ(xioctl(a, DRM_IOCTL_DROP_MASTER, NULL), -EINVAL);
	CHECK_EQ(xioctl(b, DRM_IOCTL_SET_MASTER, NULL), 0);         /* privileged */
	CHECK_EQ(xioctl(a, DRM_IOCTL_SET_MASTER, NULL), -EBUSY);
	close(b);                                                   /* master goes */
	CHECK_EQ(xioctl(a, DRM_IOCTL_SET_MASTER, NULL), 0);
	close(a);
	close(r);
}

static void check_drop_caches(void)
{
	int fd = open("/dev/dri/card0", O_RDWR);
	int dir = open(DEBUGFS, O_RDONLY);
	CHECK(fd >= 0 && dir >= 0);
	CHECK_STR(read_text(dir, "i915_gem_drop_caches"), "0x000003ff\n");
	uint32_t h = gem_create(fd, 65536);
	/* Pages first (SET_DOMAIN pins them): i915 truncates a DONTNEED
	 * object without pages at once. */
	struct drm_i915_gem_set_domain sd = { .handle = h, .read_domains = I915_GEM_DOMAIN_CPU };
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), 0);
	struct drm_i915_gem_madvise m = { .handle = h, .madv = I915_MADV_DONTNEED };
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &m), 0);
	CHECK_EQ(m.retained, 1);
	/* IGT's igt_drop_caches_set: "0x%" PRIx64 through openat(). */
	CHECK_EQ(write_text(dir, "i915_gem_drop_caches", "0x20"), 0);   /* DROP_SHRINK_ALL */
	m.madv = I915_MADV_WILLNEED;
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &m), 0);
	CHECK_EQ(m.retained, 0);                                          /* purged */
	CHECK(strstr(read_text(dir, "i915_gem_objects"), "objects, ") != NULL);
	CHECK(strstr(read_text(dir, "i915_capabilities"), "graphics version: ") != NULL);
	CHECK(strstr(read_text(dir, "i915_engine_info"), "rcs0") != NULL);
	/* i915_wa_registers exists and lists no workaround (the model applies
	 * none; i915 prints nothing for an empty list) */
	int wa = openat(dir, "i915_wa_registers", O_RDONLY);
	CHECK(wa >= 0);
	char wb[8];
	CHECK_EQ(wa >= 0 ? read(wa, wb, sizeof(wb)) : -1, 0);
	if (wa >= 0)
		close(wa);
	close(dir);
	close(fd);
}

/* A batch with an unknown command: the engine faults, a hang at once. */
static int exec_fault(int fd)
{
	uint32_t bb = gem_create(fd, 4096);
	const uint32_t junk[2] = { 0xffffffff, 0x0a << 23 };
	struct drm_i915_gem_pwrite pw = { .handle = bb, .size = sizeof(junk),
					  .data_ptr = (uintptr_t)junk };
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
	struct drm_i915_gem_exec_object2 o = { .handle = bb };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&o, .buffer_count = 1 };
	int ret = xioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	if (!ret) {
		struct drm_i915_gem_wait w = { .bo_handle = bb, .timeout_ns = 5000000000ll };
		CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	}
	return ret;
}

static void check_params_and_wedge(void)
{
	int fd = open("/dev/dri/card0", O_RDWR);
	CHECK(fd >= 0);
	CHECK_STR(read_text(-1, PARAMS "/reset"), "3\n");    /* 6.1's default */
	CHECK_STR(read_text(-1, PARAMS "/enable_guc"), "0\n");
	CHECK_STR(read_text(-1, DEBUGFS "/i915_params/enable_hangcheck"), "Y\n");
	CHECK_EQ(write_text(-1, PARAMS "/enable_guc", "1"), -EACCES);
	/* reset is unsigned in 6.1 (param_set_uint, kstrtouint): IGT's
	 * gem_ctx_persistence restores it with "%u" of -1; write(2) fails as
	 * kernfs's store does (-ERANGE past UINT_MAX, -EINVAL for a sign or
	 * no number) and nothing changes */
	CHECK_EQ(write_text(-1, PARAMS "/reset", "4294967295"), 0);
	CHECK_STR(read_text(-1, PARAMS "/reset"), "4294967295\n");
	CHECK_EQ(write_text(-1, PARAMS "/reset", "4294967296"), -ERANGE);
	CHECK_EQ(write_text(-1, PARAMS "/reset", "-1"), -EINVAL);
	CHECK_EQ(write_text(-1, PARAMS "/reset", "two"), -EINVAL);
	CHECK_STR(read_text(-1, PARAMS "/reset"), "4294967295\n");
	CHECK_EQ(write_text(-1, PARAMS "/enable_hangcheck", "N\n"), 0);
	CHECK_STR(read_text(-1, DEBUGFS "/i915_params/enable_hangcheck"), "N\n");
	CHECK_EQ(write_text(-1, DEBUGFS "/i915_params/enable_hangcheck", "1"), 0);
	CHECK_STR(read_text(-1, PARAMS "/enable_hangcheck"), "Y\n");

	CHECK_STR(read_text(-1, DEBUGFS "/i915_wedged"), "0\n");
	CHECK_STR(read_text(-1, DEBUGFS "/i915_error_state"), "No error state collected\n");
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL), 0);

	/* Resets disabled: the hang wedges the device. */
	CHECK_EQ(write_text(-1, PARAMS "/reset", "0"), 0);
	CHECK_EQ(exec_fault(fd), 0);
	CHECK_STR(read_text(-1, DEBUGFS "/i915_wedged"), "1\n");
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL), -EIO);
	CHECK_EQ(exec_fault(fd), -EIO);
	CHECK(strstr(read_text(-1, DEBUGFS "/i915_error_state"), "GPU HANG") != NULL);
	/* Still disabled: a manual reset cannot recover. */
	CHECK_EQ(write_text(-1, DEBUGFS "/i915_wedged", "18446744073709551615"), 0);
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL), -EIO);
	/* Enabled again (IGT's igt_require_gem: write i915_wedged -1). */
	CHECK_EQ(write_text(-1, PARAMS "/reset", "2"), 0);
	CHECK_EQ(write_text(-1, DEBUGFS "/i915_wedged", "18446744073709551615"), 0);
	CHECK_STR(read_text(-1, DEBUGFS "/i915_wedged"), "0\n");
	CHECK_EQ(xioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL), 0);
	/* card0's sysfs error is the same state (igt_allow_hang clears it
	 * through igt_sysfs_open + "error"); writing either clears it. */
	int sys = open("/sys/dev/char/226:0", O_RDONLY);
	CHECK(sys >= 0);
	CHECK(strstr(read_text(sys, "error"), "GPU HANG") != NULL);
	close(sys);
	CHECK_EQ(write_text(-1, DEBUGFS "/i915_error_state", "1"), 0);
	CHECK_STR(read_text(-1, DEBUGFS "/i915_error_state"), "No error state collected\n");
	CHECK_STR(read_text(-1, "/sys/class/drm/card0/error"), "No error state collected\n");
	close(fd);
}

struct sw_fence_data {
	uint32_t value;
	char name[32];
	int32_t fence;
};
#define SW_CREATE_FENCE _IOWR('W', 0, struct sw_fence_data)
#define SW_INC _IOW('W', 1, uint32_t)

static int sw_fence(int tl, uint32_t value)
{
	struct sw_fence_data d = { .value = value };
	return xioctl(tl, SW_CREATE_FENCE, &d) ? -1 : d.fence;
}

static int fence_status(int fd)
{
	struct sync_fence_info info = { 0 };
	struct sync_file_info fi = { .num_fences = 1, .sync_fence_info = (uintptr_t)&info };
	CHECK_EQ(xioctl(fd, SYNC_IOC_FILE_INFO, &fi), 0);
	return info.status;
}

static void check_sw_sync(void)
{
	CHECK_EQ(access("/sys/kernel/debug/sync/sw_sync", R_OK | W_OK), 0);
	int tl = open("/sys/kernel/debug/sync/sw_sync", O_RDWR);
	CHECK(tl >= 0);
	int f2 = sw_fence(tl, 2);
	CHECK(f2 >= 0);
	struct pollfd p = { .fd = f2, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 0), 0);
	uint32_t one = 1;
	CHECK_EQ(xioctl(tl, SW_INC, &one), 0);
	CHECK_EQ(poll(&p, 1, 0), 0);
	CHECK_EQ(fence_status(f2), 0);
	CHECK_EQ(xioctl(tl, SW_INC, &one), 0);
	CHECK_EQ(poll(&p, 1, 1000), 1);
	CHECK_EQ(fence_status(f2), 1);
	int f1 = sw_fence(tl, 1);            /* passed already */
	CHECK(f1 >= 0);
	CHECK_EQ(fence_status(f1), 1);
	int f9 = sw_fence(tl, 9);
	CHECK_EQ(fence_status(f9), 0);
	close(tl);                           /* pending fences fail */
	CHECK_EQ(fence_status(f9), -ENOENT);
	close(f9);
	close(f1);
	close(f2);
}

/* IGT's gem_engine_property_scanf/printf (lib/i915/gem_engine_topology.c):
 * /sys/dev/char/226:0, openat "engine", openat "rcs0", openat the
 * property read-only, then (to write) open("/proc/self/fd/N", O_RDWR) and
 * close N; i915's sysfs_engines.c defaults (heartbeat_interval_ms 2500,
 * .defaults/ read-only) and stores. */
static int engine_attr(const char *attr, int mode)
{
	int dir = open("/sys/dev/char/226:0", O_RDONLY);
	int engines = openat(dir, "engine", O_RDONLY);
	int rcs = openat(engines, "rcs0", O_RDONLY);
	int fd = openat(rcs, attr, O_RDONLY);
	close(dir);
	close(engines);
	close(rcs);
	if (fd < 0 || mode == O_RDONLY)
		return fd;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int rw = open(path, mode);
	close(fd);
	return rw;
}

static void check_engine_sysfs(void)
{
	char buf[32] = "";
	int fd = engine_attr("heartbeat_interval_ms", O_RDONLY);
	CHECK(fd >= 0);
	CHECK(read(fd, buf, sizeof(buf) - 1) > 0);
	CHECK_STR(buf, "2500\n");
	close(fd);
	fd = engine_attr("heartbeat_interval_ms", O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "250", 3), 3);
	close(fd);
	memset(buf, 0, sizeof(buf));
	fd = engine_attr("heartbeat_interval_ms", O_RDONLY);
	CHECK(read(fd, buf, sizeof(buf) - 1) > 0);
	CHECK_STR(buf, "250\n");
	close(fd);
	memset(buf, 0, sizeof(buf));
	fd = engine_attr(".defaults/heartbeat_interval_ms", O_RDONLY);
	CHECK(fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0);
	CHECK_STR(buf, "2500\n");
	close(fd);
	errno = 0;
	CHECK_EQ(engine_attr(".defaults/heartbeat_interval_ms", O_WRONLY), -1);
	CHECK_EQ(access("/sys/class/drm/card0/engine/bcs0/preempt_timeout_ms", R_OK), 0);
}

int main(void)
{
	check_engine_sysfs();
	check_reopen();
	check_master();
	check_drop_caches();
	check_params_and_wedge();
	check_sw_sync();
	return test_exit();
}
