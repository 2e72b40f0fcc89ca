/* Every mechanism of seeds 002 and 004 shows in the traces: one execbuf
 * with GTSIM_TRACE=all into GTSIM_TRACE_FILE must leave each kind of line
 * behind: binding, relocations kept and rewritten, the request and its
 * seqno written into the status page by MI_STORE_DATA_INDEX, the user
 * interrupt, retirement, ring TAIL/HEAD moves and the TAIL register write,
 * batch start (address space, privilege, ACTHD) and end, and for a faulting
 * batch the hang and reset lines. Expected values are worked out by hand:
 * RCS's RING_TAIL is MMIO 0x2030 (base 0x2000 + 0x30), i915's seqno lives in
 * status page dword 0x30 (I915_GEM_HWS_INDEX), the first seqno is 1. */
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "integration/kernel/eb_test.h"

static char *trace_text;

static void load_trace(const char *path)
{
	FILE *t = fopen(path, "r");
	if (!t)
		return;
	size_t cap = 1 << 16, len = 0, n;
	trace_text = malloc(cap + 1);
	while (trace_text && (n = fread(trace_text + len, 1, cap - len, t)) > 0) {
		len += n;
		if (len == cap)
			trace_text = realloc(trace_text, (cap *= 2) + 1);
	}
	if (trace_text)
		trace_text[len] = 0;
	fclose(t);
}

/* A line starting with "[cat]" that contains every one of the words. */
static bool has_line(const char *cat, const char *a, const char *b)
{
	char tag[32];
	snprintf(tag, sizeof(tag), "[%s]", cat);
	for (const char *l = trace_text; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) - 1 ? n : sizeof(line) - 1), l);
		if (!strncmp(line, tag, strlen(tag)) && strstr(line, a) && (!b || strstr(line, b)))
			return true;
		l = e ? e + 1 : l + n;
	}
	fprintf(stderr, "no [%s] line with \"%s\"%s%s\n", cat, a, b ? " and " : "", b ? b : "");
	return false;
}

/* The batch trace prints a command's fields on the lines after its
 * header line: is there a name line followed, within ten lines, by
 * field? */
static bool has_command_field(const char *name, const char *field)
{
	for (const char *l = trace_text ? strstr(trace_text, name) : NULL; l; l = strstr(l + 1, name)) {
		const char *f = strstr(l, field);
		int lines = 0;
		for (const char *p = l; f && p < f; p++)
			lines += *p == '\n';
		if (f && lines <= 10)
			return true;
	}
	fprintf(stderr, "no %s with \"%s\" in the batch trace\n", name, field);
	return false;
}

