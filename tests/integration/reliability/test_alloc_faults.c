/* Allocation failure at any point of an ioctl (issue 16): the test is
 * linked with -Wl,--wrap of malloc, calloc, realloc, aligned_alloc and
 * strdup, so every allocation the kernel model makes in this thread goes
 * through the hooks below. For each ioctl of a scripted sequence (objects,
 * contexts, VMs, tiling, relocated execbufs with an out-fence and a
 * syncobj, waits, PRIME and flink between two files, queries, closes and
 * destroys), the Nth allocation of that ioctl fails, for
 * N = 1, 2, ... until the ioctl makes fewer than N allocations; each
 * failing attempt must:
 *  - return -ENOMEM (what i915 returns when its kmalloc fails;
 *    gtsim_ioctl returns -errno),
 *  - leave nothing behind: no new file descriptor (an out-fence, a
 *    dma-buf), no executed batch (the execbuf's target keeps 0), no leak
 *    (LeakSanitizer in the sanitizer build, at the device's destruction);
 * the successful attempt then does what the ioctl does, and after each
 * ioctl a valid execbuf on a second file still runs (its store lands). */
#include <dirent.h>
#include <drm.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gtsim/gtsim.h"
#include "test.h"

/* The allocation hooks: armed only around one ioctl, in this thread. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
char *__wrap_strdup(const char *s);

static _Thread_local bool armed, failed;
static _Thread_local unsigned count, fail_at;

/* The stack of the failed allocation, printed when the ioctl's answer is
 * wrong (addresses for addr2line: the site of a finding). */
static _Thread_local void *fail_stack[16];
static _Thread_local int fail_depth;

static bool inject(void)
{
	if (!armed || failed || ++count != fail_at)
		return false;
	failed = true;
	fail_depth = backtrace(fail_stack, 16);
	errno = ENOMEM;
	return true;
}

void *__wrap_malloc(size_t n) { return inject() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return inject() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return inject() ? NULL : __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t align, size_t n)
{
	return inject() ? NULL : __real_aligned_alloc(align, n);
}
char *__wrap_strdup(const char *s) { return inject() ? NULL : __real_strdup(s); }

/* MI commands encoded by hand (BDW PRM vol. 2a). */
#define MI_BATCH_BUFFER_END (0x0au << 23)
#define MI_STORE_DWORD_IMM_GEN8 ((0x20u << 23) | 2u)

static struct gtsim_device *dev;
static struct gtsim_file *f, *g;   /* the scripted file, and another */

struct state {
	uint32_t target, batch, ctx, vm, syncobj, flink_name, imported, opened;
	uint32_t userptr, ctx_engines, timeline, imported_syncobj;
	uint64_t mmap_offset;
	int dmabuf, sync_file, syncobj_fd;
	uint32_t value;                 /* what the next execbuf stores */
	uint32_t *exec_result;          /* where the execbuf's stores land, when */
	unsigned exec_stores;           /* not in st.target's pages: its count */
};
static struct state st;

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static uint32_t gem_create(struct gtsim_file *file, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

static void bo_write(struct gtsim_file *file, uint32_t h, uint64_t off, const void *p, uint64_t n)
{
	struct drm_i915_gem_pwrite w = { .handle = h, .offset = off, .size = n,
					 .data_ptr = (uintptr_t)p };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_PWRITE, &w), 0);
}

static uint32_t pread32(struct gtsim_file *file, uint32_t h, uint64_t off)
{
	uint32_t v = 0xbad0bad0;
	struct drm_i915_gem_pread r = { .handle = h, .offset = off, .size = 4,
					.data_ptr = (uintptr_t)&v };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_PREAD, &r), 0);
	return v;
}

/* One ioctl of the script: the request and its argument, rebuilt for
 * every attempt by prepare(); done() takes the result of the attempt that
 * succeeded. */
