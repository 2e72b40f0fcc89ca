/* The sysfs view of the simulated GPU, as libdrm's drmGetDevice2 and
 * drmGetDevices2 (xf86drm.c, 2.4.114) and Mesa's loader read it:
 *   /sys/dev/char/226:N             -> the drm minor's directory
 *   .../drm/<node>/device           -> the PCI device directory
 *   <pci dev>/{vendor,device,subsystem_vendor,subsystem_device,revision,
 *              class,config,uevent (PCI_SLOT_NAME, DRIVER...)}
 *   <pci dev>/subsystem             -> /sys/bus/pci (realpath ends "/pci")
 *   <pci dev>/driver                -> /sys/bus/pci/drivers/i915
 *   <pci dev>/drm/{card0,renderD128}/ (drmNodeIsDRM, device names)
 *   /sys/class/drm/{card0,renderD128}
 *   /sys/bus/pci/devices/0000:00:02.0 -> the PCI device (the only one):
 *       libpciaccess lists this directory, reads config and resource (the
 *       BARs) and maps resource0, the register BAR (bar_mmio.c)
 *   /sys/kernel/debug/dri/{1,129}/name: vgem's
 *   /sys/kernel/debug/dri/{0,128}/: name, the kernel model's debugfs
 *       files and i915_params/ (debugfs.c serves their contents);
 *       igt_debugfs_mount() takes it for a mount point because
 *       /sys/kernel/debug/.. is left to the real /sys
 *   /sys/module/i915/parameters/: the module's parameters (debugfs.c)
 *   with GTSIM_VGEM=1, /sys/devices/platform/vgem/drm/{card1,renderD129}: vgem's nodes (a
 *       platform device without OF_* in its uevent, as vgem's: libdrm's
 *       drmGetDevices2 passes it by), /sys/class/drm and /sys/dev/char
 *       links to them
 *   /sys/kernel/debug/sync/sw_sync: software timelines (debugfs.c)
 * and a /dev/dri directory listing card0, renderD128, card1, renderD129. They live in a
 * temporary directory (in TMPDIR, else /dev/shm, else /tmp) created on
 * first use and removed at exit by the process that created it; paths under these prefixes are rewritten into
 * it, and realpath() results rewritten back. */
#include "shim/shim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/devinfo.h"
#include "gtsim/gtsim.h"

#define PCI_SLOT "0000:00:02.0"
#define PCI_DIR "/sys/devices/pci0000:00/" PCI_SLOT
#define VGEM_DIR "sys/devices/platform/vgem"
#define DEBUGFS "/sys/kernel/debug"
/* Bus addresses of the BARs: registers+GGTT, aperture, I/O ports. */
#define BAR0_BASE 0xf0000000ull
#define BAR2_BASE 0xc0000000ull
#define BAR4_BASE 0xf000u
#define BAR4_SIZE 64u

static char root[256];          /* "" until created */
static size_t root_len;
static pid_t root_owner;
static pthread_once_t root_once = PTHREAD_ONCE_INIT;

static const char *const prefixes[] = {
	"/sys/dev/char/226:0", "/sys/dev/char/226:128", "/sys/dev/char/226:1",
	"/sys/dev/char/226:129", "/sys/devices/platform/vgem", "/sys/class/drm",
	PCI_DIR, "/sys/bus/pci/drivers/i915", "/sys/bus/pci/devices", "/dev/dri", DEBUGFS,
	"/sys/module/i915",
};

