/* gtsim public C API: a simulated Intel GEN GPU and the i915 GEM interface.
 *
 * A device is the whole machine (kernel model + GPU). A file is one open of
 * the DRM device node; it owns GEM handles and contexts, like a struct
 * drm_file in the kernel. gtsim_ioctl() takes the real uAPI structs from
 * <i915_drm.h> and <drm.h> and returns 0 or a negative errno, exactly the
 * value i915 would give. */
#ifndef GTSIM_GTSIM_H
#define GTSIM_GTSIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

struct gtsim_file *gtsim_open(struct gtsim_device *dev);
void gtsim_close(struct gtsim_file *file);

/* 0 or -errno. request is the ioctl number (DRM_IOCTL_*). */
int gtsim_ioctl(struct gtsim_file *file, unsigned long request, void *arg);

/* mmap of the device file at a fake offset returned by MMAP_GTT/MMAP_OFFSET
 * (or a dumb-buffer map offset). Returns the mapping or MAP_FAILED with
 * errno set. */
void *gtsim_mmap(struct gtsim_file *file, void *addr, size_t length, int prot,
		 int flags, uint64_t offset);

/* Wait until every engine is idle (all submitted work retired). */
void gtsim_device_idle(struct gtsim_device *dev);

/* A copy of the device's last error state (i915's format, as written to
 * $GTSIM_ERROR_STATE or /tmp/gtsim-error-<pid>; free() it), NULL when no
 * engine has hung. */
char *gtsim_error_state(struct gtsim_device *dev);

#ifdef __cplusplus
}
#endif
#endif