struct step {
	const char *name;
	unsigned long request;
	void (*prepare)(void *arg);
	void (*done)(void *arg);
	bool execbuf;                  /* its batch stores st.value (st.exec_stores times) */
	int (*call)(struct gtsim_file *file, void *arg);  /* instead of an ioctl */
	bool other_file;               /* on file g (imports what f exported) */
	/* allocations the ioctl may do without (i915 has no such allocation,
	 * or fails it silently too): the first try to bind an object where
	 * userspace presumed it (i915 binds without allocating), the
	 * sync_file registry's best-effort cleanup of closed fds; any other
	 * ioctl must fail with -ENOMEM */
	unsigned may_absorb;
};

/* --- the arguments of each step --- */
static void p_create(void *a) { *(struct drm_i915_gem_create *)a = (struct drm_i915_gem_create){ .size = 8192 }; }
static void d_target(void *a) { st.target = ((struct drm_i915_gem_create *)a)->handle; }
static void d_batch(void *a) { st.batch = ((struct drm_i915_gem_create *)a)->handle; }

static void p_ctx(void *a) { memset(a, 0, sizeof(struct drm_i915_gem_context_create)); }
static void d_ctx(void *a) { st.ctx = ((struct drm_i915_gem_context_create *)a)->ctx_id; }

static void p_vm(void *a) { memset(a, 0, sizeof(struct drm_i915_gem_vm_control)); }
static void d_vm(void *a) { st.vm = ((struct drm_i915_gem_vm_control *)a)->vm_id; }

static void p_tiling(void *a)
{
	*(struct drm_i915_gem_set_tiling *)a = (struct drm_i915_gem_set_tiling){
		.handle = st.target, .tiling_mode = I915_TILING_X, .stride = 512 };
}

static void p_mmap_offset(void *a)
{
	*(struct drm_i915_gem_mmap_offset *)a = (struct drm_i915_gem_mmap_offset){
		.handle = st.batch, .flags = I915_MMAP_OFFSET_WB };
}

static void p_syncobj(void *a) { memset(a, 0, sizeof(struct drm_syncobj_create)); }
static void d_syncobj(void *a) { st.syncobj = ((struct drm_syncobj_create *)a)->handle; }

/* the batch: up to 32 MI_STORE_DWORD_IMM of st.value into a target at
 * 0x40, 0x44, ..., each address relocated */
#define MAX_STORES 32
static struct drm_i915_gem_relocation_entry relocs[MAX_STORES];
static struct drm_i915_gem_exec_object2 objs[2];
static struct drm_i915_gem_exec_fence fence;
static uint32_t userptr_mem[2048] __attribute__((aligned(4096)));

static void p_execbuf_to(void *a, uint64_t flags, uint32_t target, unsigned stores, uint32_t ctx)
{
	uint32_t bb[MAX_STORES * 4 + 2] = { 0 };
	for (unsigned i = 0; i < stores; i++) {
		bb[4 * i] = MI_STORE_DWORD_IMM_GEN8;
		bb[4 * i + 3] = st.value;
		relocs[i] = (struct drm_i915_gem_relocation_entry){
			.target_handle = target, .offset = 16 * i + 4, .delta = 0x40 + 4 * i,
			.presumed_offset = ~0ull,   /* never right: always relocated */
			.read_domains = I915_GEM_DOMAIN_RENDER,
			.write_domain = I915_GEM_DOMAIN_RENDER };
	}
	bb[4 * stores] = MI_BATCH_BUFFER_END;
	bo_write(f, st.batch, 0, bb, (4 * stores + 2) * 4);
	st.exec_stores = stores;
	st.exec_result = target == st.userptr ? &userptr_mem[0x40 / 4] : NULL;
	static const uint32_t zeros[MAX_STORES];
	if (st.exec_result)
		memset(st.exec_result, 0, sizeof(zeros));
	else
		bo_write(f, target, 0x40, zeros, sizeof(zeros));
	objs[0] = (struct drm_i915_gem_exec_object2){ .handle = target };
	objs[1] = (struct drm_i915_gem_exec_object2){ .handle = st.batch,
		.relocation_count = stores, .relocs_ptr = (uintptr_t)relocs };
	*(struct drm_i915_gem_execbuffer2 *)a = (struct drm_i915_gem_execbuffer2){
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 2, .flags = flags, .rsvd1 = ctx };
}

