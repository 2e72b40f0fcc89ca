/* The interposer's hooks, linked in directly (libgtsim-shim.so comes
 * before the C library, as under LD_PRELOAD). Oracles: the DRM node
 * conventions (char 226:minor), the sysfs layout libdrm 2.4.114 reads
 * (realpath of .../device is the PCI device directory, its subsystem
 * resolves to .../bus/pci, its driver to .../drivers/i915, config space
 * bytes per the PCI spec), and POSIX fd semantics for dup2/close. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <i915_drm.h>

#include "test.h"

static int chipset(int fd)
{
	int value = -1;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &value };
	return ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp) ? -errno : value;
}

static void check_stat_variants(void)
{
	struct stat st;
	CHECK_EQ(lstat("/dev/dri/card0", &st), 0);
	CHECK(S_ISCHR(st.st_mode));
	CHECK_EQ(st.st_rdev, makedev(226, 0));
	CHECK_EQ(fstatat(AT_FDCWD, "/dev/dri/renderD128", &st, 0), 0);
	CHECK_EQ(st.st_rdev, makedev(226, 128));
	struct statx stx;
	CHECK_EQ(statx(AT_FDCWD, "/dev/dri/renderD128", 0, STATX_BASIC_STATS, &stx), 0);
	CHECK(S_ISCHR(stx.stx_mode));
	CHECK_EQ(stx.stx_rdev_major, 226);
	CHECK_EQ(stx.stx_rdev_minor, 128);
	CHECK_EQ(access("/dev/dri/card0", R_OK | W_OK), 0);
	CHECK_EQ(access("/dev/dri/card0", X_OK), -1);
	CHECK_EQ(errno, EACCES);
	/* AT_EMPTY_PATH on a device descriptor, with "" and with NULL (which
	 * Linux 6.11 accepts); NULL paths elsewhere fail, never crash. */
	int fd = open("/dev/dri/renderD128", O_RDWR);
	const char *volatile no_path = NULL;
	/* Called through plain pointers: the C library's prototypes say
	 * nonnull, which a direct call with NULL would violate. */
	int (*statx_p)(int, const char *, int, unsigned, struct statx *) = statx;
	int (*stat_p)(const char *, struct stat *) = stat;
	int (*faccessat_p)(int, const char *, int, int) = faccessat;
	memset(&st, 0, sizeof(st));
	CHECK_EQ(fstatat(fd, "", &st, AT_EMPTY_PATH), 0);
	CHECK_EQ(st.st_rdev, makedev(226, 128));
	memset(&stx, 0, sizeof(stx));
	CHECK_EQ(statx_p(fd, no_path, AT_EMPTY_PATH, STATX_BASIC_STATS, &stx), 0);
	CHECK_EQ(stx.stx_rdev_minor, 128);
	CHECK_EQ(stat_p(no_path, &st), -1);
	CHECK_EQ(statx_p(AT_FDCWD, no_path, 0, STATX_BASIC_STATS, &stx), -1);
	CHECK_EQ(faccessat_p(AT_FDCWD, no_path, R_OK, 0), -1);
	close(fd);
	/* Not ours: untouched. */
	CHECK_EQ(stat("/", &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	/* vgem's card1 only with GTSIM_VGEM=1 (a loaded module) */
	CHECK_EQ(open("/dev/dri/card1", O_RDWR), -1);
	CHECK_EQ(errno, ENOENT);
}

static void check_sysfs(void)
{
	char path[PATH_MAX], link[PATH_MAX];
	CHECK(realpath("/sys/dev/char/226:128/device", path) != NULL);
	CHECK_STR(path, "/sys/devices/pci0000:00/0000:00:02.0");
	char *sub = realpath("/sys/dev/char/226:0/device/subsystem", NULL);
	CHECK_STR(sub, "/sys/bus/pci");
	free(sub);
	ssize_t n = readlink("/sys/class/drm/renderD128/device/driver", link, sizeof(link) - 1);
	CHECK(n > 0);
	link[n > 0 ? n : 0] = '\0';
	CHECK(strstr(link, "/drivers/i915") != NULL);

	FILE *f = fopen("/sys/devices/pci0000:00/0000:00:02.0/config", "rb");
	unsigned char config[64] = { 0 };
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(fread(config, 1, sizeof(config), f), sizeof(config));
		fclose(f);
	}
	CHECK_EQ(config[0] | config[1] << 8, 0x8086);
	CHECK_EQ(config[2] | config[3] << 8, 0x1616);
	CHECK_EQ(config[0xb], 0x03);      /* class: display controller */

	char line[256] = "";
	int found = 0;
	f = fopen("/sys/dev/char/226:128/device/uevent", "r");
	while (f && fgets(line, sizeof(line), f))
		found |= !strcmp(line, "PCI_SLOT_NAME=0000:00:02.0\n");
	if (f)
		fclose(f);
	CHECK(found);

	/* drmNodeIsDRM's probe, and IGT's debugfs mount point test. */
	struct stat st, parent;
	CHECK_EQ(stat("/sys/dev/char/226:128/device/drm", &st), 0);
	CHECK_EQ(stat("/sys/kernel/debug", &st), 0);
	CHECK_EQ(stat("/sys/kernel/debug/..", &parent), 0);
	CHECK(st.st_dev != parent.st_dev);
	int dir = open("/sys/kernel/debug/dri/0", O_RDONLY | O_DIRECTORY);
	CHECK(dir >= 0);
	int drop = openat(dir, "i915_gem_drop_caches", O_WRONLY);
	CHECK(drop >= 0);
	CHECK_EQ(write(drop, "0x1f", 4), 4);
	close(drop);
	close(dir);
}

