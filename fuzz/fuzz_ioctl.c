/* Target ioctl: sequences of DRM and i915 ioctls (every entry of the
 * kernel model's table, src/kernel/ioctl.c, and numbers outside it) on two
 * files of one device, through the public API (gtsim/gtsim.h).
 *
 * Input: a byte choosing the device (bdw/skl), then up to MAX_CALLS calls,
 * each a byte naming the call and a byte naming the file, then the call's
 * arguments: struct fields from the input, with handles, contexts, VMs,
 * syncobjs, flink names and fds drawn mostly from those the input created
 * (pool_pick), sizes biased to limits (fuzz_size) and user pointers into
 * mapped memory, onto a guard page, into unmapped memory or anywhere
 * (user_ptr). GEM mmaps are touched at both ends. Everything an input
 * opened is closed at its end; the device lives for the whole run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/user_copy.h"
#include "fuzz_dev.h"
#include "fuzz_target.h"

#define MAX_CALLS 48

struct state {
	struct fuzz_input in;
	struct user_mem *u;
	struct gtsim_file *file[2];
	struct pool bo[2], ctx[2], vm[2], syncobj[2], names, fds;
	struct { void *p; size_t len; } maps[8];
	unsigned nmaps;
};

static struct gtsim_device *dev;
static struct user_mem umem;

static uint32_t bo(struct state *s, int f) { return pool_pick(&s->in, &s->bo[f]); }

/* An object's size: up to 256 MiB (an execbuf binds every page, so larger
 * ones only slow the run), or one past a limit (RAM, i915's int of pages,
 * 2^64 - 1), which must fail. */
static uint64_t object_size(struct fuzz_input *in)
{
	uint8_t how = fuzz_u8(in);
	if (how < 250)
		return fuzz_size(in, 28);
	static const uint64_t huge[] = { 0x7fffffffull << 12, 0x80000000ull << 12,
					 1ull << 46, ~0ull - 4095, ~0ull };
	return huge[how % 5];
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A wait's timeout: none, a few ms, or infinite (-1: then only the
 * hangcheck ends a batch that never finishes). */
static int64_t short_timeout(struct state *s)
{
	uint8_t t = fuzz_u8(&s->in);
	return t < 16 ? 0 : t < 250 ? (int64_t)(t % 8) * 1000000 : -1;
}

static void keep_fd(struct state *s, int fd)
{
	if (fd < 0)
		return;
	if (s->fds.n == POOL)
		close((int)s->fds.v[--s->fds.n]);
	pool_add(&s->fds, (uint32_t)fd);
}

static void keep_map(struct state *s, void *p, size_t len)
{
	if (p == MAP_FAILED || !p)
		return;
	/* The mapping is the client's: it reads and writes both ends. A purged
	 * object's mapping faults (SIGBUS, as i915's), so the touches are
	 * guarded copies, as a careful client's would be. */
	for (size_t at = 0; at < len; at += len - 1 ? len - 1 : 1) {
		uint8_t b;
		if (copy_from_user_ptr(&b, (uintptr_t)p + at, 1) == 0) {
			b++;
			copy_to_user_ptr((uintptr_t)p + at, &b, 1);
		}
	}
	if (s->nmaps == 8) {
		munmap(s->maps[0].p, s->maps[0].len);
		memmove(s->maps, s->maps + 1, 7 * sizeof(s->maps[0]));
		s->nmaps--;
	}
	s->maps[s->nmaps].p = p;
	s->maps[s->nmaps++].len = len;
}

/* A chain of up to 3 i915_user_extension records in the scratch, from
 * the input (name mostly small), linked in order, to a bad pointer, or
 * back to the first (a loop). Returns the first one's address or 0. */