static void p_execbuf(void *a, uint64_t flags, bool with_fence)
{
	p_execbuf_to(a, flags, st.target, 1, st.ctx);
	fence = (struct drm_i915_gem_exec_fence){ .handle = st.syncobj,
						  .flags = I915_EXEC_FENCE_SIGNAL };
	struct drm_i915_gem_execbuffer2 *eb = a;
	eb->cliprects_ptr = with_fence ? (uintptr_t)&fence : 0;
	eb->num_cliprects = with_fence ? 1 : 0;
}
static void p_exec_fence_out(void *a) { p_execbuf(a, I915_EXEC_FENCE_OUT, false); }
static void d_exec_fence_out(void *a)
{
	int fd = (int)(((struct drm_i915_gem_execbuffer2 *)a)->rsvd2 >> 32);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
}
static void p_exec_syncobj(void *a) { p_execbuf(a, I915_EXEC_FENCE_ARRAY, true); }

static void p_wait(void *a)
{
	*(struct drm_i915_gem_wait *)a = (struct drm_i915_gem_wait){ .bo_handle = st.batch,
								     .timeout_ns = -1 };
}

static void p_syncobj_wait(void *a)
{
	static uint32_t h;
	h = st.syncobj;
	*(struct drm_syncobj_wait *)a = (struct drm_syncobj_wait){
		.handles = (uintptr_t)&h, .count_handles = 1, .timeout_nsec = INT64_MAX };
}

static void p_prime_export(void *a)
{
	*(struct drm_prime_handle *)a = (struct drm_prime_handle){ .handle = st.target,
								   .flags = DRM_CLOEXEC };
}
static void d_prime_export(void *a) { st.dmabuf = ((struct drm_prime_handle *)a)->fd; }

static void p_flink(void *a) { *(struct drm_gem_flink *)a = (struct drm_gem_flink){ .handle = st.target }; }
static void d_flink(void *a) { st.flink_name = ((struct drm_gem_flink *)a)->name; }

static void p_query(void *a)
{
	static struct drm_i915_query_item item;
	static uint8_t buf[4096];
	item = (struct drm_i915_query_item){ .query_id = DRM_I915_QUERY_ENGINE_INFO,
					     .length = sizeof(buf), .data_ptr = (uintptr_t)buf };
	*(struct drm_i915_query *)a = (struct drm_i915_query){ .num_items = 1,
							       .items_ptr = (uintptr_t)&item };
}

static void p_close_target(void *a) { *(struct drm_gem_close *)a = (struct drm_gem_close){ .handle = st.target }; }
static void p_ctx_destroy(void *a)
{
	*(struct drm_i915_gem_context_destroy *)a = (struct drm_i915_gem_context_destroy){ .ctx_id = st.ctx };
}
static void p_vm_destroy(void *a) { *(struct drm_i915_gem_vm_control *)a = (struct drm_i915_gem_vm_control){ .vm_id = st.vm }; }
static void p_syncobj_destroy(void *a)
{
	*(struct drm_syncobj_destroy *)a = (struct drm_syncobj_destroy){ .handle = st.syncobj };
}

/* GEM_CREATE_EXT in the system memory region */
static struct drm_i915_gem_memory_class_instance region = { I915_MEMORY_CLASS_SYSTEM, 0 };
static struct drm_i915_gem_create_ext_memory_regions regions_ext;
static void p_create_ext(void *a)
{
	regions_ext = (struct drm_i915_gem_create_ext_memory_regions){
		.base = { .name = I915_GEM_CREATE_EXT_MEMORY_REGIONS },
		.num_regions = 1, .regions = (uintptr_t)&region };
	*(struct drm_i915_gem_create_ext *)a = (struct drm_i915_gem_create_ext){
		.size = 4096, .extensions = (uintptr_t)&regions_ext };
}

