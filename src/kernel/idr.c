/* Lowest-free-id allocator over a growable pointer array (see idr.h). */
#include "kernel/idr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void idr_init(struct idr *idr, uint32_t start)
{
	memset(idr, 0, sizeof(*idr));
	idr->start = start;
}

void idr_fini(struct idr *idr)
{
	free(idr->slots);
	idr->slots = NULL;
	idr->cap = idr->count = idr->free_hint = 0;
}

/* Slot i holds id start + i. */
int idr_alloc(struct idr *idr, void *p, uint32_t *id)
{
	uint32_t i = idr->free_hint;
	while (i < idr->cap && idr->slots[i])
		i++;
	if (i == idr->cap) {
		if (idr->cap >= (1u << 30))
			return -ENOMEM;
		uint32_t cap = idr->cap ? idr->cap * 2 : 16;
		void **s = realloc(idr->slots, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		memset(s + idr->cap, 0, (cap - idr->cap) * sizeof(*s));
		idr->slots = s;
		idr->cap = cap;
	}
	idr->slots[i] = p;
	idr->free_hint = i + 1;
	idr->count++;
	*id = idr->start + i;
	return 0;
}

void *idr_find(const struct idr *idr, uint32_t id)
{
	if (id < idr->start || id - idr->start >= idr->cap)
		return NULL;
	return idr->slots[id - idr->start];
}

void *idr_replace(struct idr *idr, void *p, uint32_t id)
{
	void *old = idr_find(idr, id);
	if (old && p)
		idr->slots[id - idr->start] = p;
	return old;
}

void *idr_remove(struct idr *idr, uint32_t id)
{
	void *p = idr_find(idr, id);
	if (!p)
		return NULL;
	uint32_t i = id - idr->start;
	idr->slots[i] = NULL;
	idr->count--;
	if (i < idr->free_hint)
		idr->free_hint = i;
	return p;
}

int idr_next(const struct idr *idr, uint32_t *id, void **p)
{
	uint32_t i = *id < idr->start ? 0 : *id - idr->start;
	for (; i < idr->cap; i++) {
		if (idr->slots[i]) {
			*id = idr->start + i;
			*p = idr->slots[i];
			return 0;
		}
	}
	return -1;
}
