/* Inside the mem unit: the physical memory's state, which the translation
 * cache (gtt_walk.c) reads to tell whether its entries are still valid. */
#ifndef GTSIM_GPU_MEM_PHYS_INTERNAL_H
#define GTSIM_GPU_MEM_PHYS_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

struct phys_range {
	uint64_t pa, size;
	char *host;
};

struct gt_phys {
	pthread_rwlock_t lock;
	struct phys_range *ranges;
	size_t count, cap;
	size_t removed;           /* ranges of size 0 among count (removed) */
	uint64_t next_pa;
	/* changes on every removal and every phys_tlb_invalidate(), to a
	 * value no phys has had before: a translation cached under another
	 * generation is stale */
	uint64_t generation;
	uint64_t id;              /* tells phys instances apart in the cache */
};

#endif
