/* Target execbuf: fuzzed batches submitted with execbuf on every engine,
 * in a fresh file's default context, a new context, or one context reused
 * across inputs, with fuzzed relocations and softpinned addresses. Every
 * batch ends: completed, faulted (a GPU fault, reset and error state), or
 * hung and ended by the hangcheck, shortened to FUZZ_HANGCHECK_MS here.
 *
 * Input:
 *   byte 0   bits 0-2 engine (I915_EXEC_DEFAULT..VEBOX, 5-7 invalid),
 *            bits 3-4 context (0-1 the file's default, 2 new, 3 reused),
 *            bit 5 device (bdw/skl), bit 6 placement (softpin/relocations),
 *            bit 7 structured batch (commands from gtsim's tables with
 *            fuzzed bodies) instead of raw dwords
 *   byte 1   execbuf flags: bit 0 HANDLE_LUT, 1 NO_RELOC, 2 BATCH_FIRST,
 *            3 a batch_start_offset, 4 a batch_len, 5 secure (refused)
 *   u16      dwords of the batch (raw) or commands (structured)
 *   then the batch, then the placement of the three objects (batch,
 *   target, data) and up to 8 relocations. */
#include <stdio.h>
#include <string.h>

#include "fuzz_dev.h"
#include "fuzz_target.h"
#include "gpu/cmd/cmd.h"

#define MAX_DWORDS 4096
#define BATCH_BYTES (MAX_DWORDS * 4 + 4096)
#define MI_BATCH_BUFFER_END (0x0au << 23)

struct device {
	struct gtsim_device *dev;
	struct gtsim_file *keep;      /* lives for the run: the reused context */
	uint32_t reused_ctx;
	int gen;
};
static struct device devs[2];
static uint32_t batch[MAX_DWORDS + 2];

/* An address to softpin at: low, page-aligned in the 4 GiB, just under
 * 4 GiB, at the top of 48 bits, non-canonical, misaligned, anything. */
static uint64_t pin_address(struct fuzz_input *in, unsigned i)
{
	uint8_t how = fuzz_u8(in);
	uint64_t page = (uint64_t)fuzz_u16(in) << 12;
	switch (how % 8) {
	case 0: case 1: case 2:
		return 0x100000 + (uint64_t)i * 0x200000 + (page & 0xfffff);
	case 3: return 0x100000000ull - 0x10000 * (1 + i);
	case 4: return 0xffffffff0000ull - 0x100000 * (uint64_t)i;   /* top of 48 bits */
	case 5: return 0x0000800000000000ull + page;                /* non-canonical */
	case 6: return page | (how & 0xff0);                         /* misaligned */
	default: return fuzz_u64(in);
	}
}

static uint32_t body_dword(struct fuzz_input *in, const uint64_t *addrs)
{
	uint8_t how = fuzz_u8(in);
	if (how < 96)
		return fuzz_u32(in);
	if (how < 160)
		return fuzz_u8(in);
	uint64_t a = addrs[how % 3] + (fuzz_u8(in) & 0xfc);
	return how & 1 ? (uint32_t)(a >> 32) : (uint32_t)a;
}

/* Commands of the generation's table for the engine (any engine's now
 * and then), with a fuzzed length near the command's own and bodies that
 * name the objects' addresses now and then. Returns dwords written. */
static unsigned structured(struct fuzz_input *in, int gen, unsigned engine_bit,
			   unsigned ncmds, const uint64_t *addrs)
{
	const struct cmd_table *tab = cmd_table(gen);
	unsigned n = 0;
	for (unsigned c = 0; c < ncmds && n < MAX_DWORDS - 64 && fuzz_left(in); c++) {
		const struct cmd_desc *d = &tab->cmds[fuzz_pick(in, tab->num_cmds)];
		if (!(d->engines & engine_bit) && fuzz_u8(in) < 240)
			continue;
		uint32_t len = d->length ? d->length : 1;
		uint8_t lh = fuzz_u8(in);
		if (d->len_mask && lh > 200)
			len = d->bias + (lh % 16);
		if (len > 60)
			len = 60;
		uint32_t dw0 = d->match | (fuzz_u32(in) & ~d->mask);
		if (d->len_mask)
			dw0 = (dw0 & ~d->len_mask) | (cmd_length_field(d, len) & d->len_mask);
		batch[n++] = dw0;
		for (uint32_t k = 1; k < len; k++)
			batch[n++] = body_dword(in, addrs);
	}
	return n;
}

static uint32_t gem_create(struct gtsim_file *f, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &c) ? 0 : c.handle;
}

static void gem_close(struct gtsim_file *f, uint32_t h)
{
	struct drm_gem_close c = { .handle = h };
	gtsim_ioctl(f, DRM_IOCTL_GEM_CLOSE, &c);
}

