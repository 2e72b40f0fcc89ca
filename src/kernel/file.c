/* Opening and closing the device: per-file handle, context, VM and syncobj
 * tables. Closing drops every handle (objects the GPU still uses live on
 * through their active references) and closes every context. */
#include "kernel/file.h"

#include <stdlib.h>
#include <unistd.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/object.h"
#include "kernel/sync/fence.h"
#include "kernel/vm.h"
#include "kernel/vgem/vgem.h"

struct syncobj_table *file_syncobjs(struct gtsim_file *file)
{
	return file ? file->syncobjs : NULL;
}

struct gtsim_device *file_device(struct gtsim_file *file)
{
	return file->dev;
}

struct gtsim_file *gtsim_open(struct gtsim_device *dev)
{
	return gtsim_open_node(dev, 128);
}

struct gtsim_file *gtsim_open_node(struct gtsim_device *dev, int minor)
{
	if (!dev || minor < 0 || (minor >= 64 && minor < 128) || minor >= 192)
		return NULL;
	if (minor == GTSIM_VGEM_MINOR || minor == GTSIM_VGEM_MINOR + 128)
		return vgem_open_node(dev, minor);
	struct gtsim_file *file = calloc(1, sizeof(*file));
	if (!file)
		return NULL;
	file->dev = dev;
	file->minor = minor;
	file->pid = (int)getpid();
	idr_init(&file->objects, 1);
	idr_init(&file->contexts, 0);
	idr_init(&file->vms, 1);
	file->syncobjs = syncobj_table_create();
	if (!file->syncobjs)
		goto fail;

	pthread_mutex_lock(&dev->lock);
	int err = 0;
	uint32_t id;
	struct gem_context *ctx = ctx_create(dev, NULL, &err);
	if (ctx && idr_alloc(&file->contexts, ctx, &id) == 0) {
		ctx->file = file;
		ctx->id = id;    /* 0: the default context */
		ctx->finalized = true;
		list_add_tail(&dev->files, &file->dev_link);
		drm_master_open(file);
	} else if (ctx) {
		ctx_put(ctx);
		ctx = NULL;
	}
	pthread_mutex_unlock(&dev->lock);
	if (!ctx)
		goto fail;
	TRACE(TRACE_GEM, "open: file %p, default context hw id %u", (void *)file, ctx->hw_id);
	return file;
fail:
	if (file->syncobjs)
		syncobj_table_destroy(file->syncobjs);
	idr_fini(&file->objects);
	idr_fini(&file->contexts);
	idr_fini(&file->vms);
	free(file);
	return NULL;
}

void gtsim_close(struct gtsim_file *file)
{
	if (!file)
		return;
	if (file->vgem) {
		vgem_file_close(file);
		return;
	}
	struct gtsim_device *dev = file->dev;
	uint32_t id;
	void *p;

	pthread_mutex_lock(&dev->lock);
	drm_master_release(file);
	list_del(&file->dev_link);
	for (id = 0; idr_next(&file->objects, &id, &p) == 0; id++)
		obj_handle_delete(file, id);
	for (id = 0; idr_next(&file->contexts, &id, &p) == 0; id++) {
		ctx_close(idr_remove(&file->contexts, id));
	}
	for (id = 0; idr_next(&file->vms, &id, &p) == 0; id++)
		vm_put(idr_remove(&file->vms, id));
	pthread_mutex_unlock(&dev->lock);

	syncobj_table_destroy(file->syncobjs);
	idr_fini(&file->objects);
	idr_fini(&file->contexts);
	idr_fini(&file->vms);
	TRACE(TRACE_GEM, "close: file %p", (void *)file);
	free(file);
}
