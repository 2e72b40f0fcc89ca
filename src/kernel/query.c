/* DRM_I915_QUERY as i915 answers on BDW: TOPOLOGY_INFO (i915's gen8 SSEU
 * limits of 3 slices x 3 subslices x 8 EUs with the device's masks),
 * ENGINE_INFO (rcs, bcs, vcs, vecs in uabi order), MEMORY_REGIONS (system
 * memory only). PERF_CONFIG, HWCONFIG_BLOB and GEOMETRY_SUBSLICES are
 * -ENODEV, unknown ids -EINVAL; each item's result (its length or the
 * errno) is written to item.length, as i915 does. */
#include <errno.h>
#include <i915_drm.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "common/user_copy.h"

#define QUERY_MAX_BYTES 4096

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		if (c[i])
			return false;
	return true;
}

/* i915's copy_query_item protocol: length 0 asks for the size; a shorter
 * buffer is -EINVAL (compared unsigned); the header userspace passed must be zero where the
 * query requires it. */
static int32_t reply(const struct drm_i915_query_item *item, const void *blob, size_t total,
		     size_t hdr_len, bool hdr_zero)
{
	if (item->length == 0)
		return (int32_t)total;
	/* i915 compares the s32 length with the u32 total as unsigned: a
	 * negative length is a large buffer, and a bad data_ptr then -EFAULT. */
	if ((uint32_t)item->length < total)
		return -EINVAL;
	unsigned char hdr[64];
	if (copy_from_user_ptr(hdr, item->data_ptr, hdr_len))
		return -EFAULT;
	if (hdr_zero && !all_zero(hdr, hdr_len))
		return -EINVAL;
	if (copy_to_user_ptr(item->data_ptr, blob, total))
		return -EFAULT;
	return (int32_t)total;
}

static int32_t query_topology(const struct gt_devinfo *info, const struct drm_i915_query_item *item,
			      unsigned char *buf)
{
	struct drm_i915_query_topology_info topo = { 0 };
	/* i915's sseu limits: gen8 3x3x8, gen9 3x4x8; one byte strides. */
	const int max_slices = 3, max_ss = info->gen >= 9 ? 4 : 3, max_eus = 8;
	int ss_per_slice = info->num_subslices / info->num_slices;
	int eus_per_ss = info->num_eus / info->num_subslices;
	size_t slice_len = 1, ss_len = max_slices, eu_len = (size_t)max_slices * max_ss;
	size_t total = sizeof(topo) + slice_len + ss_len + eu_len;

	topo.max_slices = max_slices;
	topo.max_subslices = (uint16_t)max_ss;
	topo.max_eus_per_subslice = max_eus;
	topo.subslice_offset = (uint16_t)slice_len;
	topo.subslice_stride = 1;
	topo.eu_offset = (uint16_t)(slice_len + ss_len);
	topo.eu_stride = 1;
	memset(buf, 0, total);
	memcpy(buf, &topo, sizeof(topo));
	unsigned char *data = buf + sizeof(topo);
	data[0] = (unsigned char)((1u << info->num_slices) - 1);
	for (int s = 0; s < info->num_slices; s++) {
		data[slice_len + s] = (unsigned char)((1u << ss_per_slice) - 1);
		for (int ss = 0; ss < ss_per_slice; ss++)
			data[slice_len + ss_len + s * max_ss + ss] = (unsigned char)((1u << eus_per_ss) - 1);
	}
	return reply(item, buf, total, sizeof(topo), false);
}

static int32_t query_engines(const struct drm_i915_query_item *item, unsigned char *buf)
{
	static const uint16_t classes[] = {
		I915_ENGINE_CLASS_RENDER, I915_ENGINE_CLASS_COPY,
		I915_ENGINE_CLASS_VIDEO, I915_ENGINE_CLASS_VIDEO_ENHANCE,
	};
	struct drm_i915_query_engine_info q = { .num_engines = 4 };
	size_t total = sizeof(q) + 4 * sizeof(struct drm_i915_engine_info);
	memset(buf, 0, total);
	memcpy(buf, &q, sizeof(q));
	for (int i = 0; i < 4; i++) {
		struct drm_i915_engine_info e = { 0 };
		e.engine.engine_class = classes[i];
		e.engine.engine_instance = 0;
		e.flags = I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE;
		e.logical_instance = 0;
		memcpy(buf + sizeof(q) + i * sizeof(e), &e, sizeof(e));
	}
	return reply(item, buf, total, sizeof(q), true);
}

static int32_t query_regions(const struct drm_i915_query_item *item, unsigned char *buf)
{
	struct drm_i915_query_memory_regions q = { .num_regions = 1 };
	struct drm_i915_memory_region_info r = { 0 };
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t ram = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
	r.region.memory_class = I915_MEMORY_CLASS_SYSTEM;
	r.region.memory_instance = 0;
	r.probed_size = ram;
	r.unallocated_size = ram;
	r.probed_cpu_visible_size = ram;
	r.unallocated_cpu_visible_size = ram;
	size_t total = sizeof(q) + sizeof(r);
	memcpy(buf, &q, sizeof(q));
	memcpy(buf + sizeof(q), &r, sizeof(r));
	return reply(item, buf, total, sizeof(q), true);
}

static int32_t run_query(struct gtsim_device *dev, const struct drm_i915_query_item *item)
{
	unsigned char buf[QUERY_MAX_BYTES];
	switch (item->query_id) {
	case DRM_I915_QUERY_TOPOLOGY_INFO:
		return item->flags ? -EINVAL : query_topology(dev->info, item, buf);
	case DRM_I915_QUERY_ENGINE_INFO:
		return item->flags ? -EINVAL : query_engines(item, buf);
	case DRM_I915_QUERY_MEMORY_REGIONS:
		return item->flags ? -EINVAL : query_regions(item, buf);
	case DRM_I915_QUERY_PERF_CONFIG:
	case DRM_I915_QUERY_HWCONFIG_BLOB:
	case DRM_I915_QUERY_GEOMETRY_SUBSLICES:
		return -ENODEV;
	default:
		return -EINVAL;
	}
}

int i915_query_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_query *q = arg;
	if (q->flags)
		return -EINVAL;
	for (uint32_t i = 0; i < q->num_items; i++) {
		uint64_t ptr = q->items_ptr + i * sizeof(struct drm_i915_query_item);
		struct drm_i915_query_item item;
		if (copy_from_user_ptr(&item, ptr, sizeof(item)))
			return -EFAULT;
		/* i915_query_ioctl: query id 0 fails the whole ioctl, other
		 * unknown ids only their item. */
		if (item.query_id == 0)
			return -EINVAL;
		int32_t len = run_query(file->dev, &item);
		if (len != item.length &&
		    copy_to_user_ptr(ptr + offsetof(struct drm_i915_query_item, length), &len, sizeof(len)))
			return -EFAULT;
	}
	return 0;
}
