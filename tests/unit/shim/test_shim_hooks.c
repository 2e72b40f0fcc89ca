/* The interposer's hooks, linked in directly (libgtsim-shim.so comes
 * before the C library, as under LD_PRELOAD). Oracles: the DRM node
 * conventions (char 226:minor), the sysfs layout libdrm 2.4.114 reads
 * (realpath of .../device is the PCI device directory, its subsystem
 * resolves to .../bus/pci, its driver to .../drivers/i915, config space
 * bytes per the PCI spec), and POSIX fd semantics for dup2/close. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>
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

int main(void)
{
	const char *dev = getenv("GTSIM_DEVICE");
	if (dev && *dev && strcmp(dev, "bdw"))
		test_skip("expects the default device (bdw)");
	check_stat_variants();
	check_sysfs();
	check_fd_semantics();
	check_signal_chaining();
	return test_exit();
}