/* Every file and link, relative to root, so that they can be removed. */
static const char *const links[][2] = {
	{ "sys/devices/pci0000:00/" PCI_SLOT "/driver", "../../../bus/pci/drivers/i915" },
	{ "sys/devices/pci0000:00/" PCI_SLOT "/subsystem", "../../../bus/pci" },
	{ "sys/devices/pci0000:00/" PCI_SLOT "/drm/card0/device", "../../../" PCI_SLOT },
	{ "sys/devices/pci0000:00/" PCI_SLOT "/drm/renderD128/device", "../../../" PCI_SLOT },
	{ "sys/devices/pci0000:00/" PCI_SLOT "/drm/card0/subsystem", "../../../../../class/drm" },
	{ "sys/devices/pci0000:00/" PCI_SLOT "/drm/renderD128/subsystem", "../../../../../class/drm" },
	{ "sys/class/drm/card0", "../../devices/pci0000:00/" PCI_SLOT "/drm/card0" },
	{ "sys/class/drm/renderD128", "../../devices/pci0000:00/" PCI_SLOT "/drm/renderD128" },
	{ "sys/dev/char/226:0", "../../devices/pci0000:00/" PCI_SLOT "/drm/card0" },
	{ "sys/dev/char/226:128", "../../devices/pci0000:00/" PCI_SLOT "/drm/renderD128" },
	{ "sys/bus/pci/devices/" PCI_SLOT, "../../../devices/pci0000:00/" PCI_SLOT },
};

/* vgem's (GTSIM_VGEM=1, shim_vgem_loaded). */
static const char *const vgem_links[][2] = {
	{ VGEM_DIR "/drm/card1/device", "../../../vgem" },
	{ VGEM_DIR "/drm/renderD129/device", "../../../vgem" },
	{ VGEM_DIR "/drm/card1/subsystem", "../../../../../class/drm" },
	{ VGEM_DIR "/drm/renderD129/subsystem", "../../../../../class/drm" },
	{ VGEM_DIR "/subsystem", "../../../bus/platform" },
	{ "sys/class/drm/card1", "../../devices/platform/vgem/drm/card1" },
	{ "sys/class/drm/renderD129", "../../devices/platform/vgem/drm/renderD129" },
	{ "sys/dev/char/226:1", "../../devices/platform/vgem/drm/card1" },
	{ "sys/dev/char/226:129", "../../devices/platform/vgem/drm/renderD129" },
};

static const char *const vgem_dirs[] = {
	"sys/devices/platform", "sys/bus/platform", VGEM_DIR, VGEM_DIR "/drm",
	VGEM_DIR "/drm/card1", VGEM_DIR "/drm/renderD129", "sys/kernel/debug/dri/1",
	"sys/kernel/debug/dri/129",
};

static const char *const dirs[] = {
	"dev", "dev/dri", "sys", "sys/bus", "sys/bus/pci", "sys/bus/pci/devices", "sys/bus/pci/drivers",
	"sys/bus/pci/drivers/i915", "sys/class", "sys/class/drm", "sys/dev", "sys/dev/char",
	"sys/devices", "sys/devices/pci0000:00", "sys/devices/pci0000:00/" PCI_SLOT,
	"sys/devices/pci0000:00/" PCI_SLOT "/drm",
	"sys/devices/pci0000:00/" PCI_SLOT "/drm/card0",
	"sys/devices/pci0000:00/" PCI_SLOT "/drm/renderD128",
	"sys/kernel", "sys/kernel/debug", "sys/kernel/debug/dri", "sys/kernel/debug/dri/0",
	"sys/kernel/debug/dri/128",
	"sys/kernel/debug/dri/0/i915_params",
	"sys/kernel/debug/dri/128/i915_params", "sys/module", "sys/module/i915",
	"sys/module/i915/parameters", "sys/kernel/debug/sync",
};

#define NUM_FILES 256
static char file_names[NUM_FILES][128];
static int num_files;

/* root/rel into buf; false when it does not fit. */
static bool root_path(char *buf, size_t size, const char *rel)
{
	int n = snprintf(buf, size, "%s/%s", root, rel);
	return n > 0 && (size_t)n < size;
}