static void check_fd_semantics(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ(chipset(fd), 0x1616);
	/* dup2 onto a device fd replaces it: the target is a pipe after. */
	int p[2];
	CHECK_EQ(pipe(p), 0);
	int copy = dup(fd);
	CHECK_EQ(chipset(copy), 0x1616);
	CHECK_EQ(dup2(p[0], copy), copy);
	CHECK_EQ(chipset(copy), -ENOTTY);
	CHECK_EQ(chipset(fd), 0x1616);
	/* dup3 of the device onto the pipe makes it the device. */
	CHECK_EQ(dup3(fd, p[1], O_CLOEXEC), p[1]);
	CHECK_EQ(chipset(p[1]), 0x1616);
	struct stat st;
	CHECK_EQ(fstat(p[1], &st), 0);
	CHECK(S_ISCHR(st.st_mode));
	/* close_range forgets device fds too. */
	int hi = fcntl(fd, F_DUPFD, 500);
	CHECK(hi >= 500);
	CHECK_EQ(close_range(hi, hi, 0), 0);
	CHECK_EQ(chipset(hi), -EBADF);
	close(fd);
	close(p[1]);
	close(p[0]);
	close(copy);
}

static void own_segv(int sig) { (void)sig; _exit(42); }

/* A program's SIGSEGV handler, installed after the kernel model's copy
 * handler, gets the program's own faults, while a bad pointer handed to an
 * ioctl still fails with EFAULT (as on i915) instead of reaching it. */
static void check_signal_chaining(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR);
	CHECK_EQ(chipset(fd), 0x1616);         /* the copy handler is in place */
	pid_t pid = fork();
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = own_segv }, old;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, NULL);
		CHECK_EQ(sigaction(SIGSEGV, NULL, &old), 0);
		struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID,
						.value = (int *)(uintptr_t)0x10 };
		int r = ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
		if (r != -1 || errno != EFAULT || old.sa_handler != own_segv)
			_exit(1);
		volatile uintptr_t bad = 0x10;
		*(volatile int *)bad = 1;      /* the program's own fault */
		_exit(2);
	}
	int status = 0;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 42);
	close(fd);
}

/* The other entry points of the open family reach the device too, and
 * mmap64 maps an object as mmap does. */
int __open_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);