static uint64_t ext_chain(struct state *s, size_t off)
{
	unsigned n = fuzz_u8(&s->in) % 4;
	uint64_t first = 0, prev = 0;
	for (unsigned i = 0; i < n; i++) {
		uint8_t *at = s->u->base + off + i * 128;
		fuzz_bytes(&s->in, at, 128);
		struct i915_user_extension *e = (void *)at;
		e->name %= 4;
		e->next_extension = 0;
		if (prev)
			((struct i915_user_extension *)(uintptr_t)prev)->next_extension = (uintptr_t)at;
		else
			first = (uintptr_t)at;
		prev = (uintptr_t)at;
		/* a setparam extension's value: an array from the scratch */
		if (fuzz_bool(&s->in))
			((struct drm_i915_gem_context_create_ext_setparam *)at)->param.value =
				user_ptr(&s->in, s->u, 64, 2048 + i * 256);
	}
	if (prev) {
		uint8_t end = fuzz_u8(&s->in);
		struct i915_user_extension *last = (void *)(uintptr_t)prev;
		if (end > 240)
			last->next_extension = first;
		else if (end > 220)
			last->next_extension = user_ptr(&s->in, s->u, 16, 0);
	}
	return first;
}

static int call(struct state *s, int f, unsigned long req, void *arg)
{
	return gtsim_ioctl(s->file[f], req, arg);
}

/* The struct passed in a heap block of exactly its size, as a client's
 * struct would be: ASan sees a handler reading past it. */
static int call_exact(struct state *s, int f, unsigned long req, void *arg, size_t size)
{
	void *copy = malloc(size);
	memcpy(copy, arg, size);
	int ret = gtsim_ioctl(s->file[f], req, copy);
	memcpy(arg, copy, size);
	free(copy);
	return ret;
}

