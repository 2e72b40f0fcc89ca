/* A client killed mid-execbuf and mid-wait (issue 16).
 *
 * What "the device keeps serving others" means here: gtsim's device lives
 * in the client's process (the shim makes one per process; there is no
 * shared device between processes yet). A SIGKILL ends the device with
 * its client: its other threads and files die with it, GPU memory is
 * memfds that vanish with the process. What a killed client can leave
 * behind is on the file system, shared with every other client: the
 * shim's sysfs/debugfs tree (TMPDIR/gtsim-shim-PID-*, removed at exit, so
 * not after a SIGKILL), its error state (/tmp/gtsim-error-PID, kept as
 * i915 keeps its last error state, pruned to the newest 16 when another
 * process writes one), and anything in /dev/shm.
 *
 * The test (this program as driver; it runs itself under `gtsim run` as
 * the clients):
 *  - a victim opens /dev/dri/renderD128, submits a batch that never ends
 *    (MI_SEMAPHORE_WAIT on a dword that never matches; hangcheck off, so
 *    only the kill ends it) and then either waits for it in GEM_WAIT from a
 *    second thread while its main thread sits in SYNCOBJ_WAIT ("wait"), or
 *    submits relocated batches behind it in a loop on two files until
 *    the ring fills and execbuf blocks ("execbuf"); it is killed with
 *    SIGKILL while so blocked (its wchan-free state is known from its own
 *    report on a pipe: "ready" is written just before the blocking call);
 *  - meanwhile another client ("serve", started before the kill) submits
 *    stores in a loop and checks each value; it goes on after the kill and
 *    exits 0; its worst latency is reported;
 *  - after the kill, a new client ("serve" once) runs, and the killed
 *    client's shim tree is gone (the new client's shim removed it when it
 *    made its own, at its first sysfs access, as libdrm's drmGetDevice
 *    makes one: the owner is dead); /dev/shm holds no gtsim file before
 *    or after. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <drm.h>
#include <i915_drm.h>

#include "test.h"

/* MI commands encoded by hand (BDW PRM vol. 2a) */
#define MI_BATCH_BUFFER_END (0x0au << 23)
#define MI_STORE_DWORD_IMM_GEN8 ((0x20u << 23) | 2u)
#define MI_SEMAPHORE_WAIT_GEN8 ((0x1cu << 23) | 2u)
#define MI_SEMAPHORE_POLL (1u << 15)
#define MI_SEMAPHORE_SAD_EQ_SDD (4u << 12)

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint32_t gem_create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c))
		exit(20);
	return c.handle;
}

static void gem_write(int fd, uint32_t h, const void *p, uint64_t n)
{
	struct drm_i915_gem_pwrite w = { .handle = h, .size = n, .data_ptr = (uintptr_t)p };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &w))
		exit(21);
}

static uint32_t gem_read32(int fd, uint32_t h, uint64_t off)
{
	uint32_t v = 0;
	struct drm_i915_gem_pread r = { .handle = h, .offset = off, .size = 4,
					.data_ptr = (uintptr_t)&v };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &r))
		exit(22);
	return v;
}

static int gem_wait(int fd, uint32_t h, int64_t ns)
{
	struct drm_i915_gem_wait w = { .bo_handle = h, .timeout_ns = ns };
	return ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w) ? -errno : 0;
}

/* A batch of one relocated MI_STORE_DWORD_IMM of value into t at 0. */
static int exec_store(int fd, uint32_t bb, uint32_t t, uint32_t value, uint64_t flags)
{
	uint32_t dw[6] = { MI_STORE_DWORD_IMM_GEN8, 0, 0, value, MI_BATCH_BUFFER_END, 0 };
	gem_write(fd, bb, dw, sizeof(dw));
	struct drm_i915_gem_relocation_entry r = { .target_handle = t, .offset = 4,
		.presumed_offset = ~0ull, .read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER };
	struct drm_i915_gem_exec_object2 o[2] = { { .handle = t },
		{ .handle = bb, .relocation_count = 1, .relocs_ptr = (uintptr_t)&r } };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2,
					       .flags = flags };
	return ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ? -errno : 0;
}