/* a context made with the VM above and an engine map (render, copy) */
static I915_DEFINE_CONTEXT_PARAM_ENGINES(engines2, 2);
static struct drm_i915_gem_context_create_ext_setparam sp_vm, sp_engines;
static void p_ctx_ext(void *a)
{
	engines2.extensions = 0;
	engines2.engines[0] = (struct i915_engine_class_instance){ I915_ENGINE_CLASS_RENDER, 0 };
	engines2.engines[1] = (struct i915_engine_class_instance){ I915_ENGINE_CLASS_COPY, 0 };
	sp_engines = (struct drm_i915_gem_context_create_ext_setparam){
		.base = { .name = I915_CONTEXT_CREATE_EXT_SETPARAM },
		.param = { .param = I915_CONTEXT_PARAM_ENGINES, .size = sizeof(engines2),
			   .value = (uintptr_t)&engines2 } };
	sp_vm = (struct drm_i915_gem_context_create_ext_setparam){
		.base = { .name = I915_CONTEXT_CREATE_EXT_SETPARAM,
			  .next_extension = (uintptr_t)&sp_engines },
		.param = { .param = I915_CONTEXT_PARAM_VM, .value = st.vm } };
	*(struct drm_i915_gem_context_create_ext *)a = (struct drm_i915_gem_context_create_ext){
		.flags = I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS,
		.extensions = (uintptr_t)&sp_vm };
}
static void d_ctx_ext(void *a) { st.ctx_engines = ((struct drm_i915_gem_context_create_ext *)a)->ctx_id; }

/* 32 relocated stores from the engine map's copy engine (index 1) */
static void p_exec_engines(void *a) { p_execbuf_to(a, 1, st.target, MAX_STORES, st.ctx_engines); }

static void p_userptr(void *a)
{
	*(struct drm_i915_gem_userptr *)a = (struct drm_i915_gem_userptr){
		.user_ptr = (uintptr_t)userptr_mem, .user_size = sizeof(userptr_mem) };
}
static void d_userptr(void *a) { st.userptr = ((struct drm_i915_gem_userptr *)a)->handle; }
static void p_exec_userptr(void *a) { p_execbuf_to(a, 0, st.userptr, MAX_STORES, st.ctx); }

/* the legacy CPU mmap, and gtsim_mmap of MMAP_OFFSET's fake offset (what
 * the shim does for a client's mmap of the device file) */
static void p_mmap(void *a)
{
	*(struct drm_i915_gem_mmap *)a = (struct drm_i915_gem_mmap){ .handle = st.batch,
								     .size = 8192 };
}
static void unmap(void *p, size_t n)
{
	CHECK_EQ(*(volatile uint32_t *)p, MI_STORE_DWORD_IMM_GEN8);   /* the batch */
	gtsim_mm_invalidate(p, n);
	munmap(p, n);
}
static void d_mmap(void *a) { unmap((void *)(uintptr_t)((struct drm_i915_gem_mmap *)a)->addr_ptr, 8192); }
static void d_mmap_offset(void *a) { st.mmap_offset = ((struct drm_i915_gem_mmap_offset *)a)->offset; }
static void *mapped;
static void p_none(void *a) { (void)a; }
static int c_mmap(struct gtsim_file *file, void *a)
{
	(void)a;
	mapped = gtsim_mmap(file, NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, st.mmap_offset);
	return mapped == MAP_FAILED ? -errno : 0;
}
static void d_c_mmap(void *a)
{
	(void)a;
	/* registered as i915's VM_PFNMAP range: USERPTR refuses it */
	struct drm_i915_gem_userptr u = { .user_ptr = (uintptr_t)mapped, .user_size = 8192,
					  .flags = I915_USERPTR_PROBE };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_USERPTR, &u), -EFAULT);
	unmap(mapped, 8192);
}

/* syncobjs: export as a sync_file and as a syncobj fd, import both, a
 * timeline fed by TRANSFER and TIMELINE_SIGNAL */
