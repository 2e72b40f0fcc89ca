/* A client that knows nothing of gtsim: it uses /dev/dri/renderD128 the way
 * libdrm, Mesa and IGT do, and is run under `gtsim run`. Oracles: the DRM
 * uAPI (char device 226:128, driver name "i915"), the design's identity of
 * the default device (BDW GT2, PCI 8086:1616), bytes written through one
 * path read back through another. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <linux/dma-buf.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <drm.h>
#include <i915_drm.h>
#include <xf86drm.h>

#include "test.h"

static int getparam(int fd, int param, int *value)
{
	struct drm_i915_getparam gp = { .param = param, .value = value };
	return ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

static uint32_t gem_create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	return ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c) ? 0 : c.handle;
}

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };
	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static void check_nodes(void)
{
	struct stat st;
	CHECK_EQ(stat("/dev/dri/renderD128", &st), 0);
	CHECK(S_ISCHR(st.st_mode));
	CHECK_EQ(major(st.st_rdev), 226);
	CHECK_EQ(minor(st.st_rdev), 128);
	CHECK_EQ(stat("/dev/dri/card0", &st), 0);
	CHECK_EQ(minor(st.st_rdev), 0);
	CHECK_EQ(access("/dev/dri/renderD128", R_OK | W_OK), 0);

	int seen = 0;
	DIR *d = opendir("/dev/dri");
	CHECK(d != NULL);
	for (struct dirent *e; d && (e = readdir(d));)
		seen |= (!strcmp(e->d_name, "card0") ? 1 : 0) |
			(!strcmp(e->d_name, "renderD128") ? 2 : 0);
	if (d)
		closedir(d);
	CHECK_EQ(seen, 3);
}

static void check_version(int fd)
{
	char name[32] = "";
	struct drm_version v = { 0 };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
	CHECK_EQ(v.name_len, 4);
	v.name = name;
	v.name_len = sizeof(name) - 1;
	v.date = NULL;
	v.date_len = 0;
	v.desc = NULL;
	v.desc_len = 0;
	CHECK_EQ(ioctl(fd, DRM_IOCTL_VERSION, &v), 0);
	CHECK_STR(name, "i915");
}

static void check_gem_and_mmap(int fd)
{
	int chipset = 0;
	CHECK_EQ(getparam(fd, I915_PARAM_CHIPSET_ID, &chipset), 0);
	CHECK_EQ(chipset, 0x1616);

	uint32_t handle = gem_create(fd, 8192);
	CHECK(handle != 0);
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = I915_MMAP_OFFSET_WB };
	int r = ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo);
	if (r) {
		struct drm_i915_gem_mmap_gtt gtt = { .handle = handle };
		r = ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &gtt);
		mo.offset = gtt.offset;
	}
	CHECK_EQ(r, 0);
	uint32_t *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mo.offset);
	CHECK(map != MAP_FAILED);
	if (map != MAP_FAILED) {
		for (int i = 0; i < 2048; i++)
			map[i] = 0x1000 + i;
		/* Read back through PREAD: the mapping is the object's memory. */
		uint32_t back[4] = { 0 };
		struct drm_i915_gem_pread pr = { .handle = handle, .offset = 4096,
						 .size = sizeof(back), .data_ptr = (uintptr_t)back };
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
		CHECK_EQ(back[0], 0x1000 + 1024);
		CHECK_EQ(back[3], 0x1000 + 1027);
		munmap(map, 8192);
	}
	CHECK_EQ(gem_close(fd, handle), 0);
	/* Errors come back as -1 and errno, as from the kernel. */
	CHECK_EQ(gem_close(fd, handle), -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(ioctl(fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3f, struct drm_i915_getparam), NULL), -1);
	CHECK_EQ(errno, ENOTTY);
}

