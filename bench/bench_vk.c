/* The Vulkan compute figures of issue 12: tests/e2e/vulkan's vk_compute
 * program (`--bench N`: SAXPY and a shared-memory reduction over N
 * invocations, each result checked on the CPU, timed around the queue
 * submission and fence wait) runs in child processes, in the same run:
 *  - anv through gtsim on SKL (`gtsim run --device=skl`),
 *  - hasvk through gtsim on BDW,
 *  - lavapipe on the host, the reference.
 * Each child prints one line: "<device>: saxpy <x> invocations/s, reduce
 * <y> invocations/s"; a child that fails prints its exit status.
 *   bench_vk [N]   N invocations (default 1048576) */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ICD_DIR "/usr/share/vulkan/icd.d/"

/* Runs argv with VK_ICD_FILENAMES=icd; prints its output after label. */
static int run_child(const char *label, const char *icd, char *const *argv)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("VK_ICD_FILENAMES", icd, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (rc)
		printf("%-24s failed (exit status %d)\n", label, rc);
	return rc;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], gtsim[PATH_MAX + 32], vk[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = 0;
	const char *dir = dirname(self);
	snprintf(gtsim, sizeof(gtsim), "%s/../tools/gtsim", dir);
	snprintf(vk, sizeof(vk), "%s/../tests/e2e/vulkan/vk_compute", dir);
	char *count = argc > 1 ? argv[1] : "1048576";
	char *skl[] = { gtsim, "run", "--device=skl", "--", vk, "--bench", count, NULL };
	char *bdw[] = { gtsim, "run", "--device=bdw", "--", vk, "--bench", count, NULL };
	char *lvp[] = { vk, "--bench", count, NULL };
	int rc = 0;
	rc |= run_child("anv on gtsim (SKL)", ICD_DIR "intel_icd.x86_64.json", skl);
	rc |= run_child("hasvk on gtsim (BDW)", ICD_DIR "intel_hasvk_icd.x86_64.json", bdw);
	rc |= run_child("lavapipe", ICD_DIR "lvp_icd.x86_64.json", lvp);
	return rc ? 1 : 0;
}
