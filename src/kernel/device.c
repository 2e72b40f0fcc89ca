/* Device creation: the GPU model, the global GTT with its mappable
 * aperture, the kernel model's tables; then execbuf's engines/requests. */
#include "kernel/device.h"
#include "kernel/request.h"

#include <stdlib.h>
#include <unistd.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "kernel/object.h"
#include "kernel/vm.h"

static unsigned env_unsigned(const char *name, unsigned def)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return def;
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	return *end ? def : (unsigned)v;
}

static const struct gt_devinfo *pick_device(const struct gtsim_config *cfg)
{
	if (cfg && cfg->device)
		return devinfo_lookup(cfg->device);
	return devinfo_from_env();
}

/* GTSIM_MEM_LIMIT_MB, or half the host's RAM: past it the shrinker purges
 * DONTNEED objects (gem_shrink.c). */
static uint64_t mem_limit_from_env(void)
{
	unsigned mb = env_unsigned("GTSIM_MEM_LIMIT_MB", 0);
	if (mb)
		return (uint64_t)mb << 20;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2 : 0;
}

/* Sizes must be whole pages; the aperture lies inside the GGTT. */
static bool sizes_valid(uint64_t ggtt, uint64_t aperture)
{
	return ggtt >= GT_PAGE_SIZE && !(ggtt % GT_PAGE_SIZE) && !(aperture % GT_PAGE_SIZE) &&
	       aperture <= ggtt;
}

struct gtsim_device *gtsim_device_create(const struct gtsim_config *cfg)
{
	trace_init_from_env();
	const struct gt_devinfo *info = pick_device(cfg);
	if (!info)
		return NULL;
	uint64_t ggtt_size = cfg && cfg->ggtt_size ? cfg->ggtt_size : info->ggtt_size;
	uint64_t aperture = cfg && cfg->aperture_size ? cfg->aperture_size : info->aperture_size;
	if (aperture > ggtt_size && !(cfg && cfg->aperture_size))
		aperture = ggtt_size / 2 & ~(GT_PAGE_SIZE - 1);   /* a shrunken test GGTT */
	if (!sizes_valid(ggtt_size, aperture))
		return NULL;

	struct gtsim_device *dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	dev->info = info;
	dev->sync = cfg ? cfg->sync : 0;
	if (!dev->sync)
		dev->sync = env_unsigned("GTSIM_SYNC", 0) != 0;
	dev->hangcheck_ms = cfg && cfg->hangcheck_ms ? cfg->hangcheck_ms
						     : env_unsigned("GTSIM_HANGCHECK_MS", 1500);
	dev->mem_limit = mem_limit_from_env();
	pthread_mutex_init(&dev->lock, NULL);
	idr_init(&dev->flink_names, 1);
	idr_init(&dev->mmap_nodes, 1);
	list_init(&dev->objects);
	obj_ino_index_init(&dev->ino_index);
	store_init(&dev->store);
	list_init(&dev->files);
	list_init(&dev->orphan_resv);
	dev->next_ctx_hw_id = 1;

	dev->gpu = gpu_create(info, ggtt_size, dev->sync);
	if (!dev->gpu)
		goto fail;
	dev->pt_pool = pt_pool_create(dev->gpu->phys);
	dev->ggtt = vm_ggtt_create(dev, aperture);
	if (!dev->pt_pool || !dev->ggtt)
		goto fail;
	if (requests_init(dev))
		goto fail;
	TRACE(TRACE_GEM, "device %s (0x%04x): GGTT %llu MiB, aperture %llu MiB, %s",
	      info->short_name, info->pci_device, (unsigned long long)(ggtt_size >> 20),
	      (unsigned long long)(aperture >> 20), dev->sync ? "sync" : "async");
	return dev;
fail:
	gtsim_device_destroy(dev);
	return NULL;
}

void gtsim_device_destroy(struct gtsim_device *dev)
{
	if (!dev)
		return;
	requests_fini(dev);
	pthread_mutex_lock(&dev->lock);
	if (!list_empty(&dev->objects))
		TRACE(TRACE_GEM, "device destroyed with %llu objects still alive",
		      (unsigned long long)dev->object_count);
	if (dev->ggtt)
		vm_put(dev->ggtt);
	pthread_mutex_unlock(&dev->lock);
	pthread_mutex_lock(&dev->lock);
	store_fini(&dev->store);
	obj_resv_orphans_free(dev);
	pthread_mutex_unlock(&dev->lock);
	pt_pool_destroy(dev->pt_pool);   /* before phys goes with the gpu */
	if (dev->gpu)
		gpu_destroy(dev->gpu);
	idr_fini(&dev->flink_names);
	idr_fini(&dev->mmap_nodes);
	obj_ino_index_fini(&dev->ino_index);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

void gtsim_device_idle(struct gtsim_device *dev)
{
	if (dev)
		requests_idle(dev);
}

void gtsim_device_quiesce(struct gtsim_device *dev)
{
	if (dev)
		requests_quiesce(dev);
}

void gtsim_device_fork_hold(struct gtsim_device *dev)
{
	if (dev)
		worker_fork_hold(dev);
}

void gtsim_device_fork_parent(struct gtsim_device *dev)
{
	if (dev)
		worker_fork_release(dev);
}
