/* Small integer ids mapped to pointers, lowest free id first (like the
 * kernel's idr_alloc(idr, p, start, 0)): GEM handles start at 1, context ids
 * at 0 (the default context), flink names at 1. Not locked: the owner's lock
 * protects it. */
#ifndef GTSIM_KERNEL_IDR_H
#define GTSIM_KERNEL_IDR_H

#include <stdint.h>

struct idr {
	void **slots;
	uint32_t cap;        /* slots allocated */
	uint32_t start;      /* lowest id handed out */
	uint32_t free_hint;  /* no free slot below this index */
	uint32_t count;      /* ids in use */
};

void idr_init(struct idr *idr, uint32_t start);
void idr_fini(struct idr *idr);
/* Stores p (not NULL) under the lowest free id >= start: 0 or -ENOMEM. */
int idr_alloc(struct idr *idr, void *p, uint32_t *id);
/* NULL when id is not in use. */
void *idr_find(const struct idr *idr, uint32_t id);
/* Puts p (not NULL) in place of what an id in use holds and returns
 * that (NULL, and nothing stored: the id is not in use). */
void *idr_replace(struct idr *idr, void *p, uint32_t id);
/* Removes id and returns what it held (NULL: not in use). */
void *idr_remove(struct idr *idr, uint32_t id);
/* Iterate: returns the next id >= *id in use (its pointer in *p), or -1. */
int idr_next(const struct idr *idr, uint32_t *id, void **p);

#endif
