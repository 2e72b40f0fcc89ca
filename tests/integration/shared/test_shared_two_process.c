/* Shared-device mode, two processes on one device server (issue 14,
 * docs/shared-device.md): process A creates an object, writes a pattern
 * and flinks it; process B, forked and connected to the same server on a
 * connection of its own, opens the flink name, reads A's pattern with
 * PREAD and writes its own; A reads it back (PREAD, and through a mapping
 * of the object's dma-buf, which does not go through the server). Then B
 * submits a batch storing a value into the object with an out-fence and
 * passes the sync_file to A, which polls it and finds the value.
 * Oracles: the values the test wrote; i915's rules that flink names and
 * dma-bufs are per device (B's GEM_OPEN of A's name is A's object, and
 * B's import of A's dma-buf gives back the handle B already has for it,
 * drm_gem_prime_fd_to_handle), that a bad user pointer is -EFAULT
 * (copy_from_user) and an unknown name -ENOENT (drm_gem_open_ioctl);
 * Broadwell GT2's PCI id 0x1616 for GETPARAM CHIPSET_ID. */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fd_pass.h"
#include "gtsim/gtsim.h"
#include "gtsim/remote.h"
#include "test.h"

#define OBJ_SIZE 4096u
#define NDW (OBJ_SIZE / 4)

static uint32_t pattern(uint32_t seed, unsigned i)
{
	return seed ^ (i * 0x9e3779b9u);
}

/* A message between A and B over their socketpair, with an fd or not
 * (without it when it is not a descriptor: the peer goes on and fails). */
static void msg_send(int s, uint32_t v, int fd)
{
	struct iovec iov = { &v, sizeof(v) };
	ssize_t n = fd_pass_send(s, &iov, 1, fd);
	if (n < 0 && fd >= 0)
		n = fd_pass_send(s, &iov, 1, -1);
	CHECK_EQ(n, sizeof(v));
}

static uint32_t msg_recv(int s, int *fd)
{
	uint32_t v = 0xdeadbeef;
	int got;
	CHECK_EQ(fd_pass_recv(s, &v, sizeof(v), &got), sizeof(v));
	if (fd)
		*fd = got;
	else if (got >= 0)
		close(got);
	return v;
}

static int rw(int fd, bool write, uint32_t handle, uint32_t *buf)
{
	if (write) {
		struct drm_i915_gem_pwrite pw = { .handle = handle, .size = OBJ_SIZE,
						  .data_ptr = (uintptr_t)buf };
		return gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	}
	struct drm_i915_gem_pread pr = { .handle = handle, .size = OBJ_SIZE,
					 .data_ptr = (uintptr_t)buf };
	return gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr);
}

static unsigned count_pattern(const uint32_t *buf, uint32_t seed)
{
	unsigned ok = 0;
	for (unsigned i = 0; i < NDW; i++)
		ok += buf[i] == pattern(seed, i);
	return ok;
}

enum { SEED_A = 0xa11ce000u, SEED_B = 0xb0b00000u };

/* MI commands encoded by hand (BDW PRM vol. 2a: MI_STORE_DWORD_IMM,
 * MI_BATCH_BUFFER_END); the objects softpinned in the context's PPGTT. */
#define TARGET_VA 0x10000u
#define BATCH_VA 0x20000u
#define STORE_DW 4u
#define STORE_VALUE 0xb0b0cafeu

/* B's batch stores STORE_VALUE into dword STORE_DW of target; returns
 * the execbuf's out-fence (a sync_file), or -1. */
static int store_with_fence(int fd, uint32_t target)
{
	struct drm_i915_gem_create cr = { .size = 4096 };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &cr), 0);
	uint32_t dw[8] = { (0x20u << 23) | 2u, TARGET_VA + 4 * STORE_DW, 0, STORE_VALUE,
			   0x0au << 23, 0 };
	struct drm_i915_gem_pwrite pw = { .handle = cr.handle, .size = sizeof(dw),
					  .data_ptr = (uintptr_t)dw };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target, .offset = TARGET_VA,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = cr.handle, .offset = BATCH_VA, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)obj, .buffer_count = 2,
		.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_OUT,
	};
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	int fence = (int)(eb.rsvd2 >> 32);
	CHECK(fence >= 0);
	return fence;
}