static void p_syncobj_export_sync_file(void *a)
{
	*(struct drm_syncobj_handle *)a = (struct drm_syncobj_handle){
		.handle = st.syncobj, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1 };
}
static void d_syncobj_export_sync_file(void *a) { st.sync_file = ((struct drm_syncobj_handle *)a)->fd; }
static void p_syncobj_export(void *a)
{
	*(struct drm_syncobj_handle *)a = (struct drm_syncobj_handle){ .handle = st.syncobj,
								       .fd = -1 };
}
static void d_syncobj_export(void *a) { st.syncobj_fd = ((struct drm_syncobj_handle *)a)->fd; }
static void p_syncobj_import(void *a)
{
	*(struct drm_syncobj_handle *)a = (struct drm_syncobj_handle){ .fd = st.syncobj_fd };
}
static void d_syncobj_import(void *a) { st.imported_syncobj = ((struct drm_syncobj_handle *)a)->handle; }
static void p_syncobj_import_sync_file(void *a)
{
	*(struct drm_syncobj_handle *)a = (struct drm_syncobj_handle){
		.handle = st.syncobj, .fd = st.sync_file,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE };
}
static void d_timeline(void *a) { st.timeline = ((struct drm_syncobj_create *)a)->handle; }
static void p_transfer(void *a)
{
	*(struct drm_syncobj_transfer *)a = (struct drm_syncobj_transfer){
		.src_handle = st.syncobj, .dst_handle = st.timeline, .dst_point = 3 };
}
static uint32_t tl_handle;
static uint64_t tl_point;
static void p_timeline_signal(void *a)
{
	tl_handle = st.timeline;
	tl_point = 5;
	*(struct drm_syncobj_timeline_array *)a = (struct drm_syncobj_timeline_array){
		.handles = (uintptr_t)&tl_handle, .points = (uintptr_t)&tl_point,
		.count_handles = 1 };
}
static void p_timeline_wait(void *a)
{
	tl_handle = st.timeline;
	tl_point = 5;
	*(struct drm_syncobj_timeline_wait *)a = (struct drm_syncobj_timeline_wait){
		.handles = (uintptr_t)&tl_handle, .points = (uintptr_t)&tl_point,
		.timeout_nsec = INT64_MAX, .count_handles = 1 };
}
static void p_timeline_query(void *a)
{
	p_timeline_signal(a);
	tl_point = 0;
}
static void d_timeline_query_9(void *a) { (void)a; CHECK_EQ(tl_point, 9); }

/* an execbuf waiting for the sync_file (FENCE_IN) and for the timeline's
 * point 5, and signalling its point 9 (the TIMELINE_FENCES extension) */
static struct drm_i915_gem_exec_fence tl_fences[2];
static uint64_t tl_values[2];
static struct drm_i915_gem_execbuffer_ext_timeline_fences tl_ext;
static void p_exec_timeline(void *a)
{
	p_execbuf_to(a, I915_EXEC_FENCE_IN | I915_EXEC_USE_EXTENSIONS, st.target, 1, st.ctx);
	tl_fences[0] = (struct drm_i915_gem_exec_fence){ st.timeline, I915_EXEC_FENCE_WAIT };
	tl_fences[1] = (struct drm_i915_gem_exec_fence){ st.timeline, I915_EXEC_FENCE_SIGNAL };
	tl_values[0] = 5;
	tl_values[1] = 9;
	tl_ext = (struct drm_i915_gem_execbuffer_ext_timeline_fences){
		.base = { .name = DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES },
		.fence_count = 2, .handles_ptr = (uintptr_t)tl_fences,
		.values_ptr = (uintptr_t)tl_values };
	struct drm_i915_gem_execbuffer2 *eb = a;
	eb->cliprects_ptr = (uintptr_t)&tl_ext;
	eb->rsvd2 = (uint64_t)st.sync_file;
}
static void p_ctx_engines_destroy(void *a)
{
	*(struct drm_i915_gem_context_destroy *)a = (struct drm_i915_gem_context_destroy){
		.ctx_id = st.ctx_engines };
}