static int write_file(const char *rel, const void *data, size_t len)
{
	char path[512];
	if (!root_path(path, sizeof(path), rel))
		return -1;
	int fd = real.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, data, len);
	real.close(fd);
	if (num_files < NUM_FILES)
		snprintf(file_names[num_files++], sizeof(file_names[0]), "%s", rel);
	return n == (ssize_t)len ? 0 : -1;
}

static int write_text(const char *rel, const char *text)
{
	return write_file(rel, text, strlen(text));
}

/* BAR 0's resource file: as large as the BAR (sparse), like sysfs's; its
 * identity tells bar_mmio which mmaps are of the BAR. */
static dev_t bar0_dev;
static ino_t bar0_ino;
static int bar0_known;

static void write_bar0_file(const char *rel)
{
	char path[512];
	struct stat st;
	if (write_file(rel, "", 0) < 0 || !root_path(path, sizeof(path), rel) ||
	    truncate(path, BAR0_SIZE) < 0 || real.stat(path, &st) < 0)
		return;
	bar0_dev = st.st_dev;
	bar0_ino = st.st_ino;
	__atomic_store_n(&bar0_known, 1, __ATOMIC_RELEASE);
}

/* Set once a path naming resource0 was rewritten: until then no mmap
 * pays for the fstat below (the kernel model maps its memfds through
 * the interposed mmap too). */
static int bar0_named;

bool sysfs_is_bar0_fd(int fd)
{
	struct stat st;
	if (fd < 0 || !__atomic_load_n(&bar0_named, __ATOMIC_ACQUIRE) ||
	    !__atomic_load_n(&bar0_known, __ATOMIC_ACQUIRE))
		return false;
	if (real.fstat ? real.fstat(fd, &st) : fstat(fd, &st))
		return false;
	return st.st_ino == bar0_ino && st.st_dev == bar0_dev && S_ISREG(st.st_mode);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw);