/* Process B: every check's failure is its exit status's count. */
static int process_b(const char *path, int s)
{
	test_failures = 0;   /* its own, not A's before the fork */
	int fd = gtsim_remote_open(path, 0);
	CHECK(fd >= 0);
	if (fd < 0)
		return 1;
	/* authentication by A, the master (drm_auth.c; a no-op as root) */
	struct drm_auth auth = { 0 };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_GET_MAGIC, &auth), 0);
	msg_send(s, auth.magic, -1);
	int dmabuf;
	uint32_t name = msg_recv(s, &dmabuf);
	CHECK(dmabuf >= 0);

	struct drm_gem_open op = { .name = name };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_GEM_OPEN, &op), 0);
	CHECK_EQ(op.size, OBJ_SIZE);
	CHECK(op.handle != 0);
	static uint32_t buf[NDW];
	CHECK_EQ(rw(fd, false, op.handle, buf), 0);
	CHECK_EQ(count_pattern(buf, SEED_A), NDW);

	/* The dma-buf A exported is the object B opened by name. */
	struct drm_prime_handle imp = { .fd = dmabuf };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	CHECK_EQ(imp.handle, op.handle);
	close(dmabuf);

	/* i915's errnos across the boundary */
	struct drm_gem_open bad = { .name = name + 1000 };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_GEM_OPEN, &bad), -ENOENT);
	struct drm_i915_gem_pwrite pw = { .handle = op.handle, .size = 64, .data_ptr = 4096 };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), -EFAULT);

	for (unsigned i = 0; i < NDW; i++)
		buf[i] = pattern(SEED_B, i);
	CHECK_EQ(rw(fd, true, op.handle, buf), 0);
	msg_send(s, 1, -1);
	CHECK_EQ(msg_recv(s, NULL), 3);   /* A has read B's pattern */
	msg_send(s, 2, store_with_fence(fd, op.handle));
	close(fd);
	return test_failures;
}

/* What the shared mode does not do yet is refused, never half done
 * (serve.c), and a malformed message is refused without harm (the wire of
 * gtsim/remote.h). */
static void check_refusals(int fd, const char *path, uint32_t handle)
{
	/* GEM_MMAP as a plain ioctl message would be the server's address */
	struct drm_i915_gem_mmap mm = { .handle = handle, .size = OBJ_SIZE };
	struct gtsim_wire_req mreq = { GTSIM_WIRE_MAGIC, GTSIM_WIRE_IOCTL, DRM_IOCTL_I915_GEM_MMAP,
				       (int32_t)getpid(), sizeof(mm) };
	struct iovec miov[2] = { { &mreq, sizeof(mreq) }, { &mm, sizeof(mm) } };
	unsigned char mback[sizeof(struct gtsim_wire_rep) + sizeof(mm)];
	struct gtsim_wire_rep mrep = { 1, 0 };
	int mgot;
	CHECK_EQ(fd_pass_send(fd, miov, 2, -1), sizeof(mreq) + sizeof(mm));
	CHECK_EQ(fd_pass_recv(fd, mback, sizeof(mback), &mgot), sizeof(mback));
	memcpy(&mrep, mback, sizeof(mrep));
	CHECK_EQ(mrep.ret, -ENOTTY);
	static char page[4096] __attribute__((aligned(4096)));
	struct drm_i915_gem_userptr up = { .user_ptr = (uintptr_t)page, .user_size = 4096 };
	/* USERPTR: the server's object over this process's page (the
	 * details: tests/e2e/shim/shared_userptr.c) */
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_USERPTR, &up), 0);
	CHECK(up.handle != 0);

	int raw = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	strcpy(a.sun_path, path);
	CHECK_EQ(connect(raw, (struct sockaddr *)&a, sizeof(a)), 0);
	struct gtsim_wire_rep rep = { 1, 0 };
	int got;
	struct iovec iov = { "bad", 3 };   /* shorter than a request */
	CHECK_EQ(fd_pass_send(raw, &iov, 1, -1), 3);
	CHECK_EQ(fd_pass_recv(raw, &rep, sizeof(rep), &got), sizeof(rep));
	CHECK_EQ(rep.ret, -EINVAL);
	/* an ioctl before the connection's OPEN: no DRM file yet */
	struct drm_i915_gem_create cr = { .size = 4096 };
	struct gtsim_wire_req req = { GTSIM_WIRE_MAGIC, GTSIM_WIRE_IOCTL,
				      DRM_IOCTL_I915_GEM_CREATE, (int32_t)getpid(), sizeof(cr) };
	struct iovec two[2] = { { &req, sizeof(req) }, { &cr, sizeof(cr) } };
	CHECK_EQ(fd_pass_send(raw, two, 2, -1), sizeof(req) + sizeof(cr));
	unsigned char back[sizeof(rep) + sizeof(cr)];
	CHECK_EQ(fd_pass_recv(raw, back, sizeof(back), &got), sizeof(back));
	memcpy(&rep, back, sizeof(rep));
	CHECK_EQ(rep.ret, -EBADF);
	close(raw);
}