/* Steps of the other file (g), which import what f exported. */
static void p_prime_import(void *a)
{
	*(struct drm_prime_handle *)a = (struct drm_prime_handle){ .fd = st.dmabuf };
}
static void d_prime_import(void *a) { st.imported = ((struct drm_prime_handle *)a)->handle; }
static void p_gem_open(void *a) { *(struct drm_gem_open *)a = (struct drm_gem_open){ .name = st.flink_name }; }
static void d_gem_open(void *a) { st.opened = ((struct drm_gem_open *)a)->handle; }

/* One step: its name, the request, prepare, done, then the options. */
#define STEP(n, r, p, d, ...) { .name = n, .request = r, .prepare = p, .done = d, __VA_ARGS__ }

static const struct step script[] = {
	STEP("GEM_CREATE target", DRM_IOCTL_I915_GEM_CREATE, p_create, d_target),
	STEP("GEM_CREATE batch", DRM_IOCTL_I915_GEM_CREATE, p_create, d_batch),
	STEP("GEM_CREATE_EXT (memory regions)", DRM_IOCTL_I915_GEM_CREATE_EXT, p_create_ext, NULL),
	STEP("GEM_CONTEXT_CREATE", DRM_IOCTL_I915_GEM_CONTEXT_CREATE, p_ctx, d_ctx),
	STEP("GEM_VM_CREATE", DRM_IOCTL_I915_GEM_VM_CREATE, p_vm, d_vm),
	STEP("CONTEXT_CREATE_EXT (VM, engines)",
	     DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, p_ctx_ext, d_ctx_ext),
	STEP("GEM_SET_TILING", DRM_IOCTL_I915_GEM_SET_TILING, p_tiling, NULL),
	STEP("GEM_MMAP_OFFSET", DRM_IOCTL_I915_GEM_MMAP_OFFSET, p_mmap_offset, d_mmap_offset),
	STEP("SYNCOBJ_CREATE", DRM_IOCTL_SYNCOBJ_CREATE, p_syncobj, d_syncobj),
	STEP("EXECBUFFER2_WR (reloc, fence out)",
	     DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, p_exec_fence_out, d_exec_fence_out,
	     .execbuf = true, .may_absorb = 2),
	STEP("gtsim_mmap (MMAP_OFFSET's offset)", 0, p_none, d_c_mmap, .call = c_mmap),
	STEP("GEM_MMAP (CPU)", DRM_IOCTL_I915_GEM_MMAP, p_mmap, d_mmap),
	STEP("GEM_WAIT", DRM_IOCTL_I915_GEM_WAIT, p_wait, NULL),
	STEP("EXECBUFFER2 (reloc, syncobj signal)",
	     DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, p_exec_syncobj, NULL,
	     .execbuf = true),
	STEP("EXECBUFFER2 (32 relocs, engine map)",
	     DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, p_exec_engines, NULL,
	     .execbuf = true, .may_absorb = 1),
	STEP("GEM_USERPTR", DRM_IOCTL_I915_GEM_USERPTR, p_userptr, d_userptr),
	STEP("EXECBUFFER2 (32 relocs into userptr)",
	     DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, p_exec_userptr, NULL,
	     .execbuf = true),
	STEP("SYNCOBJ_WAIT", DRM_IOCTL_SYNCOBJ_WAIT, p_syncobj_wait, NULL),
	STEP("SYNCOBJ_HANDLE_TO_FD (sync_file)",
	     DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, p_syncobj_export_sync_file, d_syncobj_export_sync_file,
	     .may_absorb = 1),
	STEP("SYNCOBJ_HANDLE_TO_FD",
	     DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, p_syncobj_export, d_syncobj_export, .may_absorb = 1),
	STEP("SYNCOBJ_FD_TO_HANDLE (other file)",
	     DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, p_syncobj_import, d_syncobj_import,
	     .other_file = true),
	STEP("SYNCOBJ_FD_TO_HANDLE (sync_file)",
	     DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, p_syncobj_import_sync_file, NULL),
	STEP("SYNCOBJ_CREATE timeline", DRM_IOCTL_SYNCOBJ_CREATE, p_syncobj, d_timeline),
	STEP("SYNCOBJ_TRANSFER", DRM_IOCTL_SYNCOBJ_TRANSFER, p_transfer, NULL),
	STEP("SYNCOBJ_TIMELINE_SIGNAL",
	     DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, p_timeline_signal, NULL),
	STEP("SYNCOBJ_TIMELINE_WAIT", DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, p_timeline_wait, NULL),
	STEP("EXECBUFFER2 (fence in, timeline ext)",
	     DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, p_exec_timeline, NULL,
	     .execbuf = true),
	STEP("SYNCOBJ_QUERY", DRM_IOCTL_SYNCOBJ_QUERY, p_timeline_query, d_timeline_query_9),
	STEP("PRIME_HANDLE_TO_FD", DRM_IOCTL_PRIME_HANDLE_TO_FD, p_prime_export, d_prime_export),
	STEP("GEM_FLINK", DRM_IOCTL_GEM_FLINK, p_flink, d_flink),
	STEP("PRIME_FD_TO_HANDLE (other file)",
	     DRM_IOCTL_PRIME_FD_TO_HANDLE, p_prime_import, d_prime_import,
	     .other_file = true),
	STEP("GEM_OPEN (other file)", DRM_IOCTL_GEM_OPEN, p_gem_open, d_gem_open,
	     .other_file = true),
	STEP("QUERY engine info", DRM_IOCTL_I915_QUERY, p_query, NULL),
	STEP("GEM_CLOSE", DRM_IOCTL_GEM_CLOSE, p_close_target, NULL),
	STEP("GEM_CONTEXT_DESTROY", DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, p_ctx_destroy, NULL),
	STEP("GEM_CONTEXT_DESTROY (engine map)",
	     DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, p_ctx_engines_destroy, NULL),
	STEP("GEM_VM_DESTROY", DRM_IOCTL_I915_GEM_VM_DESTROY, p_vm_destroy, NULL),
	STEP("SYNCOBJ_DESTROY", DRM_IOCTL_SYNCOBJ_DESTROY, p_syncobj_destroy, NULL),
};