static void gem_ops(struct state *s, int f, unsigned op)
{
	struct fuzz_input *in = &s->in;
	switch (op) {
	case 0: {
		struct drm_i915_gem_create c = { .size = object_size(in) };
		if (!call(s, f, DRM_IOCTL_I915_GEM_CREATE, &c))
			pool_add(&s->bo[f], c.handle);
		break;
	}
	case 1: {
		struct drm_i915_gem_create_ext c = { .size = object_size(in),
						     .flags = fuzz_u8(in) < 240 ? 0 : fuzz_u32(in) };
		c.extensions = ext_chain(s, 0);
		if (!call(s, f, DRM_IOCTL_I915_GEM_CREATE_EXT, &c))
			pool_add(&s->bo[f], c.handle);
		break;
	}
	case 2: {
		struct drm_gem_close c = { .handle = bo(s, f) };
		call(s, f, DRM_IOCTL_GEM_CLOSE, &c);
		break;
	}
	case 3: {
		struct drm_gem_flink fl = { .handle = bo(s, f) };
		if (!call(s, f, DRM_IOCTL_GEM_FLINK, &fl))
			pool_add(&s->names, fl.name);
		struct drm_gem_open o = { .name = pool_pick(in, &s->names) };
		if (!call(s, !f, DRM_IOCTL_GEM_OPEN, &o))
			pool_add(&s->bo[!f], o.handle);
		break;
	}
	case 4: {
		struct drm_i915_gem_pwrite p = { .handle = bo(s, f), .offset = fuzz_size(in, 36),
						 .size = fuzz_size(in, 36) };
		p.data_ptr = user_ptr(in, s->u, p.size, fuzz_u16(in));
		call(s, f, fuzz_bool(in) ? DRM_IOCTL_I915_GEM_PWRITE : DRM_IOCTL_I915_GEM_PREAD, &p);
		break;
	}
	case 5: {
		struct drm_i915_gem_mmap m = { .handle = bo(s, f), .offset = fuzz_size(in, 36),
					       .size = fuzz_size(in, 36),
					       .flags = fuzz_u8(in) < 200 ? 0 : fuzz_u32(in) };
		if (!call(s, f, DRM_IOCTL_I915_GEM_MMAP, &m) && m.size)
			keep_map(s, (void *)(uintptr_t)m.addr_ptr, m.size);
		break;
	}
	case 6: {
		struct drm_i915_gem_mmap_offset m = { .handle = bo(s, f), .flags = fuzz_u8(in) % 6 };
		unsigned long req = fuzz_bool(in) ? DRM_IOCTL_I915_GEM_MMAP_OFFSET
						  : DRM_IOCTL_I915_GEM_MMAP_GTT;
		if (call(s, f, req, &m))
			break;
		size_t len = (size_t)fuzz_size(in, 24);
		uint64_t off = m.offset + (fuzz_u8(in) < 220 ? 0 : fuzz_size(in, 24));
		int prot = fuzz_u8(in) % 4 ? PROT_READ | PROT_WRITE : PROT_READ;
		void *p = gtsim_mmap(s->file[fuzz_u8(in) < 230 ? f : !f], NULL, len, prot,
				     MAP_SHARED, off);
		if (p != MAP_FAILED && len && (prot & PROT_WRITE))
			keep_map(s, p, len);
		else if (p != MAP_FAILED)
			munmap(p, len);
		break;
	}
	case 7: {
		struct drm_i915_gem_set_domain d = { .handle = bo(s, f), .read_domains = fuzz_u32(in),
						     .write_domain = fuzz_u32(in) };
		if (fuzz_u8(in) < 200) {
			d.read_domains &= 0x7f;
			d.write_domain &= 0x7f;
		}
		call(s, f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &d);
		struct drm_i915_gem_sw_finish fin = { .handle = bo(s, f) };
		call(s, f, DRM_IOCTL_I915_GEM_SW_FINISH, &fin);
		break;
	}
	case 8: {
		struct drm_i915_gem_set_tiling t = { .handle = bo(s, f),
			.tiling_mode = fuzz_u8(in) % 5, .stride = (uint32_t)fuzz_size(in, 32),
			.swizzle_mode = fuzz_u32(in) };
		call(s, f, DRM_IOCTL_I915_GEM_SET_TILING, &t);
		struct drm_i915_gem_get_tiling g = { .handle = bo(s, f) };
		call(s, f, DRM_IOCTL_I915_GEM_GET_TILING, &g);
		break;
	}
	case 9: {
		struct drm_i915_gem_caching c = { .handle = bo(s, f), .caching = fuzz_u8(in) % 5 };
		call(s, f, fuzz_bool(in) ? DRM_IOCTL_I915_GEM_SET_CACHING
					 : DRM_IOCTL_I915_GEM_GET_CACHING, &c);
		struct drm_i915_gem_madvise m = { .handle = bo(s, f), .madv = fuzz_u8(in) % 4 };
		call(s, f, DRM_IOCTL_I915_GEM_MADVISE, &m);
		break;
	}
	case 10: {
		struct drm_i915_gem_busy b = { .handle = bo(s, f) };
		call(s, f, DRM_IOCTL_I915_GEM_BUSY, &b);
		struct drm_i915_gem_wait w = { .bo_handle = bo(s, f), .flags = fuzz_u8(in) < 240 ? 0 : 1,
					       .timeout_ns = short_timeout(s) };
		call(s, f, DRM_IOCTL_I915_GEM_WAIT, &w);
		struct drm_i915_gem_get_aperture a;
		call(s, f, DRM_IOCTL_I915_GEM_GET_APERTURE, &a);
		break;
	}
	}
}

