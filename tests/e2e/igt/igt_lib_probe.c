/* IGT's own setup code, from Debian's libigt.so.0 (intel-gpu-tools 1.27.1,
 * the library IGT's tests are built on), run under `gtsim run`: the path
 * every i915 GEM test takes before its first subtest (igt_fixture:
 * drm_open_driver, igt_require_gem), and the library calls the GEM tests
 * make around their subtests. IGT's headers are not installed, so the
 * few functions used are declared here as libigt exports them
 * (lib/drmtest.h, lib/i915/gem.h, lib/igt_debugfs.h, lib/igt_params.h,
 * lib/sw_sync.h, lib/igt_gt.h of 1.27.1).
 *
 * It is a "simple" IGT test: an IGT assertion that fails exits 98, a
 * requirement that is not met skips with 77 (igt_core.h), and success is
 * 0 -- so before the kernel model answered the reopen through
 * /proc/self/fd and GEM_THROTTLE, igt_require_gem failed here as it did
 * in every GEM test. The oracle is IGT's library itself. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define DRIVER_INTEL (1 << 0)
#define DROP_ALL 0x3ffull   /* lib/igt_debugfs.h: every DROP_* flag */

void igt_simple_init_parse_opts(int *argc, char **argv, const char *extra_short_opts,
				const void *extra_long_opts, const char *help_str,
				void *extra_opt_handler, void *handler_data);
void igt_exit(void) __attribute__((noreturn));
int drm_open_driver(int chipset);
int drm_open_driver_master(int chipset);
void igt_require_gem(int fd);
int gem_reopen_driver(int fd);
void gem_quiescent_gpu(int fd);
uint32_t gem_create(int fd, uint64_t size);
void gem_close(int fd, uint32_t handle);
uint32_t gem_context_create(int fd);
void gem_context_destroy(int fd, uint32_t ctx);
void igt_drop_caches_set(int fd, uint64_t val);
void igt_force_gpu_reset(int fd);
bool igt_params_set(int device, const char *parameter, const char *fmt, ...);
int igt_debugfs_dir(int device);
void igt_require_sw_sync(void);
int sw_sync_timeline_create(void);
int sw_sync_timeline_create_fence(int fd, uint32_t seqno);
void sw_sync_timeline_inc(int fd, uint32_t count);

static void step(const char *what)
{
	printf("igt_lib_probe: %s ok\n", what);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	igt_simple_init_parse_opts(&argc, argv, NULL, NULL, NULL, NULL, NULL);

	int fd = drm_open_driver(DRIVER_INTEL);       /* gem_quiescent_gpu inside */
	step("drm_open_driver");
	igt_require_gem(fd);                           /* reopen, THROTTLE, params */
	step("igt_require_gem");
	int fd2 = gem_reopen_driver(fd);
	uint32_t h = gem_create(fd2, 4096);
	gem_close(fd2, h);
	close(fd2);
	step("gem_reopen_driver");
	uint32_t ctx = gem_context_create(fd);
	gem_context_destroy(fd, ctx);
	step("gem_context_create");
	igt_drop_caches_set(fd, DROP_ALL);
	step("igt_drop_caches_set(DROP_ALL)");
	int dir = igt_debugfs_dir(fd);
	if (dir < 0)
		return 98;
	close(dir);
	step("igt_debugfs_dir");
	if (!igt_params_set(fd, "enable_hangcheck", "%u", 1))
		return 98;
	step("igt_params_set");
	igt_force_gpu_reset(fd);                       /* i915_wedged, THROTTLE */
	step("igt_force_gpu_reset");
	igt_require_sw_sync();
	int tl = sw_sync_timeline_create();
	int fence = sw_sync_timeline_create_fence(tl, 1);
	sw_sync_timeline_inc(tl, 1);
	close(fence);
	close(tl);
	step("sw_sync");
	close(fd);      /* the master: now a new opener can become master */
	int master = drm_open_driver_master(DRIVER_INTEL);
	close(master);
	step("drm_open_driver_master");
	igt_exit();
}