static void check_dup_close(int fd)
{
	int value = 0;
	int copy = dup(fd);
	int copy2 = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	CHECK(copy >= 0 && copy2 >= 100);
	struct stat st;
	CHECK_EQ(fstat(copy2, &st), 0);
	CHECK_EQ(minor(st.st_rdev), 128);
	uint32_t h = gem_create(copy, 4096);
	CHECK(h != 0);
	close(copy);
	/* The same open file: the handle is valid through the other fds. */
	CHECK_EQ(gem_close(copy2, h), 0);
	CHECK_EQ(getparam(copy2, I915_PARAM_CHIPSET_ID, &value), 0);
	close(copy2);
	CHECK_EQ(getparam(fd, I915_PARAM_CHIPSET_ID, &value), 0);
	/* A closed fd is no longer the device. */
	CHECK_EQ(getparam(copy2, I915_PARAM_CHIPSET_ID, &value), -1);
	CHECK_EQ(errno, EBADF);
}

static void check_libdrm(int fd)
{
	void *lib = dlopen("libdrm.so.2", RTLD_NOW);
	if (!lib) {
		printf("libdrm.so.2 not loadable, drmGetDevice2 not checked: %s\n", dlerror());
		return;
	}
	int (*get_device2)(int, uint32_t, drmDevicePtr *) = dlsym(lib, "drmGetDevice2");
	void (*free_device)(drmDevicePtr *) = dlsym(lib, "drmFreeDevice");
	int (*get_devices2)(uint32_t, drmDevicePtr *, int) = dlsym(lib, "drmGetDevices2");
	void (*free_devices)(drmDevicePtr *, int) = dlsym(lib, "drmFreeDevices");
	char *(*render_name)(int) = dlsym(lib, "drmGetRenderDeviceNameFromFd");
	char *(*name_from_fd2)(int) = dlsym(lib, "drmGetDeviceNameFromFd2");
	char *(*primary_name)(int) = dlsym(lib, "drmGetPrimaryDeviceNameFromFd");
	int (*node_type)(int) = dlsym(lib, "drmGetNodeTypeFromFd");
	CHECK(get_device2 && free_device && get_devices2 && free_devices && render_name);
	if (!get_device2 || !free_device || !get_devices2 || !free_devices || !render_name)
		return;

	for (uint32_t flags = 0; flags <= DRM_DEVICE_GET_PCI_REVISION; flags += DRM_DEVICE_GET_PCI_REVISION) {
		drmDevicePtr dev = NULL;
		CHECK_EQ(get_device2(fd, flags, &dev), 0);
		if (!dev)
			continue;
		CHECK_EQ(dev->bustype, DRM_BUS_PCI);
		CHECK(dev->available_nodes & (1 << DRM_NODE_RENDER));
		CHECK(dev->available_nodes & (1 << DRM_NODE_PRIMARY));
		CHECK_STR(dev->nodes[DRM_NODE_RENDER], "/dev/dri/renderD128");
		CHECK_STR(dev->nodes[DRM_NODE_PRIMARY], "/dev/dri/card0");
		CHECK_EQ(dev->businfo.pci->domain, 0);
		CHECK_EQ(dev->businfo.pci->bus, 0);
		CHECK_EQ(dev->businfo.pci->dev, 2);
		CHECK_EQ(dev->businfo.pci->func, 0);
		CHECK_EQ(dev->deviceinfo.pci->vendor_id, 0x8086);
		CHECK_EQ(dev->deviceinfo.pci->device_id, 0x1616);
		free_device(&dev);
	}
	/* the GPU, and with GTSIM_VGEM=1 vgem too (a platform device whose
	 * uevent has a MODALIAS and no OF_FULLNAME: libdrm's drmParseOFBusInfo
	 * names it by the alias) */
	bool vgem = getenv("GTSIM_VGEM") && !strcmp(getenv("GTSIM_VGEM"), "1");
	drmDevicePtr devs[8];
	int num = get_devices2(0, devs, 8);
	CHECK_EQ(num, vgem ? 2 : 1);
	int pci = 0, platform = 0;
	for (int i = 0; i < num; i++) {
		if (devs[i]->bustype == DRM_BUS_PCI)
			pci += devs[i]->deviceinfo.pci->vendor_id == 0x8086;
		else if (devs[i]->bustype == DRM_BUS_PLATFORM)
			platform += !strcmp(devs[i]->businfo.platform->fullname, "vgem");
	}
	CHECK_EQ(pci, 1);
	CHECK_EQ(platform, vgem ? 1 : 0);
	if (num > 0)
		free_devices(devs, num);
	char *name = render_name(fd);
	CHECK_STR(name, "/dev/dri/renderD128");
	free(name);
	if (name_from_fd2 && primary_name && node_type) {
		name = name_from_fd2(fd);          /* reads .../uevent DEVNAME */
		CHECK_STR(name, "/dev/dri/renderD128");
		free(name);
		name = primary_name(fd);
		CHECK_STR(name, "/dev/dri/card0");
		free(name);
		CHECK_EQ(node_type(fd), DRM_NODE_RENDER);
	}
	dlclose(lib);
}