static void check_open_variants(void)
{
	int fds[5] = {
		open64("/dev/dri/renderD128", O_RDWR),
		openat(AT_FDCWD, "/dev/dri/card0", O_RDWR),
		openat64(AT_FDCWD, "/dev/dri/renderD128", O_RDWR),
		__open_2("/dev/dri/card0", O_RDWR),
		__openat_2(AT_FDCWD, "/dev/dri/renderD128", O_RDWR),
	};
	for (int i = 0; i < 5; i++) {
		CHECK_EQ(chipset(fds[i]), 0x1616);
		if (i)
			CHECK(fds[i] != fds[i - 1]);
	}
	FILE *f = fopen("/dev/dri/card0", "r+");
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(chipset(fileno(f)), 0x1616);
		fclose(f);
	}
	struct drm_i915_gem_create create = { .size = 4096 };
	CHECK_EQ(ioctl(fds[0], DRM_IOCTL_I915_GEM_CREATE, &create), 0);
	struct drm_i915_gem_mmap_offset mo = { .handle = create.handle,
					       .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(ioctl(fds[0], DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	uint32_t *map = mmap64(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], mo.offset);
	CHECK(map != MAP_FAILED);
	if (map != MAP_FAILED) {
		map[3] = 0xfeedf00d;
		uint32_t back = 0;
		struct drm_i915_gem_pread pr = { .handle = create.handle, .offset = 12,
						 .size = 4, .data_ptr = (uintptr_t)&back };
		CHECK_EQ(ioctl(fds[0], DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
		CHECK_EQ(back, 0xfeedf00d);
		munmap(map, 4096);
	}
	for (int i = 0; i < 5; i++)
		close(fds[i]);
}

/* The argument struct itself at a bad address: -EFAULT as from
 * drm_ioctl's copy, never a fault in the host. Copy-out to a read-only
 * page fails after the ioctl took effect (the kernel's order). */
static void check_bad_arguments(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR);
	void *bad = (void *)(uintptr_t)0x10;
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GETPARAM, bad), -1);
	CHECK_EQ(errno, EFAULT);
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, bad), -1);
	CHECK_EQ(errno, EFAULT);
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, bad), -1);
	CHECK_EQ(errno, EFAULT);
	CHECK_EQ(ioctl(fd, DRM_IOCTL_VERSION, bad), -1);
	CHECK_EQ(errno, EFAULT);
	/* An unknown number is -ENOTTY whatever the argument. */
	CHECK_EQ(ioctl(fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3f, struct drm_i915_getparam), bad), -1);
	CHECK_EQ(errno, ENOTTY);
	struct drm_i915_gem_create *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(ro != MAP_FAILED);
	if (ro != MAP_FAILED) {
		ro->size = 4096;
		CHECK_EQ(mprotect(ro, 4096, PROT_READ), 0);
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, ro), -1);
		CHECK_EQ(errno, EFAULT);
		CHECK_EQ(ro->handle, 0);
		/* The object was made: handle 1, the file's first. */
		struct drm_gem_close c = { .handle = 1 };
		CHECK_EQ(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
		munmap(ro, 4096);
	}
	close(fd);
}

/* An ioctl the model lacks is reported once under trace category stub
 * however often it is called: this program again, as a child with
 * GTSIM_TRACE=stub (the trace is set up when the library loads). */
#define UNKNOWN_IOCTL DRM_IOWR(DRM_COMMAND_BASE + 0x3e, struct drm_i915_getparam)
#define UNKNOWN_IOCTL2 DRM_IOWR(DRM_COMMAND_BASE + 0x3f, struct drm_i915_getparam)

static int stub_child(void)
{
	int fd = open("/dev/dri/card0", O_RDWR);
	struct drm_i915_getparam gp = { 0 };
	for (int i = 0; i < 3; i++) {
		if (ioctl(fd, UNKNOWN_IOCTL, &gp) != -1 || errno != ENOTTY)
			return 1;
		if (ioctl(fd, UNKNOWN_IOCTL2, &gp) != -1 || errno != ENOTTY)
			return 1;
	}
	return 0;
}

