/* GPU error states in the text format of i915's error state
 * (/sys/class/drm/card0/error, i915_gpu_error.c), so that intel-gpu-tools'
 * intel_error_decode reads them: a header with the PCI ID, the hung
 * engine's registers ("rcs0 command stream:", "  HEAD: 0x..."), then
 * buffers as "<engine> --- <name> = 0x<hi> <lo>" followed by a line of
 * ascii85-encoded dwords marked '~' (uncompressed). Buffer names are the
 * ones intel_error_decode knows: "gtt_offset" (the batch), "ringbuffer",
 * "HW Status", "user" (EXEC_OBJECT_CAPTURE objects). */
#include "kernel/request.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/trace.h"
#include "common/user_copy.h"
#include "gpu/cs/engine.h"
#include "gpu/cs/regs.h"
#include "kernel/context.h"
#include "kernel/object.h"
#include "kernel/params.h"

/* Largest buffer dumped. */
#define DUMP_MAX_BYTES (1u << 20)

static void ascii85_dword(FILE *f, uint32_t v)
{
	if (!v) {
		fputc('z', f);
		return;
	}
	char out[5];
	for (int i = 4; i >= 0; i--) {
		out[i] = (char)('!' + v % 85);
		v /= 85;
	}
	fwrite(out, 1, 5, f);
}

static void dump_buffer(FILE *f, const char *engine, const char *name, uint64_t gtt,
			const void *data, uint64_t size)
{
	fprintf(f, "%s --- %s = 0x%08x %08x\n", engine, name, (uint32_t)(gtt >> 32),
		(uint32_t)gtt);
	if (size > DUMP_MAX_BYTES)
		size = DUMP_MAX_BYTES;
	fputc('~', f);
	/* Read through a guarded copy: a userptr object's pages are the
	 * client's and may be gone (unreadable dwords read as zero). */
	uint32_t chunk[1024];
	for (uint64_t off = 0; off + 4 <= size; off += sizeof(chunk)) {
		size_t n = size - off < sizeof(chunk) ? (size_t)(size - off) / 4 : 1024;
		if (copy_from_user_ptr(chunk, (uintptr_t)data + off, n * 4))
			memset(chunk, 0, sizeof(chunk));
		for (size_t i = 0; i < n; i++)
			ascii85_dword(f, chunk[i]);
	}
	fputc('\n', f);
}

static void dump_registers(FILE *f, struct rq_engine *e, struct gem_request *guilty)
{
	struct gt_engine *hw = e->hw;
#define R(reg) engine_mmio_read(hw, reg)
	uint64_t acthd = engine_acthd(hw);
	fprintf(f, "%s command stream:\n", engine_name(e->id));
	fprintf(f, "  START: 0x%08x\n", R(RING_START));
	fprintf(f, "  HEAD:  0x%08x [0x%08x]\n", R(RING_HEAD), guilty->head);
	fprintf(f, "  TAIL:  0x%08x [0x%08x, 0x%08x]\n", R(RING_TAIL), guilty->bb_pos,
		guilty->tail);
	fprintf(f, "  CTL:   0x%08x\n", R(RING_CTL));
	fprintf(f, "  MODE:  0x%08x\n", R(REG_RING_MI_MODE));
	fprintf(f, "  HWS:   0x%08x\n", R(RING_HWS_PGA));
	fprintf(f, "  ACTHD: 0x%08x %08x\n", (uint32_t)(acthd >> 32), (uint32_t)acthd);
	fprintf(f, "  IPEIR: 0x%08x\n", R(REG_RING_IPEIR));
	fprintf(f, "  IPEHR: 0x%08x\n", R(REG_RING_IPEHR));
	fprintf(f, "  ESR:   0x%08x\n", R(REG_RING_ESR));
	fprintf(f, "  INSTDONE: 0x%08x\n", R(REG_RING_INSTDONE));
	if (guilty->batch_obj) {
		uint64_t start = guilty->batch_addr - guilty->batch_offset;
		uint64_t end = start + guilty->batch_obj->size;
		fprintf(f, "  batch: [0x%08x_%08x, 0x%08x_%08x]\n", (uint32_t)(start >> 32),
			(uint32_t)start, (uint32_t)(end >> 32), (uint32_t)end);
	}
	fprintf(f, "  BBADDR: 0x%08x_%08x\n", R(RING_BBADDR_UDW), R(RING_BBADDR));
	fprintf(f, "  BB_STATE: 0x%08x\n", R(REG_RING_BBSTATE));
	fprintf(f, "  INSTPS: 0x%08x\n", R(REG_RING_INSTPS));
	fprintf(f, "  INSTPM: 0x%08x\n", R(REG_RING_INSTPM));
	fprintf(f, "  FADDR: 0x%08x %08x\n", R(REG_RING_DMA_FADD_UDW), R(REG_RING_DMA_FADD));
	fprintf(f, "  RC PSMI: 0x%08x\n", 0u);
	fprintf(f, "  FAULT_REG: 0x%08x\n", 0u);
	fprintf(f, "  GFX_MODE: 0x%08x\n", 0u);
	for (int i = 0; i < 4; i++)
		fprintf(f, "  PDP%d: 0x%016llx\n", i,
			(unsigned long long)R(RING_PDP_LDW(i)) |
			(unsigned long long)R(RING_PDP_UDW(i)) << 32);
#undef R
}