/* A valid execbuf on file g: MI_STORE_DWORD_IMM of value, waited for. */
static void check_device_serves(uint32_t value)
{
	uint32_t bb = gem_create(g, 4096), t = gem_create(g, 4096);
	uint32_t dw[6] = { MI_STORE_DWORD_IMM_GEN8, 0, 0, value, MI_BATCH_BUFFER_END, 0 };
	bo_write(g, bb, 0, dw, sizeof(dw));
	struct drm_i915_gem_relocation_entry r = { .target_handle = t, .offset = 4,
		.presumed_offset = ~0ull, .read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER };
	struct drm_i915_gem_exec_object2 o[2] = { { .handle = t },
		{ .handle = bb, .relocation_count = 1, .relocs_ptr = (uintptr_t)&r } };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2 };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	struct drm_i915_gem_wait w = { .bo_handle = bb, .timeout_ns = -1 };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	CHECK_EQ(pread32(g, t, 0), value);
	struct drm_gem_close c1 = { .handle = bb }, c2 = { .handle = t };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_CLOSE, &c1), 0);
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_CLOSE, &c2), 0);
}

static unsigned total_failures;

/* The i-th dword the step's execbuf stores (0 if it did not run). */
static uint32_t exec_result(unsigned i)
{
	return st.exec_result ? st.exec_result[i] : pread32(f, st.target, 0x40 + 4 * i);
}

/* Mappings of GEM objects (memfds named gtsim-*) in /proc/self/maps: a
 * failed ioctl must not leave one. (Other mappings come and go with the
 * allocators: ASan's maps new regions on demand.) */
static int count_maps(void)
{
	FILE *m = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;
	if (!m)
		return -1;
	while (fgets(line, sizeof(line), m))
		n += strstr(line, "memfd:gtsim") != NULL;
	fclose(m);
	return n;
}

