/* What the device-level targets (ioctl, execbuf) share: one simulated
 * device for the whole run, with a short hangcheck so that an endless
 * batch ends in tens of milliseconds (a reset and an error state) rather
 * than the default 1.5 s; pools of the handles, contexts, syncobjs and fds
 * an input created, from which later calls draw their arguments; and
 * "user memory": a scratch area whose pointers lead into mapped memory,
 * onto the edge of a guard page, into unmapped memory or nowhere. */
#ifndef GTSIM_FUZZ_DEV_H
#define GTSIM_FUZZ_DEV_H

#include <drm.h>
#include <i915_drm.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "gtsim/gtsim.h"

/* ms without progress before an engine counts as hung (hangcheck.c). */
#define FUZZ_HANGCHECK_MS 40

#define POOL 16
struct pool {
	uint32_t v[POOL];
	unsigned n;
};

static inline void pool_add(struct pool *p, uint32_t v)
{
	p->v[p->n++ % POOL] = v;
	if (p->n > POOL)
		p->n = POOL;
}

/* Mostly one of the pool's values; sometimes 0, a neighbour or anything. */
static inline uint32_t pool_pick(struct fuzz_input *in, const struct pool *p)
{
	uint8_t how = fuzz_u8(in);
	if (p->n && how < 200)
		return p->v[how % p->n];
	if (how < 220)
		return 0;
	if (how < 240)
		return p->n ? p->v[0] + 1 + how % 4 : how;
	return fuzz_u32(in);
}

/* Scratch user memory: SCRATCH_PAGES read-write pages, then one guard
 * page without access, then a hole that is never mapped. */
#define SCRATCH_PAGES 4
#define PAGE 4096u
struct user_mem {
	uint8_t *base;       /* SCRATCH_PAGES * PAGE usable bytes */
	uint8_t *guard;      /* PROT_NONE */
	uint8_t *hole;       /* unmapped */
};

static inline void user_mem_init(struct user_mem *u)
{
	uint8_t *m = mmap(NULL, (SCRATCH_PAGES + 2) * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		abort();
	u->base = m;
	u->guard = m + SCRATCH_PAGES * PAGE;
	u->hole = u->guard + PAGE;
	mprotect(u->guard, PAGE, PROT_NONE);
	munmap(u->hole, PAGE);
}

/* A user pointer for an argument of `size` bytes: usually valid memory
 * (the start of the scratch, with the input's next bytes copied there),
 * else ending exactly at the guard page, straddling it, inside it, in the
 * hole, NULL, a kernel address or any value. `off` places several
 * arguments of one call apart in the scratch. */
static inline uint64_t user_ptr(struct fuzz_input *in, struct user_mem *u,
				size_t size, size_t off)
{
	uint8_t how = fuzz_u8(in);
	if (size > SCRATCH_PAGES * PAGE)
		size = SCRATCH_PAGES * PAGE;
	if (how < 192) {
		off %= SCRATCH_PAGES * PAGE - size + 1;
		fuzz_bytes(in, u->base + off, size);
		return (uintptr_t)(u->base + off);
	}
	switch (how % 8) {
	case 0: fuzz_bytes(in, u->guard - size, size);
		return (uintptr_t)(u->guard - size);
	case 1: return (uintptr_t)(u->guard - (size > 8 ? size / 2 : 1));
	case 2: return (uintptr_t)u->guard;
	case 3: return (uintptr_t)u->hole + fuzz_u8(in);
	case 4: return 0;
	case 5: return 0xffff888000000000ull + fuzz_u16(in);
	case 6: return (uintptr_t)u->base + 1;   /* misaligned */
	default: return fuzz_u64(in);
	}
}

static inline struct gtsim_device *fuzz_device(const char *name)
{
	/* Error states (one per hang) go nowhere: the run makes thousands. */
	setenv("GTSIM_ERROR_STATE", "/dev/null", 0);
	struct gtsim_config cfg = { .device = name, .hangcheck_ms = FUZZ_HANGCHECK_MS };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		abort();
	return dev;
}

#endif