static void check_stub_once(const char *self)
{
	char trace[] = "/tmp/gtsim-stub-trace-XXXXXX";
	int tfd = mkstemp(trace);
	CHECK(tfd >= 0);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("GTSIM_TRACE", "stub", 1);
		setenv("GTSIM_TRACE_FILE", trace, 1);
		/* a device of its own, whose trace this is (a fork child's
		 * program would otherwise reach this process's device) */
		unsetenv("GTSIM_SERVER");
		execl(self, self, "stub-child", (char *)NULL);
		_exit(127);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	char text[4096] = "";
	ssize_t n = pread(tfd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	close(tfd);
	unlink(trace);
	int lines = 0;
	for (char *p = text; (p = strstr(p, "[stub]")); p++)
		lines++;
	CHECK_EQ(lines, 2);                           /* one per unknown number */
	CHECK(strstr(text, "0x7e") != NULL);          /* DRM_COMMAND_BASE + 0x3e */
	CHECK(strstr(text, "0x7f") != NULL);          /* DRM_COMMAND_BASE + 0x3f */
}

/* A shim process killed before its exit handler leaves its sysfs tree in
 * TMPDIR; the next process to build one removes the trees of processes
 * that are gone and leaves those of live ones. */
static int sweep_child(void)
{
	DIR *d = opendir("/dev/dri");               /* served from the tree */
	if (!d)
		return 1;
	closedir(d);
	return 0;
}

/* Without TMPDIR the tree is built in /dev/shm (a tmpfs: file creation on
 * an ext4 /tmp cost most of a short test's CPU time), or /tmp when
 * /dev/shm cannot be written. */
static int tmpfs_child(void)
{
	DIR *d = opendir("/dev/dri");               /* builds the tree */
	if (!d)
		return 1;
	closedir(d);
	const char *where = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "gtsim-shim-%ld-", (long)getpid());
	int n = 0;
	struct dirent *de;
	DIR *t = opendir(where);
	while (t && (de = readdir(t)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	if (t)
		closedir(t);
	return n == 1 ? 0 : 2;
}

static void check_tree_in_tmpfs(const char *self)
{
	pid_t pid = fork();
	if (pid == 0) {
		unsetenv("TMPDIR");
		execl(self, self, "tmpfs-child", (char *)NULL);
		_exit(127);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
}

static void check_stale_tree_sweep(const char *self)
{
	char tmp[] = "/tmp/gtsim-sweep-test-XXXXXX";
	CHECK(mkdtemp(tmp) != NULL);
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);               /* its pid now names no process */
	char stale[256], stale_file[300], live[256];
	snprintf(stale, sizeof(stale), "%s/gtsim-shim-%ld-abcdef", tmp, (long)dead);
	snprintf(stale_file, sizeof(stale_file), "%s/vendor", stale);
	snprintf(live, sizeof(live), "%s/gtsim-shim-%ld-ghijkl", tmp, (long)getpid());
	CHECK_EQ(mkdir(stale, 0755), 0);
	int sf = open(stale_file, O_CREAT | O_WRONLY, 0644);
	CHECK(sf >= 0);
	close(sf);
	CHECK_EQ(mkdir(live, 0755), 0);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("TMPDIR", tmp, 1);
		execl(self, self, "sweep-child", (char *)NULL);
		_exit(127);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	struct stat st;
	CHECK(stat(stale, &st) != 0);         /* the dead process's tree is gone */
	CHECK(stat(live, &st) == 0);          /* a live owner's is kept */
	rmdir(live);
	rmdir(tmp);                           /* empty: the child removed its own */
	CHECK(stat(tmp, &st) != 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "stub-child"))
		return stub_child();
	if (argc > 1 && !strcmp(argv[1], "sweep-child"))
		return sweep_child();
	if (argc > 1 && !strcmp(argv[1], "tmpfs-child"))
		return tmpfs_child();
	const char *dev = getenv("GTSIM_DEVICE");
	if (dev && *dev && strcmp(dev, "bdw"))
		test_skip("expects the default device (bdw)");
	check_open_variants();
	check_bad_arguments();
	check_stub_once(argv[0]);
	check_stale_tree_sweep(argv[0]);
	check_tree_in_tmpfs(argv[0]);
	check_stat_variants();
	check_sysfs();
	check_fd_semantics();
	check_signal_chaining();
	return test_exit();
}
