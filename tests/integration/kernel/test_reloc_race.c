/* Relocations are written only once every relocated object is idle, with
 * nothing submitted in between (i915: reloc_kmap -> prepare_write waits
 * with the object's lock held until the request is added). Execbuf E1
 * relocates into objects B and C, both busy: it waits for B, then for C;
 * while it waits for C, execbuf E2 relocates into B (idle by then) and
 * submits B as its batch, held on a semaphore. When C goes idle, E1 must
 * wait for E2's batch before overwriting B: E2's store lands where E2's
 * relocation pointed (T2), not where E1's did (T1). gtsim used to wait
 * for each object once and then write (IGT gem_exec_reloc
 * basic-concurrent0 under the shared device).
 * Oracle: the i915 rule above and the values the batches store. */
#include <pthread.h>
#include <unistd.h>

#include "eb_test.h"

#define S_VA 0x10000ull     /* semaphores: dword 0, 1, 2 */
#define T1_VA 0x20000ull
#define T2_VA 0x30000ull
#define B_VA 0x40000ull
#define C_VA 0x50000ull
#define W1_VA 0x60000ull
#define W2_VA 0x70000ull
#define E1_VA 0x80000ull
#define STORE_ADDR_DW 5     /* B: 4 dwords of semaphore wait, then the store */
#define VALUE_E2 0xe2e2e2e2u

static struct gtsim_file *f;
static uint32_t s, t1, t2, b, c, w1, w2, e1;

static struct drm_i915_gem_exec_object2 pinned(uint32_t h, uint64_t va)
{
	return (struct drm_i915_gem_exec_object2){ .handle = h, .offset = va,
						   .flags = EXEC_OBJECT_PINNED };
}

/* A batch waiting for semaphore dword sema to be 1. */
static void write_waiter(uint32_t batch, unsigned sema)
{
	uint32_t dw[8];
	unsigned n = emit_semaphore_wait(dw, S_VA + 4 * sema, 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	eb_write(f, batch, 0, dw, 4 * n);
}

static void *exec_e1(void *ret)
{
	/* relocations into B (the store's address -> T1) and into C */
	struct drm_i915_gem_relocation_entry rb = { .target_handle = t1,
		.offset = 4 * STORE_ADDR_DW, .presumed_offset = 0 };
	struct drm_i915_gem_relocation_entry rc = { .target_handle = t1, .offset = 0,
		.presumed_offset = 0 };
	struct drm_i915_gem_exec_object2 o[4] = { pinned(t1, T1_VA), pinned(b, B_VA),
						  pinned(c, C_VA), pinned(e1, E1_VA) };
	o[1].relocation_count = 1;
	o[1].relocs_ptr = (uintptr_t)&rb;
	o[2].relocation_count = 1;
	o[2].relocs_ptr = (uintptr_t)&rc;
	*(int *)ret = eb_exec(f, o, 4, I915_EXEC_RENDER, 0);
	return NULL;
}

int main(void)
{
	eb_require_async("needs a batch held on a semaphore while execbuf runs");
	struct gtsim_device *dev = eb_device(0, 0, 0);
	f = gtsim_open(dev);
	s = eb_create(f, 4096);
	t1 = eb_create(f, 4096);
	t2 = eb_create(f, 4096);
	b = eb_create(f, 4096);
	c = eb_create(f, 4096);
	w1 = eb_create(f, 4096);
	w2 = eb_create(f, 4096);
	e1 = eb_create(f, 4096);
	uint32_t *sema = eb_cpu_map(f, s);
	CHECK(sema != NULL);
	if (!sema)
		return test_exit();

	/* B: wait for semaphore 2, store VALUE_E2 at the relocated address */
	uint32_t dw[16];
	unsigned n = emit_semaphore_wait(dw, S_VA + 8, 1);
	n += emit_store(dw + n, 0, VALUE_E2);
	dw[n++] = MI_BATCH_BUFFER_END;
	eb_write(f, b, 0, dw, 4 * n);
	write_waiter(w1, 0);
	write_waiter(w2, 1);
	uint32_t end = MI_BATCH_BUFFER_END;
	eb_write(f, e1, 0, &end, 4);

	/* R1 reads B, R2 reads C; both held */
	struct drm_i915_gem_exec_object2 r1[3] = { pinned(s, S_VA), pinned(b, B_VA),
						   pinned(w1, W1_VA) };
	struct drm_i915_gem_exec_object2 r2[3] = { pinned(s, S_VA), pinned(c, C_VA),
						   pinned(w2, W2_VA) };
	CHECK_EQ(eb_exec(f, r1, 3, I915_EXEC_RENDER, 0), 0);
	CHECK_EQ(eb_exec(f, r2, 3, I915_EXEC_RENDER, 0), 0);

	int e1_ret = 1;
	pthread_t th;
	CHECK_EQ(pthread_create(&th, NULL, exec_e1, &e1_ret), 0);
	usleep(200 * 1000);           /* E1 waits for B */
	__atomic_store_n(&sema[0], 1, __ATOMIC_SEQ_CST);
	usleep(300 * 1000);           /* R1 done: E1 waits for C now */

	/* E2: B idle, its relocation points B's store at T2; B held on
	 * semaphore 2 behind R2 */
	struct drm_i915_gem_relocation_entry r = { .target_handle = t2,
		.offset = 4 * STORE_ADDR_DW, .presumed_offset = 0 };
	struct drm_i915_gem_exec_object2 e2[3] = { pinned(s, S_VA), pinned(t2, T2_VA),
						   pinned(b, B_VA) };
	e2[2].relocation_count = 1;
	e2[2].relocs_ptr = (uintptr_t)&r;
	CHECK_EQ(eb_exec(f, e2, 3, I915_EXEC_RENDER, 0), 0);

	__atomic_store_n(&sema[1], 1, __ATOMIC_SEQ_CST);   /* C goes idle */
	usleep(300 * 1000);           /* E1 must now wait for E2's B */
	__atomic_store_n(&sema[2], 1, __ATOMIC_SEQ_CST);
	pthread_join(th, NULL);
	CHECK_EQ(e1_ret, 0);
	CHECK_EQ(eb_wait(f, b, -1), 0);
	CHECK_EQ(eb_read32(f, t2, 0), VALUE_E2);   /* E2's relocation */
	CHECK(eb_read32(f, t1, 0) != VALUE_E2);    /* not E1's */
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