/* The attempt succeeded: what the ioctl does happened (an execbuf's
 * store landed). */
static void succeeded(const struct step *s, void *arg)
{
	if (s->done)
		s->done(arg);
	if (s->execbuf) {
		gtsim_device_idle(dev);
		for (unsigned i = 0; i < st.exec_stores; i++)
			CHECK_EQ(exec_result(i), st.value);
	}
}

static void run_step(struct gtsim_file *file, const struct step *s)
{
	union {
		uint8_t bytes[256];
		uint64_t align;
	} arg;
	unsigned enomem = 0, absorbed = 0;
	for (unsigned n = 1;; n++) {
		int fds = count_fds(), maps = count_maps();
		st.value = 0x1000 + n;
		s->prepare(arg.bytes);
		count = 0;
		fail_at = n;
		failed = false;
		armed = true;
		int r = s->call ? s->call(file, arg.bytes) : gtsim_ioctl(file, s->request, arg.bytes);
		armed = false;
		if (!failed) {
			if (r)
				fprintf(stderr, "%s: %d without an injected failure\n", s->name, r);
			CHECK_EQ(r, 0);
			succeeded(s, arg.bytes);
			printf("%-38s %2u allocations: %2u -ENOMEM, %u absorbed (the ioctl did "
			       "its work)\n", s->name, n - 1, enomem, absorbed);
			if (absorbed > s->may_absorb)
				fprintf(stderr, "%s: %u allocations failed without -ENOMEM "
					"(ALLOC_FAULTS_VERBOSE=1 shows where)\n", s->name, absorbed);
			CHECK(absorbed <= s->may_absorb);
			break;
		}
		total_failures++;
		if (r == 0) {
			/* an allocation the model can do without (a retry, a
			 * best-effort cleanup): the ioctl must then do all its work */
			absorbed++;
			if (getenv("ALLOC_FAULTS_VERBOSE")) {
				fprintf(stderr, "%s: allocation %u absorbed, at\n", s->name, n);
				backtrace_symbols_fd(fail_stack, fail_depth, 2);
			}
			succeeded(s, arg.bytes);
			continue;
		}
		enomem++;
		if (r != -ENOMEM) {
			fprintf(stderr, "%s: allocation %u failed, ioctl returned %d; at\n", s->name,
				n, r);
			backtrace_symbols_fd(fail_stack, fail_depth, 2);
		}
		CHECK_EQ(r, -ENOMEM);
		/* nothing left behind: no new descriptor (fewer: the sync_file
		 * registry closes its ends of sync_files closed before), no
		 * batch ran */
		CHECK(count_fds() <= fds);
		CHECK(count_maps() <= maps);
		if (s->execbuf) {
			gtsim_device_idle(dev);
			uint32_t v = 0;
			for (unsigned i = 0; i < st.exec_stores; i++)
				v |= exec_result(i);
			if (v) {
				fprintf(stderr, "%s: allocation %u failed, -ENOMEM, but the batch "
					"ran; at\n", s->name, n);
				backtrace_symbols_fd(fail_stack, fail_depth, 2);
			}
			CHECK_EQ(v, 0);
		}
		if (n > 10000) {
			CHECK(0);
			break;
		}
	}
	check_device_serves(0xc0ffee00u + (unsigned)(s - script));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	backtrace(fail_stack, 16);   /* loads libgcc_s now, not inside an attempt */
	setenv("GTSIM_ERROR_STATE", "/dev/null", 1);
	struct gtsim_config cfg = { .device = "bdw", .hangcheck_ms = 200 };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	g = gtsim_open(dev);
	CHECK(f && g);
	for (size_t i = 0; i < sizeof(script) / sizeof(script[0]); i++) {
		run_step(script[i].other_file ? g : f, &script[i]);
	}
	printf("%u injected allocation failures\n", total_failures);
	close(st.dmabuf);
	close(st.sync_file);
	close(st.syncobj_fd);
	gtsim_close(f);
	gtsim_close(g);
	gtsim_device_destroy(dev);
	return test_exit();
}