static void param_ops(struct state *s, int f, unsigned op)
{
	struct fuzz_input *in = &s->in;
	switch (op) {
	case 0: {
		int value;
		drm_i915_getparam_t g = { .param = fuzz_u8(in) % 80 };
		g.value = fuzz_u8(in) < 220 ? &value : (int *)(uintptr_t)user_ptr(in, s->u, 4, 0);
		call_exact(s, f, DRM_IOCTL_I915_GETPARAM, &g, sizeof(g));
		drm_i915_setparam_t sp = { .param = fuzz_u8(in) % 8, .value = (int)fuzz_u32(in) };
		call(s, f, DRM_IOCTL_I915_SETPARAM, &sp);
		break;
	}
	case 1: {
		struct drm_i915_gem_context_create_ext c = { .flags = fuzz_u8(in) < 200 ? 0 : fuzz_u32(in) };
		if (fuzz_bool(in))
			c.flags |= I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS;
		c.extensions = ext_chain(s, 0);
		/* the old struct (CONTEXT_CREATE's size) half the time */
		int ret = fuzz_bool(in) ? call(s, f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &c)
					: call_exact(s, f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c,
						     sizeof(struct drm_i915_gem_context_create));
		if (!ret)
			pool_add(&s->ctx[f], c.ctx_id);
		break;
	}
	case 2: {
		struct drm_i915_gem_context_destroy d = { .ctx_id = pool_pick(in, &s->ctx[f]) };
		call(s, f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d);
		break;
	}
	case 3: {
		struct drm_i915_gem_context_param p = { .ctx_id = pool_pick(in, &s->ctx[f]),
			.param = fuzz_u8(in) % 0x14, .size = (uint32_t)fuzz_size(in, 32) };
		if (fuzz_u8(in) < 128)
			p.size %= 512;
		if (p.param == I915_CONTEXT_PARAM_VM && fuzz_bool(in))
			p.value = pool_pick(in, &s->vm[f]);
		else if (fuzz_bool(in))
			p.value = user_ptr(in, s->u, p.size < 4096 ? p.size : 4096, 0);
		else
			p.value = fuzz_size(in, 64);
		call(s, f, fuzz_bool(in) ? DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM
					 : DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &p);
		break;
	}
	case 4: {
		struct drm_i915_reset_stats r = { .ctx_id = pool_pick(in, &s->ctx[f]),
						  .flags = fuzz_u8(in) < 240 ? 0 : 1 };
		call(s, f, DRM_IOCTL_I915_GET_RESET_STATS, &r);
		static const uint32_t regs[] = { 0x2358, 0x2358 | 1, 0x22358, 0x1a358, 0x12358,
						 0x2000, 0 };
		struct drm_i915_reg_read rr = { .offset = fuzz_u8(in) < 200
			? regs[fuzz_u8(in) % 7] : fuzz_u64(in) };
		call(s, f, DRM_IOCTL_I915_REG_READ, &rr);
		break;
	}
	case 5: {
		/* up to 4 items in the scratch, each with its own buffer */
		unsigned n = fuzz_u8(in) % 5;
		struct drm_i915_query_item *items = (void *)(s->u->base + 8192);
		for (unsigned i = 0; i < n; i++) {
			items[i].query_id = fuzz_u8(in) % 12;
			items[i].length = (int32_t)(fuzz_u8(in) < 100 ? 0 : fuzz_size(in, 13));
			items[i].flags = fuzz_u8(in) < 230 ? 0 : fuzz_u32(in);
			items[i].data_ptr = user_ptr(in, s->u, 512, 256 + 512 * i);
		}
		struct drm_i915_query q = { .num_items = fuzz_u8(in) < 230 ? n : fuzz_u32(in),
					    .flags = fuzz_u8(in) < 240 ? 0 : 1,
					    .items_ptr = fuzz_u8(in) < 230 ? (uintptr_t)items
						: user_ptr(in, s->u, 32, 8192) };
		call(s, f, DRM_IOCTL_I915_QUERY, &q);
		/* the lengths it gave back, used as asked */
		if (n && q.items_ptr == (uintptr_t)items) {
			for (unsigned i = 0; i < n; i++)
				if (items[i].length > 0 && items[i].length <= 2048)
					items[i].data_ptr = (uintptr_t)(s->u->base + 2048);
				else
					items[i].length = 0;
			call(s, f, DRM_IOCTL_I915_QUERY, &q);
		}
		break;
	}
	case 6: {
		struct drm_i915_gem_vm_control v = { .flags = fuzz_u8(in) < 240 ? 0 : fuzz_u32(in) };
		v.extensions = fuzz_u8(in) < 230 ? 0 : ext_chain(s, 0);
		if (!call(s, f, DRM_IOCTL_I915_GEM_VM_CREATE, &v))
			pool_add(&s->vm[f], v.vm_id);
		struct drm_i915_gem_vm_control d = { .vm_id = pool_pick(in, &s->vm[f]) };
		if (fuzz_u8(in) < 64)
			call(s, f, DRM_IOCTL_I915_GEM_VM_DESTROY, &d);
		break;
	}
	case 7: {
		struct drm_version v = { .name_len = (size_t)fuzz_size(in, 12),
					 .date_len = (size_t)fuzz_size(in, 12),
					 .desc_len = (size_t)fuzz_size(in, 12) };
		v.name = (char *)(uintptr_t)user_ptr(in, s->u, v.name_len, 0);
		v.date = (char *)(uintptr_t)user_ptr(in, s->u, v.date_len, 4096);
		v.desc = (char *)(uintptr_t)user_ptr(in, s->u, v.desc_len, 8192);
		call(s, f, DRM_IOCTL_VERSION, &v);
		struct drm_unique un = { .unique_len = (size_t)fuzz_size(in, 12) };
		un.unique = (char *)(uintptr_t)user_ptr(in, s->u, un.unique_len, 0);
		call(s, f, DRM_IOCTL_GET_UNIQUE, &un);
		struct drm_get_cap c = { .capability = fuzz_u8(in) % 0x20 };
		call(s, f, DRM_IOCTL_GET_CAP, &c);
		struct drm_set_client_cap cc = { .capability = fuzz_u8(in) % 8, .value = fuzz_u8(in) % 3 };
		call(s, f, DRM_IOCTL_SET_CLIENT_CAP, &cc);
		break;
	}
	}
}

