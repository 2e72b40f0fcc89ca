/* Relocations as seed 002 describes them: userspace presumes addresses;
 * the kernel rewrites only what moved and reports the new addresses.
 * Also NO_RELOC, HANDLE_LUT, BATCH_FIRST, batch_start_offset and a
 * softpinned 48-bit address. Expected values are computed by hand. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "eb_test.h"
#include "common/trace.h"

static struct gtsim_file *f;

/* A batch storing value at (presumed + 8), with its relocation entry. */
static void write_batch(uint32_t batch, uint64_t presumed, uint32_t value, uint64_t at)
{
	uint32_t dw[8];
	unsigned n = emit_store(dw, presumed + 8, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, batch, at, dw, n * 4), 0);
}

static uint64_t batch_addr(uint32_t batch, uint64_t at)
{
	uint32_t lo = eb_read32(f, batch, at + 4), hi = eb_read32(f, batch, at + 8);
	return (uint64_t)hi << 32 | lo;
}

/* Lines of the trace file containing both words. */
static int trace_lines(const char *path, const char *a, const char *b)
{
	FILE *t = fopen(path, "r");
	char line[512];
	int n = 0;
	while (t && fgets(line, sizeof(line), t))
		n += strstr(line, a) && strstr(line, b);
	if (t)
		fclose(t);
	return n;
}