/* PRIME: the dma-buf fd maps the object's memory (a plain mmap of a
 * descriptor that is not the device), and imports back to the handle. */
static void check_prime(int fd)
{
	uint32_t h = gem_create(fd, 4096);
	struct drm_prime_handle exp = { .handle = h, .flags = DRM_CLOEXEC | DRM_RDWR };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp), 0);
	CHECK(exp.fd >= 0);
	uint32_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, exp.fd, 0);
	CHECK(p != MAP_FAILED);
	if (p != MAP_FAILED) {
		p[5] = 0x5ca1ab1e;
		uint32_t back = 0;
		struct drm_i915_gem_pread pr = { .handle = h, .offset = 20, .size = 4,
						 .data_ptr = (uintptr_t)&back };
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
		CHECK_EQ(back, 0x5ca1ab1e);
		munmap(p, 4096);
	}
	/* dma_buf_mmap_internal: pages past the buffer are -EINVAL (a memfd
	 * would map them) */
	errno = 0;
	CHECK(mmap(NULL, 8192, PROT_READ, MAP_SHARED, exp.fd, 0) == MAP_FAILED && errno == EINVAL);
	errno = 0;
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, exp.fd, 4096) == MAP_FAILED &&
	      errno == EINVAL);
	/* DMA_BUF_IOCTL_SYNC: flags as dma_buf_ioctl checks them (neither
	 * read nor write, unknown bits: -EINVAL; a memfd would say -ENOTTY) */
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW };
	CHECK_EQ(ioctl(exp.fd, DMA_BUF_IOCTL_SYNC, &sync), 0);
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW;
	CHECK_EQ(ioctl(exp.fd, DMA_BUF_IOCTL_SYNC, &sync), 0);
	const uint64_t bad[] = { 0, DMA_BUF_SYNC_RW + 1, DMA_BUF_SYNC_VALID_FLAGS_MASK + 1, ~0ull };
	for (unsigned i = 0; i < 4; i++) {
		sync.flags = bad[i];
		errno = 0;
		CHECK(ioctl(exp.fd, DMA_BUF_IOCTL_SYNC, &sync) == -1 && errno == EINVAL);
	}
	struct drm_prime_handle imp = { .fd = exp.fd };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	CHECK_EQ(imp.handle, h);
	close(exp.fd);
	CHECK_EQ(gem_close(fd, h), 0);
}

static void check_syncobj(int fd)
{
	struct drm_syncobj_create c = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c), 0);
	struct drm_syncobj_handle h = { .handle = c.handle,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h), 0);
	struct pollfd p = { .fd = h.fd, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 1000), 1);
	struct sync_file_info info = { 0 };
	CHECK_EQ(ioctl(h.fd, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.status, 1);
	close(h.fd);
	struct drm_syncobj_destroy d = { .handle = c.handle };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d), 0);
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d), -1);
	CHECK_EQ(errno, EINVAL);
}

static uint32_t pread_u32(int fd, uint32_t handle, uint64_t offset)
{
	uint32_t v = 0xdeadbeef;
	struct drm_i915_gem_pread pr = { .handle = handle, .offset = offset, .size = 4,
					 .data_ptr = (uintptr_t)&v };
	return ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr) ? 0xdeadbeef : v;
}

static int pwrite_u32(int fd, uint32_t handle, uint64_t offset, uint32_t v)
{
	struct drm_i915_gem_pwrite pw = { .handle = handle, .offset = offset, .size = 4,
					  .data_ptr = (uintptr_t)&v };
	return ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
}

