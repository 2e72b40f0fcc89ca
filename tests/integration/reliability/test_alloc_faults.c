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
	int dmabuf;
	uint32_t value;                 /* what the next execbuf stores */
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
	bool execbuf;                  /* its batch stores st.value into st.target */
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

/* the batch: MI_STORE_DWORD_IMM of st.value into the target at 0x40,
 * its address relocated */
static struct drm_i915_gem_relocation_entry reloc;
static struct drm_i915_gem_exec_object2 objs[2];
static struct drm_i915_gem_exec_fence fence;

static void p_execbuf(void *a, uint64_t flags, bool with_fence)
{
	uint32_t bb[6] = { MI_STORE_DWORD_IMM_GEN8, 0, 0, st.value, MI_BATCH_BUFFER_END, 0 };
	bo_write(f, st.batch, 0, bb, sizeof(bb));
	const uint32_t zero = 0;
	bo_write(f, st.target, 0x40, &zero, 4);
	reloc = (struct drm_i915_gem_relocation_entry){
		.target_handle = st.target, .offset = 4, .delta = 0x40,
		.presumed_offset = ~0ull,   /* never right: always relocated */
		.read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER };
	objs[0] = (struct drm_i915_gem_exec_object2){ .handle = st.target };
	objs[1] = (struct drm_i915_gem_exec_object2){ .handle = st.batch, .relocation_count = 1,
						      .relocs_ptr = (uintptr_t)&reloc };
	fence = (struct drm_i915_gem_exec_fence){ .handle = st.syncobj,
						  .flags = I915_EXEC_FENCE_SIGNAL };
	*(struct drm_i915_gem_execbuffer2 *)a = (struct drm_i915_gem_execbuffer2){
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 2, .flags = flags,
		.rsvd1 = st.ctx,
		.cliprects_ptr = with_fence ? (uintptr_t)&fence : 0,
		.num_cliprects = with_fence ? 1 : 0 };
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

static const struct step script[] = {
	{ "GEM_CREATE target", DRM_IOCTL_I915_GEM_CREATE, p_create, d_target, false },
	{ "GEM_CREATE batch", DRM_IOCTL_I915_GEM_CREATE, p_create, d_batch, false },
	{ "GEM_CONTEXT_CREATE", DRM_IOCTL_I915_GEM_CONTEXT_CREATE, p_ctx, d_ctx, false },
	{ "GEM_VM_CREATE", DRM_IOCTL_I915_GEM_VM_CREATE, p_vm, d_vm, false },
	{ "GEM_SET_TILING", DRM_IOCTL_I915_GEM_SET_TILING, p_tiling, NULL, false },
	{ "GEM_MMAP_OFFSET", DRM_IOCTL_I915_GEM_MMAP_OFFSET, p_mmap_offset, NULL, false },
	{ "SYNCOBJ_CREATE", DRM_IOCTL_SYNCOBJ_CREATE, p_syncobj, d_syncobj, false },
	{ "EXECBUFFER2_WR (reloc, fence out)", DRM_IOCTL_I915_GEM_EXECBUFFER2_WR,
	  p_exec_fence_out, d_exec_fence_out, true },
	{ "GEM_WAIT", DRM_IOCTL_I915_GEM_WAIT, p_wait, NULL, false },
	{ "EXECBUFFER2 (reloc, syncobj signal)", DRM_IOCTL_I915_GEM_EXECBUFFER2_WR,
	  p_exec_syncobj, NULL, true },
	{ "SYNCOBJ_WAIT", DRM_IOCTL_SYNCOBJ_WAIT, p_syncobj_wait, NULL, false },
	{ "PRIME_HANDLE_TO_FD", DRM_IOCTL_PRIME_HANDLE_TO_FD, p_prime_export, d_prime_export,
	  false },
	{ "GEM_FLINK", DRM_IOCTL_GEM_FLINK, p_flink, d_flink, false },
	{ "QUERY engine info", DRM_IOCTL_I915_QUERY, p_query, NULL, false },
	{ "GEM_CLOSE", DRM_IOCTL_GEM_CLOSE, p_close_target, NULL, false },
	{ "GEM_CONTEXT_DESTROY", DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, p_ctx_destroy, NULL, false },
	{ "GEM_VM_DESTROY", DRM_IOCTL_I915_GEM_VM_DESTROY, p_vm_destroy, NULL, false },
	{ "SYNCOBJ_DESTROY", DRM_IOCTL_SYNCOBJ_DESTROY, p_syncobj_destroy, NULL, false },
};

/* Steps of the other file (g), which import what f exported. */
static void p_prime_import(void *a)
{
	*(struct drm_prime_handle *)a = (struct drm_prime_handle){ .fd = st.dmabuf };
}
static void d_prime_import(void *a) { st.imported = ((struct drm_prime_handle *)a)->handle; }
static void p_gem_open(void *a) { *(struct drm_gem_open *)a = (struct drm_gem_open){ .name = st.flink_name }; }
static void d_gem_open(void *a) { st.opened = ((struct drm_gem_open *)a)->handle; }

static const struct step other[] = {
	{ "PRIME_FD_TO_HANDLE", DRM_IOCTL_PRIME_FD_TO_HANDLE, p_prime_import, d_prime_import, false },
	{ "GEM_OPEN", DRM_IOCTL_GEM_OPEN, p_gem_open, d_gem_open, false },
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

/* The attempt succeeded: what the ioctl does happened (an execbuf's
 * store landed). */
static void succeeded(const struct step *s, void *arg)
{
	if (s->done)
		s->done(arg);
	if (s->execbuf) {
		gtsim_device_idle(dev);
		CHECK_EQ(pread32(f, st.target, 0x40), st.value);
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
		int fds = count_fds();
		st.value = 0x1000 + n;
		s->prepare(arg.bytes);
		count = 0;
		fail_at = n;
		failed = false;
		armed = true;
		int r = gtsim_ioctl(file, s->request, arg.bytes);
		armed = false;
		if (!failed) {
			if (r)
				fprintf(stderr, "%s: %d without an injected failure\n", s->name, r);
			CHECK_EQ(r, 0);
			succeeded(s, arg.bytes);
			printf("%-38s %2u allocations: %2u -ENOMEM, %u absorbed (the ioctl did "
			       "its work)\n", s->name, n - 1, enomem, absorbed);
			break;
		}
		total_failures++;
		if (r == 0) {
			/* an allocation the model can do without (a retry, a
			 * best-effort cleanup): the ioctl must then do all its work */
			absorbed++;
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
		if (s->execbuf) {
			gtsim_device_idle(dev);
			uint32_t v = pread32(f, st.target, 0x40);
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
	setenv("GTSIM_ERROR_STATE", "/dev/null", 1);
	struct gtsim_config cfg = { .device = "bdw", .hangcheck_ms = 200 };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	g = gtsim_open(dev);
	CHECK(f && g);
	for (size_t i = 0; i < sizeof(script) / sizeof(script[0]); i++) {
		run_step(f, &script[i]);
		if (!strcmp(script[i].name, "GEM_FLINK"))
			for (size_t k = 0; k < sizeof(other) / sizeof(other[0]); k++)
				run_step(g, &other[k]);
	}
	printf("%u injected allocation failures\n", total_failures);
	close(st.dmabuf);
	gtsim_close(f);
	gtsim_close(g);
	gtsim_device_destroy(dev);
	return test_exit();
}