int main(void)
{
	/* Trace category reloc: each entry checked, kept or rewritten. */
	char trace[] = "/tmp/gtsim-test-relocXXXXXX";
	int tfd = mkstemp(trace);
	if (tfd >= 0)
		close(tfd);
	setenv("GTSIM_TRACE", "reloc", 1);
	setenv("GTSIM_TRACE_FILE", trace, 1);
	struct gtsim_device *dev = eb_device(0, 0, 0);
	f = gtsim_open(dev);
	uint32_t target = eb_create(f, 4096), batch = eb_create(f, 4096);
	uint32_t blocker = eb_create(f, 4096), bb2 = eb_create(f, 4096);
	const uint64_t presumed = 0x100000;

	/* 1. Fast path: the target goes where userspace presumed it; the
	 * relocation is checked and kept, the batch bytes are untouched. */
	write_batch(batch, presumed, 0x11111111, 0);
	struct drm_i915_gem_relocation_entry r = {
		.target_handle = target, .delta = 8, .offset = 4,
		.presumed_offset = presumed, .read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target, .offset = presumed },
		{ .handle = batch, .offset = 0x200000, .relocation_count = 1,
		  .relocs_ptr = (uintptr_t)&r },
	};
	CHECK_EQ(eb_exec(f, obj, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(obj[0].offset, presumed);
	CHECK_EQ(batch_addr(batch, 0), presumed + 8);
	CHECK_EQ(r.presumed_offset, presumed);
	CHECK_EQ(eb_read32(f, target, 8), 0x11111111);

	/* 2. Another object softpinned where the target was (the target is
	 * idle, so it is evicted); the next execbuf must move the target and
	 * rewrite the relocation. */
	uint32_t dw[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(f, bb2, 0, dw, 8), 0);
	struct drm_i915_gem_exec_object2 pin[2] = {
		{ .handle = blocker, .offset = presumed, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb2, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, pin, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, bb2, -1), 0);
	write_batch(batch, presumed, 0x22222222, 0);
	CHECK_EQ(eb_exec(f, obj, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	uint64_t moved = obj[0].offset;
	CHECK(moved != presumed);
	CHECK_EQ(moved & 4095, 0);
	CHECK_EQ(batch_addr(batch, 0), moved + 8);       /* rewritten: target + delta */
	CHECK_EQ(r.presumed_offset, moved);              /* reported back */
	CHECK_EQ(eb_read32(f, target, 8), 0x22222222);
	CHECK_EQ(eb_read32(f, blocker, 8), 0);

	/* 3. NO_RELOC: the offsets are right, nothing moved: the kernel trusts
	 * them and does not even look at the (wrong) presumed_offset. */
	write_batch(batch, moved, 0x33333333, 0);
	r.presumed_offset = 0xdead000;
	CHECK_EQ(eb_exec(f, obj, 2, I915_EXEC_NO_RELOC, 0), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(r.presumed_offset, 0xdead000);
	CHECK_EQ(batch_addr(batch, 0), moved + 8);
	CHECK_EQ(eb_read32(f, target, 8), 0x33333333);
	/* Without NO_RELOC the same wrong presumed_offset is rewritten. */
	CHECK_EQ(eb_exec(f, obj, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(r.presumed_offset, moved);

	/* 4. HANDLE_LUT + BATCH_FIRST + batch_start_offset: the batch is
	 * exec object 0, the target is index 1, the batch starts at 64; the
	 * commands at 0 store another value and must not run. */
	write_batch(batch, 0, 0x44444444, 0);
	write_batch(batch, 0, 0x55555555, 64);
	struct drm_i915_gem_relocation_entry r2[2] = {
		{ .target_handle = 1, .delta = 8, .offset = 4, .presumed_offset = 0,
		  .read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER },
		{ .target_handle = 1, .delta = 8, .offset = 64 + 4, .presumed_offset = 0,
		  .read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER },
	};
	struct drm_i915_gem_exec_object2 lut[2] = {
		{ .handle = batch, .offset = obj[1].offset, .relocation_count = 2,
		  .relocs_ptr = (uintptr_t)r2 },
		{ .handle = target, .offset = moved },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)lut, .buffer_count = 2, .batch_start_offset = 64,
		.flags = I915_EXEC_HANDLE_LUT | I915_EXEC_BATCH_FIRST,
	};
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(batch_addr(batch, 64), moved + 8);
	CHECK_EQ(eb_read32(f, target, 8), 0x55555555);

	/* 5. Softpin at a 48-bit address (EXEC_OBJECT_SUPPORTS_48B_ADDRESS). */
	const uint64_t high = 0x7ffe00000000ull;
	uint32_t t48 = eb_create(f, 4096), b48 = eb_create(f, 4096);
	uint32_t d48[8];
	unsigned n = emit_store(d48, high + 16, 0x48484848);
	d48[n++] = MI_BATCH_BUFFER_END;
	d48[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, b48, 0, d48, n * 4), 0);
	struct drm_i915_gem_exec_object2 o48[2] = {
		{ .handle = t48, .offset = high,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS | EXEC_OBJECT_WRITE },
		{ .handle = b48, .offset = high + 0x10000,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS },
	};
	CHECK_EQ(eb_exec(f, o48, 2, I915_EXEC_NO_RELOC, 0), 0);
	CHECK_EQ(eb_wait(f, t48, -1), 0);
	CHECK_EQ(eb_read32(f, t48, 16), 0x48484848);
	CHECK_EQ(o48[0].offset, high);

	/* Without 48-bit support a (non-softpinned) object stays below 4 GiB. */
	struct drm_i915_gem_exec_object2 low[2] = {
		{ .handle = t48, .offset = high }, { .handle = bb2, .offset = 0x300000 },
	};
	CHECK_EQ(eb_exec(f, low, 2, 0, 0), 0);
	CHECK(low[0].offset < (1ull << 32));
	gtsim_device_idle(dev);

	/* 6. Many objects (targets found by handle among 41): the relocation
	 * names object 37 by its handle; a handle outside the list: ENOENT. */
	struct drm_i915_gem_exec_object2 many[41];
	memset(many, 0, sizeof(many));
	for (int i = 0; i < 40; i++)
		many[i].handle = eb_create(f, 4096);
	uint32_t mbb = eb_create(f, 4096);
	write_batch(mbb, 0, 0x66666666, 0);
	struct drm_i915_gem_relocation_entry mr = {
		.target_handle = many[37].handle, .delta = 8, .offset = 4, .presumed_offset = 1,
		.read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER,
	};
	many[40] = (struct drm_i915_gem_exec_object2){ .handle = mbb, .relocation_count = 1,
		.relocs_ptr = (uintptr_t)&mr };
	CHECK_EQ(eb_exec(f, many, 41, 0, 0), 0);
	CHECK_EQ(eb_wait(f, many[37].handle, -1), 0);
	CHECK_EQ(batch_addr(mbb, 0), many[37].offset + 8);
	CHECK_EQ(eb_read32(f, many[37].handle, 8), 0x66666666);
	mr.target_handle = 4000;
	CHECK_EQ(eb_exec(f, many, 41, 0, 0), -ENOENT);

	/* A relocation array in pages the client made read-only: every
	 * relocation is still applied, and presumed_offset is reported back
	 * wherever the page takes it (i915 ignores a failed __put_user there):
	 * three pages, read-only, writable, read-only, 128 entries each. */
	const unsigned per_page = 4096 / sizeof(struct drm_i915_gem_relocation_entry);
	struct drm_i915_gem_relocation_entry *ro = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
							MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t rtarget = eb_create(f, 4096), rdata = eb_create(f, 3 * per_page * 8);
	uint32_t rbatch = eb_create(f, 4096);
	CHECK(ro != MAP_FAILED);
	for (unsigned k = 0; k < 3 * per_page; k++)
		ro[k] = (struct drm_i915_gem_relocation_entry){
			.target_handle = rtarget, .delta = k, .offset = 8 * k, .presumed_offset = 1,
			.read_domains = I915_GEM_DOMAIN_RENDER };
	uint32_t end[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(f, rbatch, 0, end, 8), 0);
	mprotect(ro, 4096, PROT_READ);
	mprotect((char *)ro + 2 * 4096, 4096, PROT_READ);
	struct drm_i915_gem_exec_object2 robj[3] = {
		{ .handle = rtarget },
		{ .handle = rdata, .relocation_count = 3 * per_page, .relocs_ptr = (uintptr_t)ro },
		{ .handle = rbatch },
	};
	CHECK_EQ(eb_exec(f, robj, 3, 0, 0), 0);
	CHECK_EQ(eb_wait(f, rbatch, -1), 0);
	unsigned applied = 0, reported = 0, kept = 0;
	for (unsigned k = 0; k < 3 * per_page; k++) {
		applied += (eb_read32(f, rdata, 8 * k) |
			    (uint64_t)eb_read32(f, rdata, 8 * k + 4) << 32) == robj[0].offset + k;
		if (k >= per_page && k < 2 * per_page)
			reported += ro[k].presumed_offset == robj[0].offset;
		else
			kept += ro[k].presumed_offset == 1;
	}
	CHECK_EQ(applied, 3 * per_page);
	CHECK_EQ(reported, per_page);
	CHECK_EQ(kept, 2 * per_page);
	munmap(ro, 3 * 4096);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	fflush(trace_stream());
	/* Step 1 kept its entry; step 2 rewrote it (to moved + 8). */
	CHECK(trace_lines(trace, "[reloc]", "correct, kept") >= 1);
	char want[64];
	snprintf(want, sizeof(want), "rewritten to 0x%llx", (unsigned long long)moved + 8);
	CHECK_EQ(trace_lines(trace, "[reloc]", want) >= 1, 1);
	unlink(trace);
	return test_exit();
}