/* fork: the parent's objects are there in the child with their
 * contents, through handles and through CPU mappings made before the
 * fork. The child works on the parent's device, as on i915 (one DRM file
 * per open file description, shared by fork): what it writes reaches the
 * parent. With GTSIM_FORK_SHARE=0 it works on a copy of the device: what
 * it writes stays in the child (docs/shared-device.md). */
static void check_fork(int fd)
{
	const char *share = getenv("GTSIM_FORK_SHARE");
	bool private_copy = share && !strcmp(share, "0");
	uint32_t h = gem_create(fd, 4096);
	CHECK_EQ(pwrite_u32(fd, h, 0, 0x9a9e47), 0);
	struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	volatile uint32_t *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mo.offset);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	map[1] = 0x11;

	pid_t pid = fork();
	if (pid == 0) {
		int ok = 1, value = 0;
		ok &= getparam(fd, I915_PARAM_CHIPSET_ID, &value) == 0 && value == 0x1616;
		ok &= pread_u32(fd, h, 0) == 0x9a9e47;      /* the parent's object */
		ok &= pread_u32(fd, h, 4) == 0x11;
		ok &= pwrite_u32(fd, h, 0, 0xc41d) == 0;
		map[1] = 0x22;                              /* the child's copy */
		ok &= map[0] == 0xc41d && pread_u32(fd, h, 4) == 0x22;
		uint32_t h2 = gem_create(fd, 4096);
		ok &= h2 != 0 && gem_close(fd, h2) == 0;
		int fd2 = open("/dev/dri/renderD128", O_RDWR);
		ok &= fd2 >= 0 && gem_create(fd2, 4096) != 0;
		close(fd2);
		_exit(ok ? 0 : 1);
	}
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The child's writes, or with a private copy nothing of them. */
	CHECK_EQ(pread_u32(fd, h, 0), private_copy ? 0x9a9e47 : 0xc41d);
	CHECK_EQ(map[1], private_copy ? 0x11 : 0x22);
	munmap((void *)map, 4096);
	CHECK_EQ(gem_close(fd, h), 0);
}

#define THREADS 4
#define ROUNDS 500
static int shared_fd;
static void *hammer(void *arg)
{
	long failures = 0;
	uint32_t *handles = arg;
	for (int i = 0; i < ROUNDS; i++) {
		int value = 0;
		if (getparam(shared_fd, I915_PARAM_CHIPSET_ID, &value) || value != 0x1616)
			failures++;
		handles[i] = gem_create(shared_fd, 4096);
		if (!handles[i])
			failures++;
	}
	return (void *)failures;
}

static void check_threads(int fd)
{
	static uint32_t handles[THREADS][ROUNDS];
	pthread_t th[THREADS];
	shared_fd = fd;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, hammer, handles[i]);
	long failures = 0;
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(th[i], &r);
		failures += (long)r;
	}
	CHECK_EQ(failures, 0);
	/* Every handle distinct, and each closes exactly once. */
	int closed = 0;
	for (int i = 0; i < THREADS; i++)
		for (int j = 0; j < ROUNDS; j++)
			closed += gem_close(fd, handles[i][j]) == 0;
	CHECK_EQ(closed, THREADS * ROUNDS);
}

int main(void)
{
	const char *preload = getenv("LD_PRELOAD");
	if (!preload || !strstr(preload, "gtsim-shim"))
		test_skip("not running under `gtsim run`");
	const char *dev = getenv("GTSIM_DEVICE");
	if (dev && *dev && strcmp(dev, "bdw"))
		test_skip("expects the default device (bdw)");

	check_nodes();
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	if (fd < 0)
		return test_exit();
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	struct stat st;
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_rdev, makedev(226, 128));

	check_version(fd);
	check_gem_and_mmap(fd);
	check_dup_close(fd);
	check_libdrm(fd);
	check_prime(fd);
	check_syncobj(fd);
	check_fork(fd);
	check_threads(fd);
	close(fd);
	return test_exit();
}
