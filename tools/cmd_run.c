/* gtsim run: runs an unmodified program with gtsim as its GPU, by
 * preloading the device interposer (src/shim, libgtsim-shim.so). */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "common/devinfo.h"
#include "common/fd_pass.h"
#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "gtsim/remote.h"

#define SHIM_NAME "libgtsim-shim.so"

#if defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#else
#define MULTIARCH ""
#endif

static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* The shim next to this executable: the build tree keeps it in
 * <build>/src/shim/, an installation in <prefix>/lib[/<multiarch>]/gtsim/.
 * GTSIM_SHIM names it explicitly. */
static int find_shim(char *out, size_t size)
{
	const char *env = getenv("GTSIM_SHIM");
	if (env && *env) {
		snprintf(out, size, "%s", env);
		return readable(out) ? 0 : -1;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	static const char *const candidates[] = {
		"../src/shim/", "../lib/" MULTIARCH "/gtsim/", "../lib/gtsim/",
		"../lib64/gtsim/",
	};
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		char path[PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s/%s%s", exe, candidates[i], SHIM_NAME);
		if (readable(path) && realpath(path, out))
			return 0;
	}
	return -1;
}

/* An AddressSanitizer build of gtsim has an ASan build of the shim, whose
 * runtime must be the first library a program loads. */
static int find_asan_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "/libasan.so")) {
		snprintf(data, PATH_MAX, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: gtsim run [--trace=CATS] [--device=bdw|skl] [--sync] [--shared] [--vgem] "
			"[--] PROGRAM [ARGS...]\n");
}

/* --shared (docs/shared-device.md): this process becomes the device
 * server of the run and the program runs in a child, so every process
 * under it (forks, execs) reaches the one device through GTSIM_SERVER; the
 * server is their ancestor, which Yama's ptrace scope 1 lets read their
 * memory. It serves until the program has exited and no client is left,
 * and exits as the program did. Returns in the child (to exec the
 * program), or -1 when the server could not start. */
static pid_t child;

static void forward_signal(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static int run_shared(void)
{
	/* an abstract socket: a killed server leaves nothing behind */
	char path[64];
	unsigned rnd = 0;
	if (getentropy(&rnd, sizeof(rnd)))
		rnd = (unsigned)getpid() * 2654435761u;
	snprintf(path, sizeof(path), "@gtsim-server-%d-%08x", (int)getpid(), rnd);
	struct sockaddr_un a;
	socklen_t alen = fd_pass_addr(path, &a);
	int l = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (l < 0 || !alen || bind(l, (struct sockaddr *)&a, alen) || listen(l, 64)) {
		fprintf(stderr, "gtsim run --shared: cannot listen at %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	setenv("GTSIM_SERVER", path, 1);
	fflush(NULL);
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0)
		return 0;
	struct sigaction sa = { .sa_handler = forward_signal, .sa_flags = SA_RESTART };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	int end = (int)syscall(SYS_pidfd_open, child, 0);
	struct gtsim_device *dev = gtsim_device_create(NULL);
	int ret = dev && end >= 0 ? gtsim_server_run_until(dev, l, end) : -ENODEV;
	if (ret)
		fprintf(stderr, "gtsim run --shared: the device server failed: %s\n", strerror(-ret));
	int status = 0;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	gtsim_device_destroy(dev);
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

static int run(int argc, char **argv)
{
	bool shared = false;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strncmp(a, "--trace=", 8)) {
			if (trace_set(a + 8) < 0)
				return 2;
			setenv("GTSIM_TRACE", a + 8, 1);
		} else if (!strncmp(a, "--device=", 9)) {
			if (!devinfo_lookup(a + 9)) {
				fprintf(stderr, "gtsim run: unknown device '%s' (bdw, skl)\n", a + 9);
				return 2;
			}
			setenv("GTSIM_DEVICE", a + 9, 1);
		} else if (!strcmp(a, "--sync")) {
			setenv("GTSIM_SYNC", "1", 1);
		} else if (!strcmp(a, "--shared")) {
			shared = true;
		} else if (!strcmp(a, "--vgem")) {
			setenv("GTSIM_VGEM", "1", 1);   /* vgem's nodes too (src/shim/devnode.c) */
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return 0;
		} else if (a[0] == '-') {
			fprintf(stderr, "gtsim run: unknown option '%s'\n", a);
			usage();
			return 2;
		} else {
			break;
		}
	}
	if (i >= argc) {
		usage();
		return 2;
	}

	char shim[PATH_MAX];
	if (find_shim(shim, sizeof(shim)) < 0) {
		fprintf(stderr, "gtsim run: cannot find %s next to the gtsim executable "
				"(set GTSIM_SHIM)\n", SHIM_NAME);
		return 127;
	}
	char asan[PATH_MAX] = "";
	dl_iterate_phdr(find_asan_runtime, asan);

	const char *old = getenv("LD_PRELOAD");
	size_t len = strlen(asan) + strlen(shim) + (old ? strlen(old) : 0) + 4;
	char *preload = malloc(len);
	if (!preload)
		return 1;
	snprintf(preload, len, "%s%s%s%s%s", asan, asan[0] ? ":" : "", shim,
		 old && *old ? ":" : "", old && *old ? old : "");
	setenv("LD_PRELOAD", preload, 1);
	free(preload);
	if (asan[0]) {
		const char *opts = getenv("ASAN_OPTIONS");
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s%sverify_asan_link_order=0", opts ? opts : "",
			 opts && *opts ? ":" : "");
		setenv("ASAN_OPTIONS", buf, 1);
	}

	/* an enclosing shared run's server serves this one too */
	const char *server = getenv("GTSIM_SERVER");
	if (shared && !(server && *server)) {
		int r = run_shared();
		if (r)
			return r < 0 ? 1 : r;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "gtsim run: cannot run %s: %s\n", argv[i], strerror(errno));
	return 127;
}

const struct gtsim_command command_run = {
	.name = "run",
	.usage = "[--trace=CATS] [--device=bdw] [--sync] [--shared] [--vgem] [--] PROGRAM ARGS: "
		 "run a program on gtsim (preloads the device interposer; --shared: one "
		 "device server for every process of the run, GTSIM_SERVER)",
	.run = run,
};