static int open_render(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		exit(23);
	return fd;
}

/* --- the clients (under gtsim run) --- */

static int vfd;
static uint32_t hang_bb;

static void *waiter(void *arg)
{
	(void)arg;
	gem_wait(vfd, hang_bb, -1);   /* never returns: the kill ends it */
	return NULL;
}

static int victim(const char *mode)
{
	/* the hung batch ends only with the kill (as IGT turns it off) */
	int p = open("/sys/module/i915/parameters/enable_hangcheck", O_WRONLY);
	if (p < 0 || write(p, "0", 1) != 1)
		return 27;
	close(p);
	vfd = open_render();
	int fd2 = open_render();
	uint32_t sema = gem_create(vfd, 4096);
	hang_bb = gem_create(vfd, 4096);
	uint32_t dw[8] = { MI_SEMAPHORE_WAIT_GEN8 | MI_SEMAPHORE_POLL | MI_SEMAPHORE_SAD_EQ_SDD,
			   1, 0, 0, MI_BATCH_BUFFER_END, 0 };
	gem_write(vfd, hang_bb, dw, sizeof(dw));
	struct drm_i915_gem_relocation_entry r = { .target_handle = sema, .offset = 8,
		.presumed_offset = ~0ull, .read_domains = I915_GEM_DOMAIN_RENDER };
	struct drm_i915_gem_exec_object2 o[2] = { { .handle = sema },
		{ .handle = hang_bb, .relocation_count = 1, .relocs_ptr = (uintptr_t)&r } };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2 };
	if (ioctl(vfd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb))
		return 24;
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (!strcmp(mode, "wait")) {
		/* a second blocking wait: a syncobj nothing will signal */
		struct drm_syncobj_create c = { 0 };
		if (ioctl(vfd, DRM_IOCTL_SYNCOBJ_CREATE, &c))
			return 25;
		struct drm_syncobj_wait w = { .handles = (uintptr_t)&c.handle, .count_handles = 1,
					      .timeout_nsec = INT64_MAX,
					      .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
		ioctl(vfd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
		return 26;   /* not reached: killed */
	}
	/* execbuf: relocated stores behind the hung batch, on both files,
	 * until the ring is full and execbuf blocks for space */
	uint32_t bb1 = gem_create(vfd, 4096), t1 = gem_create(vfd, 4096);
	uint32_t bb2 = gem_create(fd2, 4096), t2 = gem_create(fd2, 4096);
	for (uint32_t i = 0;; i++) {
		exec_store(vfd, bb1, t1, i, 0);
		exec_store(fd2, bb2, t2, i, 0);
	}
}

/* Stores in a loop for `seconds` (0: one), each checked. Prints the worst
 * latency. */
static int serve(double seconds)
{
	/* what libdrm's drmGetDevice does first: read the device's sysfs
	 * (the shim's tree is made then, and dead clients' trees swept) */
	char buf[64];
	int p = open("/sys/module/i915/parameters/enable_hangcheck", O_RDONLY);
	if (p < 0 || read(p, buf, sizeof(buf)) <= 0)
		return 32;
	close(p);
	int fd = open_render();
	uint32_t bb = gem_create(fd, 4096), t = gem_create(fd, 4096);
	double end = now_ms() + seconds * 1e3, worst = 0;
	unsigned n = 0;
	do {
		double t0 = now_ms();
		uint32_t v = 0x5e000000u + n;
		if (exec_store(fd, bb, t, v, 0) || gem_wait(fd, bb, 10ll * 1000000000))
			return 30;
		if (gem_read32(fd, t, 0) != v)
			return 31;
		double dt = now_ms() - t0;
		worst = dt > worst ? dt : worst;
		n++;
	} while (now_ms() < end);
	printf("served %u batches, worst latency %.1f ms\n", n, worst);
	return 0;
}

/* --- the driver --- */

static const char *gtsim, *self;
static char tmpdir[64];

/* Starts `gtsim run -- self args...`; its stdout on *out. */
static pid_t start(const char *role, const char *arg, FILE **out)
{
	int p[2];
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl(gtsim, gtsim, "run", "--", self, role, arg, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	*out = fdopen(p[0], "r");
	return pid;
}

static int count_trees(long pid)
{
	DIR *d = opendir(tmpdir);
	int n = 0;
	struct dirent *de;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "gtsim-shim-%ld-", pid);
	while (d && (de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

/* gtsim's files in /dev/shm but the sysfs trees of processes without
 * TMPDIR (tests running beside this one; the victim's tree is in
 * tmpdir, counted by count_trees) */
static int count_shm(void)
{
	DIR *d = opendir("/dev/shm");
	int n = 0;
	struct dirent *de;
	while (d && (de = readdir(d)))
		n += !strncmp(de->d_name, "gtsim", 5) && strncmp(de->d_name, "gtsim-shim-", 11);
	if (d)
		closedir(d);
	return n;
}

static int wait_status(pid_t pid)
{
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

static void kill_case(const char *mode)
{
	int shm = count_shm();
	FILE *sv_out, *v_out;
	pid_t sv = start("serve", "3", &sv_out);
	pid_t v = start("victim", mode, &v_out);
	int vpid = 0;
	char line[128];
	CHECK(fgets(line, sizeof(line), v_out) != NULL);
	CHECK_EQ(sscanf(line, "ready %d", &vpid), 1);
	usleep(300 * 1000);   /* into the blocking call (execbuf: the ring fills) */
	/* its main thread blocked in the ioctl: sleeping, not running. The
	 * interruptible waits wake at least every 100 ms to look at the fence
	 * (kernel/sync/fence.c), so one sample may catch it running: it must
	 * be seen asleep within 50 samples 10 ms apart (a thread spinning in
	 * the call never is). */
	char path[64], state = '?';
	snprintf(path, sizeof(path), "/proc/%d/stat", vpid);
	for (int tries = 0; tries < 50 && state != 'S'; tries++) {
		char stat[256] = "";
		FILE *sf = fopen(path, "r");
		if (sf && fgets(stat, sizeof(stat), sf) && strrchr(stat, ')'))
			state = strrchr(stat, ')')[2];
		if (sf)
			fclose(sf);
		if (state != 'S')
			usleep(10 * 1000);
	}
	printf("%s: victim's main thread state %c before the kill\n", mode, state);
	CHECK_EQ(state, 'S');
	double t0 = now_ms();
	CHECK_EQ(kill(vpid, SIGKILL), 0);
	int st = wait_status(v);
	printf("%s: victim %d killed (status 0x%x) in %.1f ms\n", mode, vpid, st, now_ms() - t0);
	CHECK(WIFSIGNALED(st) ? WTERMSIG(st) == SIGKILL
			      : WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGKILL);
	fclose(v_out);
	/* the client running beside it went on */
	st = wait_status(sv);
	if (fgets(line, sizeof(line), sv_out))
		printf("%s: beside it, %s", mode, line);
	fclose(sv_out);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* SIGKILL skips the shim's atexit: its tree stays until a new client */
	int left = count_trees(vpid);
	printf("%s: shim trees of the killed client after the kill: %d\n", mode, left);
	FILE *n_out;
	pid_t n = start("serve", "0", &n_out);
	st = wait_status(n);
	fclose(n_out);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(count_trees(vpid), 0);
	CHECK_EQ(count_shm(), shm);
}

static void remove_tmpdir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "victim"))
		return victim(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "serve"))
		return serve(atof(argv[2]));
	if (argc < 2)
		test_skip("usage: killed_client GTSIM");
	setvbuf(stdout, NULL, _IONBF, 0);
	gtsim = argv[1];
	static char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		test_skip("no /proc/self/exe");
	exe[len] = 0;
	self = exe;
	/* a TMPDIR of its own: the shim trees counted are this test's */
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/gtsim-killed-XXXXXX");
	if (!mkdtemp(tmpdir))
		test_skip("mkdtemp failed");
	setenv("TMPDIR", tmpdir, 1);
	kill_case("wait");
	kill_case("execbuf");
	remove_tmpdir();
	return test_exit();
}