/* A client that dies holding an object: its connection's close is its DRM
 * file's close, so the object's last handle goes and with it the flink
 * name (drm_gem_object_handle_free): A's GEM_OPEN of it becomes -ENOENT.
 * In i915 that is done when the exit is; here once the server has seen
 * the connection close, so A polls for it (2 s at most). */
static void check_client_death(int fd, const char *path)
{
	int sp[2];
	CHECK_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp), 0);
	fflush(NULL);
	pid_t c = fork();
	if (c == 0) {
		close(sp[0]);
		close(fd);
		int cfd = gtsim_remote_open(path, 0);
		struct drm_i915_gem_create cr = { .size = 4096 };
		struct drm_gem_flink fl = { 0 };
		if (cfd >= 0 && !gtsim_remote_ioctl(cfd, DRM_IOCTL_I915_GEM_CREATE, &cr)) {
			fl.handle = cr.handle;
			gtsim_remote_ioctl(cfd, DRM_IOCTL_GEM_FLINK, &fl);
		}
		msg_send(sp[1], fl.name, -1);
		_exit(0);   /* no GEM_CLOSE, no close of the connection */
	}
	close(sp[1]);
	uint32_t name = msg_recv(sp[0], NULL);
	CHECK(name != 0);
	int st;
	CHECK_EQ(waitpid(c, &st, 0), c);
	close(sp[0]);
	int ret = 0;
	for (int i = 0; i < 200; i++) {
		struct drm_gem_open op = { .name = name };
		ret = gtsim_remote_ioctl(fd, DRM_IOCTL_GEM_OPEN, &op);
		if (ret)
			break;
		struct drm_gem_close cl = { .handle = op.handle };
		gtsim_remote_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
		usleep(10000);
	}
	CHECK_EQ(ret, -ENOENT);
}

static pid_t start_server(const char *path)
{
	int l = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	strcpy(a.sun_path, path);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 8))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		struct gtsim_config cfg = { .device = "bdw" };
		struct gtsim_device *dev = gtsim_device_create(&cfg);
		int ret = dev ? gtsim_server_run(dev, l) : -ENODEV;
		gtsim_device_destroy(dev);
		exit(ret ? 1 : 0);   /* exit: a sanitizer build checks the server for leaks */
	}
	close(l);
	return pid;
}

