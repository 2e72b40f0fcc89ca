/* A hang storm across processes leaves a bounded number of files
 * (issue 16). CLIENTS processes run one after another, each with a device
 * of its own (hangcheck 20 ms, as the shim makes one per process), each
 * submitting hanging batches in its default context: a batch jumping to
 * its own start (MI_BATCH_BUFFER_START) and MI_SEMAPHORE_WAIT on a dword
 * that never matches, in turn. By Linux 6.1's rules (context_mark_guilty)
 * the context is banned at its third hang: the fourth execbuf is -EIO.
 * The processes share a TMPDIR of this test's own, the trace (category
 * hang, GTSIM_TRACE_FILE appended by every process) and nothing else.
 * Counted afterwards:
 *  - error-state files (gtsim-error-<pid> in TMPDIR): exactly 16
 *    (KEPT: i915 keeps one per device; gtsim keeps the
 *    16 newest processes' files), those of the 16 last clients, each
 *    naming a GPU hang;
 *  - the trace: one "hangcheck: no progress" line per hang, 3 x CLIENTS
 *    (the ban stops the fourth), and a bounded size per hang (< 2 KB). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/trace.h"
#include "integration/reliability/served.h"

#define CLIENTS 24
#define HANGS 3
#define KEPT 16              /* error-state files kept (docs/kernel.md) */
#define STATE_MAX (8l << 20) /* bytes in one (docs/execbuf.md) */
#define PIN_BATCH 0x200000ull
#define PIN_SEMA 0x400000ull

/* One client: HANGS hangs, then a refused execbuf. Exit status 0 when all
 * went as Linux 6.1 says. */
static int client(void)
{
	trace_init_from_env();   /* what gtsim run and the shim do */
	struct gtsim_device *dev = eb_device(0, 20, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t bb[2] = { eb_create(f, 4096), eb_create(f, 4096) }, sema = eb_create(f, 4096);
	const uint32_t loop[4] = { MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT,
				   (uint32_t)PIN_BATCH, (uint32_t)(PIN_BATCH >> 32), MI_NOOP };
	uint32_t wait[6];
	unsigned n = emit_semaphore_wait(wait, PIN_SEMA, 1);
	wait[n++] = MI_BATCH_BUFFER_END;
	wait[n++] = MI_NOOP;
	if (eb_write(f, bb[0], 0, loop, sizeof(loop)) || eb_write(f, bb[1], 0, wait, sizeof(wait)))
		return 2;
	for (unsigned i = 0; i <= HANGS; i++) {
		struct drm_i915_gem_exec_object2 o[2] = {
			{ .handle = sema, .offset = PIN_SEMA, .flags = EXEC_OBJECT_PINNED },
			{ .handle = bb[i % 2], .offset = PIN_BATCH, .flags = EXEC_OBJECT_PINNED } };
		int r = eb_exec(f, o, 2, 0, 0);
		if (i == HANGS)
			return r == -EIO ? 0 : 3;   /* the banned context */
		if (r || eb_wait(f, bb[i % 2], 10ll * 1000000000))
			return 4;
	}
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return 5;
}

static unsigned count_lines(const char *path, const char *needle, long *bytes)
{
	FILE *f = fopen(path, "r");
	unsigned n = 0;
	char line[2048];
	*bytes = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		*bytes += (long)strlen(line);
		n += strstr(line, needle) != NULL;
	}
	fclose(f);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/gtsim-hang-files-XXXXXX";
	if (!mkdtemp(dir))
		test_skip("cannot create a temporary folder");
	char trace[sizeof(dir) + 16];
	snprintf(trace, sizeof(trace), "%s/trace", dir);
	setenv("TMPDIR", dir, 1);
	unsetenv("GTSIM_ERROR_STATE");
	setenv("GTSIM_TRACE", "hang", 1);
	setenv("GTSIM_TRACE_FILE", trace, 1);

	pid_t pids[CLIENTS];
	for (int i = 0; i < CLIENTS; i++) {
		fflush(NULL);
		pids[i] = fork();
		if (pids[i] == 0) {
			int r = client();
			fflush(trace_stream());
			_exit(r);
		}
		int status = 0;
		CHECK_EQ(waitpid(pids[i], &status, 0), pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			printf("client %d: status 0x%x\n", i, status);
	}

	/* the error states: the 16 newest processes' */
	unsigned files = 0, named = 0;
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		int pid;
		if (sscanf(de->d_name, "gtsim-error-%d", &pid) != 1)
			continue;
		files++;
		for (int i = CLIENTS - KEPT; i < CLIENTS; i++)
			named += pids[i] == pid;
		char path[sizeof(dir) + 300], text[256] = "";
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		FILE *f = fopen(path, "r");
		size_t len = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
		text[len] = 0;
		if (f)
			fclose(f);
		CHECK(strstr(text, "GPU HANG") != NULL);
		struct stat st;
		CHECK(stat(path, &st) == 0 && st.st_size <= (off_t)STATE_MAX);
		unlink(path);
	}
	if (d)
		closedir(d);
	CHECK_EQ(files, KEPT);
	CHECK_EQ(named, KEPT);

	/* the trace: one line per hang, bounded per hang */
	long bytes = 0;
	unsigned hangs = count_lines(trace, "hangcheck: no progress", &bytes);
	printf("%d clients: %u error-state files kept, %u hangs traced in %ld bytes\n", CLIENTS,
	       files, hangs, bytes);
	CHECK_EQ(hangs, CLIENTS * HANGS);
	CHECK(bytes < (long)hangs * 2048);
	unlink(trace);
	rmdir(dir);
	return test_failures ? 1 : 0;
}
