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
 *   /sys/kernel/debug/dri/{0,128}/{name,i915_gem_drop_caches}: IGT's
 *       gem_quiescent_gpu writes DROP_* flags there (accepted, no effect:
 *       the model has no caches to drop); igt_debugfs_mount() takes it for
 *       a mount point because /sys/kernel/debug/.. is left to the real /sys
 * and a /dev/dri directory listing card0 and renderD128. They live in a
 * temporary directory created on first use and removed at exit by the
 * process that created it; paths under these prefixes are rewritten into
 * it, and realpath() results rewritten back. */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/devinfo.h"

#define PCI_SLOT "0000:00:02.0"
#define PCI_DIR "/sys/devices/pci0000:00/" PCI_SLOT
#define DEBUGFS "/sys/kernel/debug"

static char root[256];          /* "" until created */
static size_t root_len;
static pid_t root_owner;
static pthread_once_t root_once = PTHREAD_ONCE_INIT;

static const char *const prefixes[] = {
	"/sys/dev/char/226:0", "/sys/dev/char/226:128", "/sys/class/drm",
	PCI_DIR, "/sys/bus/pci/drivers/i915", "/dev/dri", DEBUGFS,
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
};

static const char *const dirs[] = {
	"dev", "dev/dri", "sys", "sys/bus", "sys/bus/pci", "sys/bus/pci/drivers",
	"sys/bus/pci/drivers/i915", "sys/class", "sys/class/drm", "sys/dev", "sys/dev/char",
	"sys/devices", "sys/devices/pci0000:00", "sys/devices/pci0000:00/" PCI_SLOT,
	"sys/devices/pci0000:00/" PCI_SLOT "/drm",
	"sys/devices/pci0000:00/" PCI_SLOT "/drm/card0",
	"sys/devices/pci0000:00/" PCI_SLOT "/drm/renderD128",
	"sys/kernel", "sys/kernel/debug", "sys/kernel/debug/dri", "sys/kernel/debug/dri/0",
	"sys/kernel/debug/dri/128",
};

#define NUM_FILES 24
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
	for (int i = (int)(sizeof(dirs) / sizeof(dirs[0])) - 1; i >= 0; i--) {
		if (root_path(path, sizeof(path), dirs[i]))
			rmdir(path);
	}
	rmdir(root);
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
	config[8] = info->revision;
	config[0xb] = 0x03;   /* display controller, VGA compatible */
	config[0x2c] = info->subsys_vendor & 0xff;
	config[0x2d] = info->subsys_vendor >> 8;
	config[0x2e] = info->subsys_device & 0xff;
	config[0x2f] = info->subsys_device >> 8;
	snprintf(rel, sizeof(rel), "%s/config", pci);
	write_file(rel, config, sizeof(config));
}

static void create_tree(void)
{
	const struct gt_devinfo *info = devinfo_from_env();
	const char *tmp = getenv("TMPDIR");
	char path[512];

	if (!info)
		info = devinfo_lookup("bdw");
	real_init();
	snprintf(root, sizeof(root), "%s/gtsim-shim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		snprintf(root, sizeof(root), "/tmp/gtsim-shim-XXXXXX");
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
	write_pci_files(info);
	static const char debugfs_name[] = "i915 dev=" PCI_SLOT " unique=" PCI_SLOT "\n";
	write_text("sys/kernel/debug/dri/0/name", debugfs_name);
	write_text("sys/kernel/debug/dri/128/name", debugfs_name);
	write_text("sys/kernel/debug/dri/0/i915_gem_drop_caches", "0x0\n");
	write_text("sys/kernel/debug/dri/128/i915_gem_drop_caches", "0x0\n");
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