static void sync_ops(struct state *s, int f, unsigned op)
{
	struct fuzz_input *in = &s->in;
	uint32_t *handles = (uint32_t *)(s->u->base + 12288);
	uint64_t *points = (uint64_t *)(s->u->base + 13312);
	unsigned count = fuzz_u8(in) % 5;
	for (unsigned i = 0; i < count; i++) {
		handles[i] = pool_pick(in, &s->syncobj[f]);
		points[i] = fuzz_u8(in) < 200 ? fuzz_u8(in) % 4 : fuzz_u64(in);
	}
	uint64_t hp = fuzz_u8(in) < 230 ? (uintptr_t)handles : user_ptr(in, s->u, count * 4, 0);
	uint64_t pp = fuzz_u8(in) < 230 ? (uintptr_t)points : user_ptr(in, s->u, count * 8, 0);
	uint32_t n = fuzz_u8(in) < 240 ? count : fuzz_u32(in);
	switch (op) {
	case 0: {
		struct drm_syncobj_create c = { .flags = fuzz_u8(in) % 3 };
		if (!call(s, f, DRM_IOCTL_SYNCOBJ_CREATE, &c))
			pool_add(&s->syncobj[f], c.handle);
		break;
	}
	case 1: {
		struct drm_syncobj_destroy d = { .handle = pool_pick(in, &s->syncobj[f]) };
		call(s, f, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
		break;
	}
	case 2: {
		struct drm_syncobj_handle h = { .handle = pool_pick(in, &s->syncobj[f]),
						.flags = fuzz_u8(in) % 4 };
		if (!call(s, f, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h))
			keep_fd(s, h.fd);
		struct drm_syncobj_handle i = { .fd = (int)pool_pick(in, &s->fds),
						.flags = fuzz_u8(in) % 4, .handle = pool_pick(in, &s->syncobj[!f]) };
		if (!call(s, !f, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &i) && !(i.flags & 1))
			pool_add(&s->syncobj[!f], i.handle);
		break;
	}
	case 3: {
		struct drm_syncobj_wait w = { .handles = hp, .count_handles = n,
			.flags = fuzz_u8(in) % 8, .timeout_nsec = now_ns() + short_timeout(s) };
		call(s, f, DRM_IOCTL_SYNCOBJ_WAIT, &w);
		break;
	}
	case 4: {
		struct drm_syncobj_timeline_wait w = { .handles = hp, .points = pp,
			.count_handles = n, .flags = fuzz_u8(in) % 16,
			.timeout_nsec = now_ns() + short_timeout(s) };
		call(s, f, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
		break;
	}
	case 5: {
		struct drm_syncobj_array a = { .handles = hp, .count_handles = n };
		call(s, f, fuzz_bool(in) ? DRM_IOCTL_SYNCOBJ_RESET : DRM_IOCTL_SYNCOBJ_SIGNAL, &a);
		break;
	}
	case 6: {
		struct drm_syncobj_timeline_array a = { .handles = hp, .points = pp,
			.count_handles = n, .flags = fuzz_u8(in) % 2 };
		call(s, f, fuzz_bool(in) ? DRM_IOCTL_SYNCOBJ_QUERY
					 : DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a);
		break;
	}
	case 7: {
		struct drm_syncobj_transfer t = { .src_handle = pool_pick(in, &s->syncobj[f]),
			.dst_handle = pool_pick(in, &s->syncobj[f]), .src_point = fuzz_u8(in) % 4,
			.dst_point = fuzz_u8(in) % 4, .flags = fuzz_u8(in) % 2 };
		call(s, f, DRM_IOCTL_SYNCOBJ_TRANSFER, &t);
		break;
	}
	case 8: {
		struct drm_prime_handle p = { .handle = bo(s, f), .flags = fuzz_u8(in) < 200
			? DRM_CLOEXEC | (fuzz_bool(in) ? DRM_RDWR : 0) : fuzz_u32(in) };
		if (!call(s, f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
			keep_fd(s, p.fd);
		struct drm_prime_handle q = { .fd = (int)pool_pick(in, &s->fds) };
		if (!call(s, !f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &q))
			pool_add(&s->bo[!f], q.handle);
		break;
	}
	}
}

/* An exec list's length: the real one, a little more, 0, or from just
 * past the largest list i915 takes (-ENOMEM) to 2^32 - 1. Not the
 * millions in between: those are valid lengths whose list is read from
 * user memory as i915 does, after a gigabyte allocation, which under ASan
 * costs seconds and says nothing. */
static uint32_t exec_count(struct fuzz_input *in, unsigned n)
{
	uint8_t how = fuzz_u8(in);
	if (how < 220)
		return n;
	if (how < 235)
		return n + how % 8;
	if (how < 240)
		return 0;
	return 0x7fffffffu / 68 + (fuzz_u32(in) % (0xffffffffu - 0x7fffffffu / 68));
}

/* A small execbuf: objects from the pool with fuzzed flags, offsets and
 * relocations, the batch last (or first), fuzzed flags, context, fences.
 * The execbuf target covers what batches contain. */
static void execbuf_op(struct state *s, int f)
{
	struct fuzz_input *in = &s->in;
	uint32_t end[2] = { 0x0a << 23, 0 };   /* MI_BATCH_BUFFER_END, MI_NOOP */
	unsigned n = 1 + fuzz_u8(in) % 4;
	struct drm_i915_gem_exec_object2 *obj = (void *)(s->u->base + 4096);
	struct drm_i915_gem_relocation_entry *rel = (void *)(s->u->base + 8192);
	for (unsigned i = 0; i < n; i++) {
		memset(&obj[i], 0, sizeof(obj[i]));
		obj[i].handle = bo(s, f);
		obj[i].flags = fuzz_u8(in) < 128 ? fuzz_u8(in) & 0x1ff : fuzz_u64(in) & 0xffff;
		obj[i].offset = fuzz_u8(in) < 128 ? (uint64_t)fuzz_u16(in) << 12 : fuzz_size(in, 64);
		obj[i].alignment = fuzz_u8(in) < 200 ? 0 : fuzz_size(in, 64);
		if (fuzz_u8(in) < 64) {
			unsigned nr = fuzz_u8(in) % 4;
			for (unsigned r = 0; r < nr; r++) {
				fuzz_bytes(in, &rel[r], sizeof(rel[r]));
				rel[r].target_handle = fuzz_u8(in) < 200 ? bo(s, f) : fuzz_u8(in) % 8;
				rel[r].offset %= 8192;
			}
			obj[i].relocation_count = fuzz_u8(in) < 240 ? nr : fuzz_u32(in);
			obj[i].relocs_ptr = fuzz_u8(in) < 230 ? (uintptr_t)rel
				: user_ptr(in, s->u, nr * sizeof(*rel), 0);
		}
	}
	struct drm_i915_gem_pwrite pw = { .handle = obj[n - 1].handle, .size = 8,
					  .data_ptr = (uintptr_t)end };
	call(s, f, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = fuzz_u8(in) < 240 ? (uintptr_t)obj : user_ptr(in, s->u, 64, 0),
		.buffer_count = exec_count(in, n),
		.batch_start_offset = fuzz_u8(in) < 200 ? 0 : (uint32_t)fuzz_size(in, 32),
		.batch_len = fuzz_u8(in) < 200 ? 0 : (uint32_t)fuzz_size(in, 32),
		.flags = fuzz_u8(in) < 128 ? fuzz_u8(in) % 5 : fuzz_u64(in) & 0x3fffff,
		.rsvd1 = pool_pick(in, &s->ctx[f]),
		.rsvd2 = pool_pick(in, &s->fds),
	};
	if (eb.flags & I915_EXEC_USE_EXTENSIONS) {
		eb.cliprects_ptr = ext_chain(s, 0);
	} else if (eb.flags & I915_EXEC_FENCE_ARRAY) {
		struct drm_i915_gem_exec_fence *fa = (void *)(s->u->base + 12288);
		unsigned nf = fuzz_u8(in) % 4;
		for (unsigned i = 0; i < nf; i++) {
			fa[i].handle = pool_pick(in, &s->syncobj[f]);
			fa[i].flags = fuzz_u8(in) % 4;
		}
		eb.cliprects_ptr = fuzz_u8(in) < 230 ? (uintptr_t)fa : user_ptr(in, s->u, 32, 0);
		eb.num_cliprects = fuzz_u8(in) < 240 ? nf : fuzz_u32(in);
	}
	int ret = call(s, f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	if (!ret && (eb.flags & I915_EXEC_FENCE_OUT))
		keep_fd(s, (int)(eb.rsvd2 >> 32));
}

/* Any number, in the DRM or the driver range, with a struct of any size
 * from the input, passed in a block of exactly that size: the table's
 * unimplemented and unknown entries, and known ones called with an older
 * (shorter) or newer (longer) struct than the handler's. */
static void raw_op(struct state *s, int f)
{
	struct fuzz_input *in = &s->in;
	unsigned nr = fuzz_u8(in);
	if (fuzz_u8(in) < 128)
		nr = DRM_COMMAND_BASE + nr % 0x40;
	unsigned size = fuzz_u8(in) % 128;
	unsigned dir = fuzz_u8(in) % 4;
	uint8_t *arg = malloc(size ? size : 1);
	fuzz_bytes(in, arg, size);
	/* pointers in the struct are as fuzzed: mostly garbage, -EFAULT */
	gtsim_ioctl(s->file[f], _IOC(dir, DRM_IOCTL_BASE, nr, size), size ? arg : NULL);
	free(arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dev) {
		dev = fuzz_device("bdw");
		user_mem_init(&umem);
	}
	struct state *s = calloc(1, sizeof(*s));
	s->in = fuzz_input(data, size);
	s->u = &umem;
	s->file[0] = gtsim_open(dev);
	s->file[1] = gtsim_open(dev);
	if (!s->file[0] || !s->file[1])
		abort();
	for (unsigned i = 0; i < MAX_CALLS && fuzz_left(&s->in); i++) {
		uint8_t op = fuzz_u8(&s->in);
		int f = fuzz_u8(&s->in) & 1;
		if (op < 11)
			gem_ops(s, f, op);
		else if (op < 19)
			param_ops(s, f, op - 11);
		else if (op < 28)
			sync_ops(s, f, op - 19);
		else if (op < 34)
			execbuf_op(s, f);
		else if (op < 40)
			raw_op(s, f);
		else
			gem_ops(s, f, op % 11);
	}
	for (unsigned i = 0; i < s->nmaps; i++)
		munmap(s->maps[i].p, s->maps[i].len);
	for (unsigned i = 0; i < s->fds.n; i++)
		close((int)s->fds.v[i]);
	gtsim_close(s->file[0]);
	gtsim_close(s->file[1]);
	free(s);
	return 0;
}