static uint32_t context_create(struct gtsim_file *f)
{
	struct drm_i915_gem_context_create c = { 0 };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c) ? 0 : c.ctx_id;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = fuzz_input(data, size);
	uint8_t how = fuzz_u8(&in);
	uint8_t ebf = fuzz_u8(&in);
	unsigned count = fuzz_u16(&in) % MAX_DWORDS;
	struct device *d = &devs[(how >> 5) & 1];
	if (!d->dev) {
		d->dev = fuzz_device((how >> 5) & 1 ? "skl" : "bdw");
		d->gen = (how >> 5) & 1 ? 9 : 8;
		d->keep = gtsim_open(d->dev);
	}
	unsigned ring = how & 7;
	unsigned ctx_mode = (how >> 3) & 3;
	struct gtsim_file *f = ctx_mode == 3 ? d->keep : gtsim_open(d->dev);
	uint32_t ctx = 0;
	if (ctx_mode == 2)
		ctx = context_create(f);
	if (ctx_mode == 3) {
		/* a banned context (too many hangs) is replaced */
		struct drm_i915_reset_stats rs = { .ctx_id = d->reused_ctx };
		if (!d->reused_ctx || gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs))
			d->reused_ctx = context_create(f);
		ctx = d->reused_ctx;
	}

	/* objects: 0 batch, 1 target (written by stores), 2 data */
	uint32_t h[3] = { gem_create(f, BATCH_BYTES), gem_create(f, 8192), gem_create(f, 65536) };
	uint64_t addrs[3];
	for (unsigned i = 0; i < 3; i++)
		addrs[i] = 0x100000 + (uint64_t)i * 0x200000;

	/* the placement is read before the batch so that bodies can name it */
	bool softpin = !(how & 0x40);
	struct drm_i915_gem_exec_object2 obj[3];
	memset(obj, 0, sizeof(obj));
	for (unsigned i = 0; i < 3; i++) {
		obj[i].handle = h[i];
		if (softpin) {
			addrs[i] = pin_address(&in, i);
			obj[i].offset = addrs[i];
			obj[i].flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
		}
		if (i)
			obj[i].flags |= EXEC_OBJECT_WRITE;
		if (fuzz_u8(&in) > 240)
			obj[i].flags ^= fuzz_u16(&in) & 0x1ff;
	}

	unsigned n = how & 0x80
		? structured(&in, d->gen, 1u << (ring == 2 ? 2 : ring == 3 ? 1 : ring == 4 ? 3 : 0),
			     count, addrs)
		: 0;
	if (!(how & 0x80)) {
		fuzz_bytes(&in, batch, count * 4);
		n = count;
	}
	batch[n++] = MI_BATCH_BUFFER_END;
	batch[n++] = 0;
	struct drm_i915_gem_pwrite pw = { .handle = h[0], .size = n * 4,
					  .data_ptr = (uintptr_t)batch };
	gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PWRITE, &pw);

	/* relocations into the batch, naming the objects */
	struct drm_i915_gem_relocation_entry rel[8];
	unsigned nrel = softpin ? 0 : fuzz_u8(&in) % 9;
	for (unsigned r = 0; r < nrel; r++) {
		memset(&rel[r], 0, sizeof(rel[r]));
		unsigned t = fuzz_u8(&in) % 4;   /* 3: a handle that is none */
		rel[r].target_handle = (ebf & 1) ? t : t < 3 ? h[t] : 0xdead;
		rel[r].offset = fuzz_u8(&in) < 230 ? (uint64_t)fuzz_pick(&in, n) * 4
						    : fuzz_size(&in, 64);
		rel[r].delta = fuzz_u8(&in) < 200 ? fuzz_u8(&in) * 4u : fuzz_u32(&in);
		rel[r].presumed_offset = fuzz_u8(&in) < 200 ? 0 : fuzz_u64(&in);
		rel[r].read_domains = fuzz_u8(&in) < 200 ? I915_GEM_DOMAIN_RENDER : fuzz_u32(&in);
		rel[r].write_domain = fuzz_u8(&in) < 128 ? 0 : rel[r].read_domains;
	}
	obj[0].relocation_count = nrel;
	obj[0].relocs_ptr = (uintptr_t)rel;

	/* the batch last, or first with BATCH_FIRST */
	struct drm_i915_gem_exec_object2 list[3];
	bool first = ebf & 4;
	for (unsigned i = 0; i < 3; i++)
		list[i] = obj[first ? i : (i + 1) % 3];
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)list, .buffer_count = 3,
		.flags = ring | ((ebf & 1) ? I915_EXEC_HANDLE_LUT : 0) |
			 ((ebf & 2) ? I915_EXEC_NO_RELOC : 0) |
			 (first ? I915_EXEC_BATCH_FIRST : 0) |
			 ((ebf & 32) ? I915_EXEC_SECURE : 0),
		.batch_start_offset = (ebf & 8) ? fuzz_u16(&in) & ~7u : 0,
		.batch_len = (ebf & 16) ? (uint32_t)fuzz_size(&in, 20) : 0,
		.rsvd1 = ctx,
	};
	if (!gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb)) {
		struct drm_i915_gem_wait w = { .bo_handle = h[0], .timeout_ns = -1 };
		gtsim_ioctl_retry(f, DRM_IOCTL_I915_GEM_WAIT, &w);   /* libFuzzer's SIGALRM */
	}
	for (unsigned i = 0; i < 3; i++)
		gem_close(f, h[i]);
	if (ctx_mode == 2) {
		struct drm_i915_gem_context_destroy cd = { .ctx_id = ctx };
		gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &cd);
	}
	if (f != d->keep)
		gtsim_close(f);
	return 0;
}