int main(void)
{
	char path[] = "/tmp/gtsim-test-tracesXXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		test_skip("mkstemp failed");
	close(fd);
	setenv("GTSIM_TRACE", "all", 1);
	setenv("GTSIM_TRACE_FILE", path, 1);
	struct gtsim_device *dev = eb_device(0, 100, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t t1 = eb_create(f, 4096), t2 = eb_create(f, 4096), batch = eb_create(f, 4096);

	/* t1 is presumed where execbuf will put it (kept); t2's presumed
	 * address is wrong (rewritten). */
	uint32_t dw[16];
	unsigned n = emit_store(dw, 0x100000 + 8, 0x1111);
	n += emit_store(dw + n, 0xdead000 + 8, 0x2222);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, batch, 0, dw, n * 4), 0);
	struct drm_i915_gem_relocation_entry r[2] = {
		{ .target_handle = t1, .delta = 8, .offset = 4, .presumed_offset = 0x100000,
		  .read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER },
		{ .target_handle = t2, .delta = 8, .offset = 20, .presumed_offset = 0xdead000,
		  .read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER },
	};
	struct drm_i915_gem_exec_object2 obj[3] = {
		{ .handle = t1, .offset = 0x100000 }, { .handle = t2 },
		{ .handle = batch, .relocation_count = 2, .relocs_ptr = (uintptr_t)r },
	};
	CHECK_EQ(eb_exec(f, obj, 3, 0, 0), 0);
	CHECK_EQ(eb_wait(f, t1, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, t1, 8), 0x1111);
	CHECK_EQ(eb_read32(f, t2, 8), 0x2222);

	/* A batch with an unknown command: a GPU fault, handled as a hang. */
	uint32_t bad = eb_create(f, 4096);
	const uint32_t junk[2] = { 0xffffffff, MI_BATCH_BUFFER_END };
	CHECK_EQ(eb_write(f, bad, 0, junk, sizeof(junk)), 0);
	struct drm_i915_gem_exec_object2 o = { .handle = bad };
	CHECK_EQ(eb_exec(f, &o, 1, 0, eb_context_create(f)), 0);
	CHECK_EQ(eb_wait(f, bad, 5ll * 1000000000), 0);
	gtsim_device_idle(dev);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	unsetenv("GTSIM_TRACE");

	/* The trace stream is stdio-buffered until exit: flush it to read it. */
	fflush(NULL);
	load_trace(path);
	CHECK(trace_text != NULL);
	char buf[128], buf2[128];
	/* gem: the ioctl, the bindings, the request. */
	CHECK(has_line("gem", "ioctl i915_gem_execbuffer2 -> 0", NULL));
	CHECK(has_line("gem", "bind ppgtt: object", "at 0x100000"));
	CHECK(has_line("gem", "rcs0: request seqno 1 ", "emitted"));
	snprintf(buf, sizeof(buf), "batch at 0x%llx", (unsigned long long)obj[2].offset);
	CHECK(has_line("gem", "execbuf: rcs0 seqno 1", buf));
	/* reloc: one kept, one rewritten to t2's new address + 8. */
	CHECK(has_line("reloc", "presumed 0x100000 correct, kept", NULL));
	snprintf(buf, sizeof(buf), "rewritten to 0x%llx", (unsigned long long)obj[1].offset + 8);
	CHECK(has_line("reloc", "presumed 0xdead000", buf));
	/* The seqno written into status page dword 0x30 (= 48), then the
	 * interrupt, then retirement. */
	CHECK(has_command_field("MI_STORE_DATA_INDEX", "Offset: 48"));
	CHECK(has_command_field("MI_STORE_DATA_INDEX", "Data DWord 0: 1\n"));
	CHECK(has_line("cs", "rcs0: user interrupt", NULL));
	CHECK(has_line("gem", "retired", NULL));
	CHECK(has_line("gem", "rcs0: seqno 1 passed in the status page", "request done"));
	CHECK(has_line("gem", "rcs0: request seqno 1 retired", NULL));
	/* cs: ring registers and pointers, the batch's start and end. */
	CHECK(has_line("reg", "rcs0: 0x02030 <- ", NULL));   /* RING_TAIL */
	CHECK(has_line("cs", "rcs0: TAIL 0x", "HEAD 0x"));
	CHECK(has_line("cs", "rcs0: HEAD 0x", "-> 0x"));
	snprintf(buf, sizeof(buf), "start first-level batch at 0x%llx (PPGTT, non-privileged)",
		 (unsigned long long)obj[2].offset);
	snprintf(buf2, sizeof(buf2), "ACTHD 0x%llx", (unsigned long long)obj[2].offset);
	CHECK(has_line("cs", buf, buf2));
	snprintf(buf, sizeof(buf), "end of first-level batch at 0x%llx",
		 (unsigned long long)obj[2].offset + 32);   /* 2 stores of 4 dwords */
	CHECK(has_line("cs", buf, "back to the ring"));
	/* batch: decoded commands from the ring and the batch. */
	CHECK(has_line("batch", "rcs0 ring:", NULL));
	snprintf(buf, sizeof(buf), "rcs0 batch 0x%llx:", (unsigned long long)obj[2].offset);
	CHECK(has_line("batch", buf, NULL));
	CHECK(has_command_field("MI_STORE_DATA_IMM", "Immediate Data: 4369"));   /* 0x1111 */
	/* hang: the fault, the guilty request, the reset, the error state. */
	CHECK(has_line("hang", "rcs0: GPU fault", NULL));
	CHECK(has_line("hang", "rcs0: reset: request seqno 2", "guilty"));
	CHECK(has_line("hang", "rcs0: engine reset", NULL));
	CHECK(has_line("hang", "error state", NULL));
	free(trace_text);
	unlink(path);
	char err[512];
	gtsim_error_state_path(err, sizeof(err), NULL);
	unlink(err);
	return test_exit();
}
