/* A libdrm_intel client (the GEM buffer manager) on gtsim, run under
 * `gtsim run`: a batch with MI_STORE_DWORD_IMM whose address is a
 * relocation to a target buffer, executed with drm_intel_bo_exec; the
 * stored value is read back through a CPU map. Oracles: the value the
 * batch stores, at the byte offset the relocation's delta names, and the
 * MI_STORE_DWORD_IMM layout of the Broadwell PRM (Vol 2a: opcode 0x20,
 * DWord Length 2 with a 64-bit address, i.e. 4 dwords). */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <i915_drm.h>
#include <intel_bufmgr.h>

#include "test.h"

#define MI_STORE_DWORD_IMM_GEN8 ((0x20u << 23) | 2)
#define MI_BATCH_BUFFER_END (0x0au << 23)
#define STORE_DELTA 8
#define STORE_VALUE 0xc0ffee42u

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		test_skip("no /dev/dri/renderD128 (run under gtsim run)");
	drm_intel_bufmgr *bufmgr = drm_intel_bufmgr_gem_init(fd, 4096);
	CHECK(bufmgr != NULL);
	if (!bufmgr)
		return test_exit();
	drm_intel_bo *target = drm_intel_bo_alloc(bufmgr, "target", 4096, 4096);
	drm_intel_bo *batch = drm_intel_bo_alloc(bufmgr, "batch", 4096, 4096);
	CHECK(target && batch);
	if (!target || !batch)
		return test_exit();

	/* Clear the target through a CPU map first. */
	CHECK_EQ(drm_intel_bo_map(target, 1), 0);
	memset(target->virtual, 0, 4096);
	drm_intel_bo_unmap(target);

	uint64_t addr = target->offset64 + STORE_DELTA;   /* presumed */
	uint32_t cmds[6] = {
		MI_STORE_DWORD_IMM_GEN8, (uint32_t)addr, (uint32_t)(addr >> 32), STORE_VALUE,
		MI_BATCH_BUFFER_END, 0,
	};
	CHECK_EQ(drm_intel_bo_subdata(batch, 0, sizeof(cmds), cmds), 0);
	CHECK_EQ(drm_intel_bo_emit_reloc(batch, 4, target, STORE_DELTA,
					 I915_GEM_DOMAIN_INSTRUCTION,
					 I915_GEM_DOMAIN_INSTRUCTION), 0);
	CHECK_EQ(drm_intel_bo_exec(batch, sizeof(cmds), NULL, 0, 0), 0);
	/* Busy or already done (the raw GEM_BUSY mask): either is right. */
	printf("busy after exec: 0x%x\n", (unsigned)drm_intel_bo_busy(target));
	drm_intel_bo_wait_rendering(target);
	CHECK_EQ(drm_intel_bo_busy(target), 0);

	CHECK_EQ(drm_intel_bo_map(target, 0), 0);
	const uint32_t *words = target->virtual;
	CHECK_EQ(words[STORE_DELTA / 4], STORE_VALUE);
	CHECK_EQ(words[0], 0);
	CHECK_EQ(words[STORE_DELTA / 4 + 1], 0);
	drm_intel_bo_unmap(target);
	uint32_t back = 0;
	CHECK_EQ(drm_intel_bo_get_subdata(target, STORE_DELTA, 4, &back), 0);
	CHECK_EQ(back, STORE_VALUE);

	drm_intel_bo_unreference(batch);
	drm_intel_bo_unreference(target);
	drm_intel_bufmgr_destroy(bufmgr);
	close(fd);
	return test_exit();
}