int main(void)
{
	char dir[] = "/tmp/gtsim-shared-XXXXXX";
	if (!mkdtemp(dir))
		test_skip("no temporary directory");
	char path[64];
	snprintf(path, sizeof(path), "%s/dev", dir);
	pid_t server = start_server(path);
	CHECK(server > 0);
	if (server <= 0)
		return test_exit();

	int fd = gtsim_remote_open(path, 0);
	CHECK(fd >= 0);
	if (fd < 0) {
		kill(server, SIGKILL);
		return test_exit();
	}
	int chip = 0;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &chip };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp), 0);
	CHECK_EQ(chip, 0x1616);
	gp.value = (int *)8;   /* a pointer the server cannot write in A */
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp), -EFAULT);

	struct drm_i915_gem_create cr = { .size = OBJ_SIZE };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &cr), 0);
	check_refusals(fd, path, cr.handle);
	static uint32_t buf[NDW];
	for (unsigned i = 0; i < NDW; i++)
		buf[i] = pattern(SEED_A, i);
	CHECK_EQ(rw(fd, true, cr.handle, buf), 0);
	/* GEM_MMAP (gtsim_remote_ioctl asks for the object's memory and maps
	 * it here): the pattern PWRITE put there */
	struct drm_i915_gem_mmap mm = { .handle = cr.handle, .size = OBJ_SIZE };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), 0);
	if (mm.addr_ptr) {
		CHECK_EQ(count_pattern((const uint32_t *)(uintptr_t)mm.addr_ptr, SEED_A), NDW);
		munmap((void *)(uintptr_t)mm.addr_ptr, OBJ_SIZE);
	}
	struct drm_gem_flink fl = { .handle = cr.handle };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_GEM_FLINK, &fl), 0);
	CHECK(fl.name != 0);
	struct drm_prime_handle ex = { .handle = cr.handle, .flags = DRM_CLOEXEC | DRM_RDWR };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex), 0);
	CHECK(ex.fd >= 0);

	int sp[2];
	CHECK_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp), 0);
	fflush(NULL);
	pid_t b = fork();
	if (b == 0) {
		close(sp[0]);
		close(fd);
		_exit(process_b(path, sp[1]) ? 1 : 0);
	}
	close(sp[1]);
	struct drm_auth auth = { .magic = msg_recv(sp[0], NULL) };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_AUTH_MAGIC, &auth), 0);
	msg_send(sp[0], fl.name, ex.fd);
	CHECK_EQ(msg_recv(sp[0], NULL), 1);   /* B wrote its pattern */
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(rw(fd, false, cr.handle, buf), 0);
	CHECK_EQ(count_pattern(buf, SEED_B), NDW);
	msg_send(sp[0], 3, -1);

	/* B's batch and its out-fence, passed on to A: a sync_file that
	 * polls readable once B's store landed (sync_file_poll). */
	int fence;
	CHECK_EQ(msg_recv(sp[0], &fence), 2);
	CHECK(fence >= 0);
	if (fence >= 0) {
		struct pollfd pfd = { .fd = fence, .events = POLLIN };
		CHECK_EQ(poll(&pfd, 1, 20000), 1);
		CHECK(pfd.revents & POLLIN);
		close(fence);
	}
	/* i915_gem_wait_ioctl: 0 once the object is idle, which it is as
	 * soon as its out-fence's sync file polls readable (i915's
	 * dma_fence_signal sets the signaled bit before any callback): a
	 * timeout of 0 must not see it busy (fence_is_done) */
	struct drm_i915_gem_wait w = { .bo_handle = cr.handle, .timeout_ns = 0 };
	CHECK_EQ(gtsim_remote_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	CHECK_EQ(rw(fd, false, cr.handle, buf), 0);
	CHECK_EQ(count_pattern(buf, SEED_B), NDW - 1);
	CHECK_EQ(buf[STORE_DW], STORE_VALUE);
	uint32_t *map = mmap(NULL, OBJ_SIZE, PROT_READ, MAP_SHARED, ex.fd, 0);
	CHECK(map != MAP_FAILED);
	if (map != MAP_FAILED) {
		CHECK_EQ(count_pattern(map, SEED_B), NDW - 1);
		CHECK_EQ(map[STORE_DW], STORE_VALUE);
		munmap(map, OBJ_SIZE);
	}

	int st = -1;
	CHECK_EQ(waitpid(b, &st, 0), b);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(ex.fd);
	check_client_death(fd, path);
	close(fd);
	/* The last client gone, the server ends by itself. */
	CHECK_EQ(waitpid(server, &st, 0), server);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	unlink(path);
	rmdir(dir);
	return test_exit();
}