char *error_state_capture(struct rq_engine *e, struct gem_request *guilty, const char *why)
{
	struct gtsim_device *dev = e->dev;
	const char *name = engine_name(e->id);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct gem_context *ctx = guilty->ctx;
	fprintf(f, "GPU HANG: ecode %d:%d:%08x, in %s [%d], %s on %s\n", dev->info->gen,
		(int)e->id, engine_mmio_read(e->hw, REG_RING_IPEHR), program_invocation_short_name,
		(int)getpid(), why, name);
	fprintf(f, "Kernel: gtsim\n");
	fprintf(f, "Driver: gtsim i915/GEM model\n");
	fprintf(f, "Time: %lld s %ld us\n", (long long)now.tv_sec, now.tv_nsec / 1000);
	fprintf(f, "Active process (on ring %s): %s [%d]\n", name, program_invocation_short_name,
		(int)getpid());
	fprintf(f, "Reset count: %u\n", dev->reset_count);
	fprintf(f, "Platform: %s\n", dev->info->short_name);
	fprintf(f, "PCI ID: 0x%04x\n", dev->info->pci_device);
	fprintf(f, "PCI Revision: 0x%02x\n", 0);
	fprintf(f, "PCI Subsystem: %04x:%04x\n", 0x8086, 0);
	dump_registers(f, e, guilty);
	fprintf(f, "  hung: 1\n");
	/* this reset included when it is an engine reset (i915.reset >= 2) */
	fprintf(f, "  engine reset count: %u\n", e->reset_count + (params_reset() >= 2));
	fprintf(f, "  Active context: %s[%d] prio %d, guilty %u active %u\n",
		program_invocation_short_name, (int)getpid(), ctx ? ctx->priority : 0,
		ctx ? ctx->guilty_count + 1 : 0, ctx ? ctx->active_count : 0);
	fprintf(f, "  seqno %u, hw context %u\n", guilty->seqno, ctx ? ctx->hw_id : 0);
	/* EXEC_OBJECT_CAPTURE objects at their PPGTT address, before the
	 * engine's own buffers as i915 lists them (IGT gem_exec_capture
	 * strips the text's trailing newline, so a buffer must not be last) */
	for (unsigned i = 0; i < guilty->ncapture; i++)
		dump_buffer(f, name, "user", guilty->capture_addr[i], guilty->capture[i]->map,
			    guilty->capture[i]->size);
	if (guilty->batch_obj)
		dump_buffer(f, name, "gtt_offset", guilty->batch_addr - guilty->batch_offset,
			    guilty->batch_obj->map, guilty->batch_obj->size);
	/* its context's ring (the one the engine has loaded) */
	const struct ctx_ring *ring = guilty->ring ? guilty->ring : e->cur;
	dump_buffer(f, name, "ringbuffer", ring->ggtt, ring->map, ring->size);
	dump_buffer(f, name, "HW Status", e->hws_ggtt, (const void *)e->hws, GT_PAGE_SIZE);
	fclose(f);
	return text;
}

