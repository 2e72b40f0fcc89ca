/* The device's objects by inode (obj_ino.h). */
#include <stdlib.h>

#include "kernel/device.h"
#include "kernel/obj_ino.h"
#include "kernel/object.h"

static uint32_t bucket_of(const struct obj_ino_index *index, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull;   /* Fibonacci hashing */
	return (uint32_t)(h >> 32) & (index->nbuckets - 1);
}

void obj_ino_index_init(struct obj_ino_index *index)
{
	*index = (struct obj_ino_index){ .buckets = index->first,
					 .nbuckets = OBJ_INO_FIRST_BUCKETS };
}

static void unlink_obj(struct obj_ino_index *index, struct gem_object *obj)
{
	struct gem_object **p = &index->buckets[bucket_of(index, obj->ino)];
	for (; *p; p = &(*p)->ino_next)
		if (*p == obj) {
			*p = obj->ino_next;
			obj->ino_next = NULL;
			index->count--;
			return;
		}
}

/* Twice the buckets when the chains average more than two; when the
 * allocation fails the chains just grow longer. */
static void grow(struct obj_ino_index *index)
{
	if (index->count < 2 * index->nbuckets || index->nbuckets >= (1u << 30))
		return;
	uint32_t n = 2 * index->nbuckets;
	struct gem_object **b = calloc(n, sizeof(*b));
	if (!b)
		return;
	struct gem_object **old = index->buckets;
	uint32_t old_n = index->nbuckets;
	index->buckets = b;
	index->nbuckets = n;
	for (uint32_t i = 0; i < old_n; i++) {
		struct gem_object *o = old[i], *following;
		for (; o; o = following) {
			following = o->ino_next;
			uint32_t k = bucket_of(index, o->ino);
			o->ino_next = b[k];
			b[k] = o;
		}
	}
	if (old != index->first)
		free(old);
}

void obj_ino_set(struct gem_object *obj, ino_t ino, dev_t ino_dev)
{
	struct obj_ino_index *index = &obj->dev->ino_index;
	if (obj->ino)
		unlink_obj(index, obj);
	obj->ino = ino;
	obj->ino_dev = ino_dev;
	if (!ino)
		return;
	grow(index);
	uint32_t k = bucket_of(index, ino);
	obj->ino_next = index->buckets[k];
	index->buckets[k] = obj;
	index->count++;
}

static struct gem_object *find(struct gtsim_device *dev, ino_t ino, const dev_t *ino_dev)
{
	const struct obj_ino_index *index = &dev->ino_index;
	if (!ino)
		return NULL;
	for (struct gem_object *o = index->buckets[bucket_of(index, ino)]; o; o = o->ino_next)
		if (o->ino == ino && (!ino_dev || o->ino_dev == *ino_dev))
			return o;
	return NULL;
}

struct gem_object *obj_ino_find(struct gtsim_device *dev, ino_t ino, dev_t ino_dev)
{
	return find(dev, ino, &ino_dev);
}

struct gem_object *obj_ino_find_any_dev(struct gtsim_device *dev, ino_t ino)
{
	return find(dev, ino, NULL);
}

void obj_ino_index_fini(struct obj_ino_index *index)
{
	if (index->buckets != index->first)
		free(index->buckets);
	obj_ino_index_init(index);
}
