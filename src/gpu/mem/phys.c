/* GPU physical memory: host ranges registered at physical addresses.
 *
 * Physical addresses are handed out by a bump allocator that never reuses
 * an address and leaves a one-page hole after every range, so a stale PTE
 * or an overrun reaches unbacked memory (a GPU fault) rather than another
 * object. Ranges are kept in an array sorted by physical address (the bump
 * allocator makes appending keep the order); lookups binary search it
 * under a read lock, which the engine threads take concurrently. Removed
 * ranges stay in place, empty, until half the array is empty.
 *
 * Each thread also remembers the last range it found. The memory stays
 * valid until the range is removed, and every removal bumps a generation
 * counter, so a remembered range is used without the lock as long as the
 * generation is unchanged (no weaker than a locked lookup, whose result can
 * also be removed right after the lock is dropped). */
#include "gpu/mem/mem.h"
#include "gpu/mem/phys_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PHYS_BASE (1ull << 20)          /* first address handed out */
#define PHYS_LIMIT (1ull << 47)         /* PTE address field holds bits 12..47 */

static uint64_t next_phys_id = 1;
/* Generations are drawn from one counter shared by every phys, so a
 * (phys, generation) pair is never seen twice even when a phys is freed
 * and another created at the same address. */
static uint64_t next_generation = 1;

static void new_generation(struct gt_phys *phys)
{
	uint64_t g = __atomic_add_fetch(&next_generation, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&phys->generation, g, __ATOMIC_RELEASE);
}

static _Thread_local struct {
	uint64_t phys_id, generation;
	struct phys_range range;
} last_hit;

struct gt_phys *phys_create(void)
{
	struct gt_phys *phys = calloc(1, sizeof(*phys));
	if (!phys)
		return NULL;
	pthread_rwlock_init(&phys->lock, NULL);
	phys->next_pa = PHYS_BASE;
	phys->id = __atomic_fetch_add(&next_phys_id, 1, __ATOMIC_RELAXED);
	new_generation(phys);
	return phys;
}

void phys_destroy(struct gt_phys *phys)
{
	if (!phys)
		return;
	pthread_rwlock_destroy(&phys->lock);
	free(phys->ranges);
	free(phys);
}

static bool page_aligned(uint64_t v)
{
	return (v & (GT_PAGE_SIZE - 1)) == 0;
}

uint64_t phys_add(struct gt_phys *phys, void *host, uint64_t size)
{
	if (!phys || !host || !size || !page_aligned((uintptr_t)host) || !page_aligned(size))
		return 0;
	uint64_t pa = 0;
	pthread_rwlock_wrlock(&phys->lock);
	if (phys->count == phys->cap) {
		size_t cap = phys->cap ? phys->cap * 2 : 64;
		struct phys_range *r = realloc(phys->ranges, cap * sizeof(*r));
		if (!r)
			goto out;
		phys->ranges = r;
		phys->cap = cap;
	}
	if (size > PHYS_LIMIT - GT_PAGE_SIZE - phys->next_pa)
		goto out;
	pa = phys->next_pa;
	phys->next_pa += size + GT_PAGE_SIZE;
	phys->ranges[phys->count++] = (struct phys_range){ pa, size, host };
out:
	pthread_rwlock_unlock(&phys->lock);
	return pa;
}

/* Index of the range holding pa, or -1. Caller holds the lock. */
static long find_range(const struct gt_phys *phys, uint64_t pa)
{
	size_t lo = 0, hi = phys->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct phys_range *r = &phys->ranges[mid];
		if (pa < r->pa)
			hi = mid;
		else if (pa - r->pa >= r->size)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

/* Drops the removed ranges (size 0) from the array. Caller holds the
 * lock. */
static void compact(struct gt_phys *phys)
{
	size_t n = 0;
	for (size_t i = 0; i < phys->count; i++)
		if (phys->ranges[i].size)
			phys->ranges[n++] = phys->ranges[i];
	phys->count = n;
	phys->removed = 0;
}

void phys_remove(struct gt_phys *phys, uint64_t pa)
{
	if (!phys)
		return;
	pthread_rwlock_wrlock(&phys->lock);
	long i = find_range(phys, pa);
	if (i >= 0 && phys->ranges[i].pa == pa) {
		/* A removed range keeps its place with size 0 (no address is
		 * in it, and the array stays sorted) until half the array is
		 * such: removing one of a million ranges must not move the
		 * others each time. */
		phys->ranges[i].size = 0;
		phys->ranges[i].host = NULL;
		if (++phys->removed > phys->count / 2)
			compact(phys);
		new_generation(phys);
	}
	pthread_rwlock_unlock(&phys->lock);
}

void phys_tlb_invalidate(struct gt_phys *phys)
{
	if (phys)
		new_generation(phys);
}

static void *range_host(const struct phys_range *r, uint64_t pa, uint64_t *avail)
{
	if (avail)
		*avail = r->size - (pa - r->pa);
	return r->host + (pa - r->pa);
}

void *phys_lookup(struct gt_phys *phys, uint64_t pa, uint64_t *avail)
{
	uint64_t gen = __atomic_load_n(&phys->generation, __ATOMIC_ACQUIRE);
	if (last_hit.phys_id == phys->id && last_hit.generation == gen &&
	    pa >= last_hit.range.pa && pa - last_hit.range.pa < last_hit.range.size)
		return range_host(&last_hit.range, pa, avail);

	void *host = NULL;
	pthread_rwlock_rdlock(&phys->lock);
	long i = find_range(phys, pa);
	if (i >= 0) {
		last_hit.phys_id = phys->id;
		last_hit.generation = __atomic_load_n(&phys->generation, __ATOMIC_RELAXED);
		last_hit.range = phys->ranges[i];
		host = range_host(&phys->ranges[i], pa, avail);
	}
	pthread_rwlock_unlock(&phys->lock);
	return host;
}