#define TRUNCATED_NOTE "(error state truncated by gtsim at %zu bytes)\n"

size_t error_state_bound(char *text, size_t cap)
{
	size_t len = strlen(text);
	char note[80];
	int note_len = snprintf(note, sizeof(note), TRUNCATED_NOTE, cap);
	if (len <= cap || cap <= (size_t)note_len)
		return len;
	size_t cut = cap - (size_t)note_len;
	while (cut > 0 && text[cut - 1] != '\n')
		cut--;
	memcpy(text + cut, note, (size_t)note_len + 1);
	return cut + (size_t)note_len;
}

struct aged_file {
	char name[64];
	struct timespec mtime;
};

static int older_first(const void *a, const void *b)
{
	const struct aged_file *x = a, *y = b;
	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

unsigned error_state_prune(const char *dir, unsigned keep)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct aged_file *files = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		if (strncmp(de->d_name, "gtsim-error-", 12) || strlen(de->d_name) >= 64 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct aged_file *nf = realloc(files, ncap * sizeof(*nf));
			if (!nf)
				break;
			files = nf;
			cap = ncap;
		}
		snprintf(files[n].name, sizeof(files[n].name), "%s", de->d_name);
		files[n].mtime = st.st_mtim;
		n++;
	}
	unsigned removed = 0;
	if (n > keep) {
		qsort(files, n, sizeof(*files), older_first);
		for (size_t i = 0; i < n - keep; i++)
			if (unlinkat(dirfd(d), files[i].name, 0) == 0)
				removed++;
	}
	closedir(d);
	free(files);
	return removed;
}

void gtsim_error_state_path(char *buf, size_t len, char **dir)
{
	const char *env = getenv("GTSIM_ERROR_STATE");
	if (dir)
		*dir = NULL;
	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	/* TMPDIR, as the shim's tree: a test or a CI job of its own counts
	 * its own files */
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp || strlen(tmp) > 256)
		tmp = "/tmp";
	snprintf(buf, len, "%s/gtsim-error-%d", tmp, (int)getpid());
	if (dir)
		*dir = strdup(tmp);
}

void error_state_store(struct gtsim_device *dev, char *text)
{
	struct gem_requests *r = dev->requests;
	char path[512], *dir = NULL;
	error_state_bound(text, ERROR_STATE_MAX_BYTES);
	gtsim_error_state_path(path, sizeof(path), &dir);
	const char *env = path;
	/* this process's own file is rewritten, so it counts as one */
	if (dir && access(path, F_OK) != 0)
		error_state_prune(dir, ERROR_STATE_MAX_FILES - 1);
	free(dir);
	FILE *f = fopen(env, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	TRACE(TRACE_HANG, "error state (%zu bytes) %s %s", strlen(text),
	      f ? "written to" : "could not be written to", env);
	pthread_mutex_lock(&r->worker_lock);
	free(r->error_state);
	r->error_state = text;
	pthread_mutex_unlock(&r->worker_lock);
}

char *gtsim_error_state(struct gtsim_device *dev)
{
	struct gem_requests *r = dev ? dev->requests : NULL;
	if (!r)
		return NULL;
	pthread_mutex_lock(&r->worker_lock);
	char *copy = r->error_state ? strdup(r->error_state) : NULL;
	pthread_mutex_unlock(&r->worker_lock);
	return copy;
}