static void remove_tree(void)
{
	char path[512];
	if (!root[0] || getpid() != root_owner)
		return;
	for (int i = 0; i < num_files; i++) {
		if (root_path(path, sizeof(path), file_names[i]))
			unlink(path);
	}
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		if (root_path(path, sizeof(path), links[i][0]))
			unlink(path);
	}
	/* what is left (the engine directories) */
	nftw(root, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	rmdir(root);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void write_pci_files(const struct gt_devinfo *info)
{
	char text[512];
	const char *pci = "sys/devices/pci0000:00/" PCI_SLOT;
	char rel[128];
#define PCI_FILE(name, ...) \
	(snprintf(rel, sizeof(rel), "%s/%s", pci, name), \
	 snprintf(text, sizeof(text), __VA_ARGS__), write_text(rel, text))
	PCI_FILE("vendor", "0x%04x\n", info->pci_vendor);
	PCI_FILE("device", "0x%04x\n", info->pci_device);
	PCI_FILE("subsystem_vendor", "0x%04x\n", info->subsys_vendor);
	PCI_FILE("subsystem_device", "0x%04x\n", info->subsys_device);
	PCI_FILE("revision", "0x%02x\n", info->revision);
	PCI_FILE("class", "0x030000\n");
	PCI_FILE("boot_vga", "1\n");
	PCI_FILE("uevent", "DRIVER=i915\nPCI_CLASS=30000\nPCI_ID=%04X:%04X\n"
		 "PCI_SUBSYS_ID=%04X:%04X\nPCI_SLOT_NAME=" PCI_SLOT "\n"
		 "MODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc03sc00i00\n",
		 info->pci_vendor, info->pci_device, info->subsys_vendor,
		 info->subsys_device, info->pci_vendor, info->pci_device,
		 info->subsys_vendor, info->subsys_device);
	PCI_FILE("drm/card0/dev", "%d:0\n", DRM_MAJOR);
	PCI_FILE("drm/card0/uevent", "MAJOR=%d\nMINOR=0\nDEVNAME=dri/card0\n"
		 "DEVTYPE=drm_minor\n", DRM_MAJOR);
	PCI_FILE("drm/renderD128/dev", "%d:128\n", DRM_MAJOR);
	PCI_FILE("drm/renderD128/uevent", "MAJOR=%d\nMINOR=128\nDEVNAME=dri/renderD128\n"
		 "DEVTYPE=drm_minor\n", DRM_MAJOR);
#undef PCI_FILE

	/* PCI configuration space header (PCI Local Bus spec, type 0):
	 * vendor/device at 0, revision at 8, class code at 9-11, subsystem
	 * vendor/device at 0x2c/0x2e; libdrm reads the first 64 bytes. */
	uint8_t config[256] = { 0 };
	config[0] = info->pci_vendor & 0xff;
	config[1] = info->pci_vendor >> 8;
	config[2] = info->pci_device & 0xff;
	config[3] = info->pci_device >> 8;
	config[4] = 0x07;     /* command: I/O, memory space, bus master */
	config[8] = info->revision;
	config[0xb] = 0x03;   /* display controller, VGA compatible */
	/* BARs (PCI spec 6.2.5.1): memory BARs have bit 0 clear, type 10b
	 * (bits 2:1) for 64 bits, bit 3 prefetchable; an I/O BAR has bit 0. */
	put32(config + 0x10, (uint32_t)BAR0_BASE | 0x4);
	put32(config + 0x18, (uint32_t)BAR2_BASE | 0xc);
	put32(config + 0x20, BAR4_BASE | 0x1);
	config[0x3d] = 1;     /* interrupt pin INTA# */
	config[0x2c] = info->subsys_vendor & 0xff;
	config[0x2d] = info->subsys_vendor >> 8;
	config[0x2e] = info->subsys_device & 0xff;
	config[0x2f] = info->subsys_device >> 8;
	snprintf(rel, sizeof(rel), "%s/config", pci);
	write_file(rel, config, sizeof(config));

	/* resource: first address, last address and flags of each BAR and
	 * the ROM (7 lines, as Linux's resource_show prints them). Flags are
	 * Linux's IORESOURCE_* (MEM 0x200, IO 0x100, PREFETCH 0x2000,
	 * SIZEALIGN 0x40000, MEM_64 0x100000) with the BAR's low bits. */
	const struct { uint64_t base, size, flags; } bars[7] = {
		[0] = { BAR0_BASE, BAR0_SIZE, 0x140204 },
		[2] = { BAR2_BASE, info->aperture_size, 0x14220c },
		[4] = { BAR4_BASE, BAR4_SIZE, 0x40101 },
	};
	char resource[7 * 64] = "";
	size_t len = 0;
	for (int i = 0; i < 7; i++) {
		uint64_t last = bars[i].size ? bars[i].base + bars[i].size - 1 : 0;
		len += (size_t)snprintf(resource + len, sizeof(resource) - len,
					"0x%016llx 0x%016llx 0x%016llx\n",
					(unsigned long long)bars[i].base, (unsigned long long)last,
					(unsigned long long)bars[i].flags);
	}
	snprintf(rel, sizeof(rel), "%s/resource", pci);
	write_text(rel, resource);
	snprintf(rel, sizeof(rel), "%s/resource0", pci);
	write_bar0_file(rel);
	snprintf(rel, sizeof(rel), "%s/enable", pci);
	write_text(rel, "1\n");
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;   /* go on whatever could not be removed */
}

/* A process killed before its atexit handler ran leaves its tree behind.
 * Trees are named gtsim-shim-<pid>-XXXXXX: remove those whose process is
 * gone (a live or unknown owner is left alone). */
static void sweep_stale_trees(const char *tmp)
{
	DIR *d = opendir(tmp);
	if (!d)
		return;
	struct dirent *de;
	char path[512];
	while ((de = readdir(d))) {
		long pid;
		char tail;
		if (sscanf(de->d_name, "gtsim-shim-%ld-%c", &pid, &tail) != 2 || pid <= 0 ||
		    pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", tmp, de->d_name) < sizeof(path))
			nftw(path, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	}
	closedir(d);
}

/* Placeholders of the files debugfs.c serves, with their modes. */
static void write_dynamic_files(void)
{
	char rel[160], path[512];
	const char *name;
	unsigned mode;
	for (int minor = 0; minor <= 128; minor += 128) {
		for (unsigned i = 0; (name = gtsim_debugfs_name(i, &mode)); i++) {
			snprintf(rel, sizeof(rel), "sys/kernel/debug/dri/%d/%s", minor, name);
			if (write_text(rel, "") == 0 && root_path(path, sizeof(path), rel))
				chmod(path, mode);
		}
		for (unsigned i = 0; (name = gtsim_param_name(i, &mode)); i++) {
			snprintf(rel, sizeof(rel), "sys/kernel/debug/dri/%d/i915_params/%s", minor, name);
			if (write_text(rel, "") == 0 && root_path(path, sizeof(path), rel))
				chmod(path, mode);
		}
	}
	for (unsigned i = 0; (name = gtsim_param_name(i, &mode)); i++) {
		snprintf(rel, sizeof(rel), "sys/module/i915/parameters/%s", name);
		if (write_text(rel, "") == 0 && root_path(path, sizeof(path), rel))
			chmod(path, mode);
	}
	write_text("sys/kernel/debug/sync/sw_sync", "");
	/* card0/engine/<name>/ (i915's sysfs_engines.c) */
	const struct gt_devinfo *info = devinfo_from_env();
	int gen = info ? info->gen : 8;
	const char *card0 = "sys/devices/pci0000:00/" PCI_SLOT "/drm/card0/engine";
	if (root_path(path, sizeof(path), card0))
		mkdir(path, 0755);
	for (unsigned e = 0; (name = gtsim_engine_dir_name(e)); e++) {
		snprintf(rel, sizeof(rel), "%s/%s", card0, name);
		if (root_path(path, sizeof(path), rel))
			mkdir(path, 0755);
		snprintf(rel, sizeof(rel), "%s/%s/.defaults", card0, name);
		if (root_path(path, sizeof(path), rel))
			mkdir(path, 0755);
		const char *file;
		for (unsigned i = 0; (file = gtsim_engine_file_name(gen, e, i, &mode)); i++) {
			snprintf(rel, sizeof(rel), "%s/%s/%s", card0, name, file);
			if (write_text(rel, "") == 0 && root_path(path, sizeof(path), rel))
				chmod(path, mode);
		}
	}
	write_text("sys/devices/pci0000:00/" PCI_SLOT "/drm/card0/error", "");
}

/* vgem's nodes, platform device and debugfs names (GTSIM_VGEM=1). */
static void write_vgem_tree(void)
{
	char path[512];
	for (size_t i = 0; i < sizeof(vgem_dirs) / sizeof(vgem_dirs[0]); i++)
		if (root_path(path, sizeof(path), vgem_dirs[i]))
			mkdir(path, 0755);
	for (size_t i = 0; i < sizeof(vgem_links) / sizeof(vgem_links[0]); i++)
		if (root_path(path, sizeof(path), vgem_links[i][0]))
			(void)symlink(vgem_links[i][1], path);
	write_text("dev/dri/card1", "");
	write_text("dev/dri/renderD129", "");
	write_text(VGEM_DIR "/uevent", "DRIVER=vgem\nMODALIAS=platform:vgem\n");
	write_text(VGEM_DIR "/drm/card1/dev", "226:1\n");
	write_text(VGEM_DIR "/drm/card1/uevent", "MAJOR=226\nMINOR=1\nDEVNAME=dri/card1\n"
		   "DEVTYPE=drm_minor\n");
	write_text(VGEM_DIR "/drm/renderD129/dev", "226:129\n");
	write_text(VGEM_DIR "/drm/renderD129/uevent", "MAJOR=226\nMINOR=129\n"
		   "DEVNAME=dri/renderD129\nDEVTYPE=drm_minor\n");
	/* drm_name_info for vgem: a platform device named "vgem" */
	write_text("sys/kernel/debug/dri/1/name", "vgem dev=vgem unique=vgem\n");
	write_text("sys/kernel/debug/dri/129/name", "vgem dev=vgem unique=vgem\n");
}

static void create_tree(void)
{
	const struct gt_devinfo *info = devinfo_from_env();
	const char *tmp = getenv("TMPDIR");
	char path[512];

	if (!info)
		info = devinfo_lookup("bdw");
	real_init();
	/* without TMPDIR, a tmpfs: on ext4 /tmp creating and removing the
	 * tree's ~150 files cost 0.07 s of system time per process (inode
	 * allocation scanning recently deleted inodes), two thirds of a
	 * short piglit test's CPU time */
	if (!tmp || !*tmp)
		tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
	sweep_stale_trees(tmp);
	snprintf(root, sizeof(root), "%s/gtsim-shim-%ld-XXXXXX", tmp, (long)getpid());
	if (!mkdtemp(root)) {
		snprintf(root, sizeof(root), "/tmp/gtsim-shim-%ld-XXXXXX", (long)getpid());
		if (!mkdtemp(root)) {
			root[0] = '\0';
			return;
		}
	}
	root_len = strlen(root);
	root_owner = getpid();
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (root_path(path, sizeof(path), dirs[i]))
			mkdir(path, 0755);
	}
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		if (!root_path(path, sizeof(path), links[i][0]) ||
		    (symlink(links[i][1], path) < 0 && errno != EEXIST))
			break;
	}
	write_text("dev/dri/card0", "");
	write_text("dev/dri/renderD128", "");
	if (shim_vgem_loaded())
		write_vgem_tree();
	write_pci_files(info);
	static const char debugfs_name[] = "i915 dev=" PCI_SLOT " unique=" PCI_SLOT "\n";
	write_text("sys/kernel/debug/dri/0/name", debugfs_name);
	write_text("sys/kernel/debug/dri/128/name", debugfs_name);
	write_dynamic_files();
}

void sysfs_register_cleanup(void)
{
	atexit(remove_tree);
}

static bool has_prefix(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(path, prefix, n) && (path[n] == '\0' || path[n] == '/');
}

const char *sysfs_redirect(const char *path, char *buf, size_t size)
{
	if (!path || (strncmp(path, "/sys/", 5) && strncmp(path, "/dev/dri", 8)))
		return path;
	if (!strcmp(path, DEBUGFS "/..") || !strcmp(path, DEBUGFS "/../"))
		return path;   /* the parent of our "mount point" is the real one */
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		if (!has_prefix(path, prefixes[i]))
			continue;
		pthread_once(&root_once, create_tree);
		if (!root[0] || (size_t)snprintf(buf, size, "%s%s", root, path) >= size)
			return path;
		if (strstr(path, "/resource0"))
			__atomic_store_n(&bar0_named, 1, __ATOMIC_RELEASE);
		return buf;
	}
	return path;
}

bool sysfs_unredirect(char *resolved)
{
	if (!resolved || !root[0] || strncmp(resolved, root, root_len) ||
	    (resolved[root_len] != '/' && resolved[root_len] != '\0'))
		return false;
	memmove(resolved, resolved + root_len, strlen(resolved + root_len) + 1);
	if (!resolved[0])
		strcpy(resolved, "/");
	return true;
}

bool sysfs_tree_exists(void)
{
	return root_len != 0;
}

const char *sysfs_tree_relative(const char *path)
{
	if (!path || !root_len || strncmp(path, root, root_len) || path[root_len] != '/')
		return NULL;
	return path + root_len + 1;
}
