/* Target shim: what the interposer (src/shim, `gtsim run`) does with a
 * client's reads and writes of the files it serves, below its hooks:
 *  - debugfs (/sys/kernel/debug/dri/N/...) and the i915 module parameters
 *    (/sys/module/i915/parameters/...): reads, and writes of fuzzed text
 *    (gtsim_debugfs_read/write, gtsim_param_read/write, which the shim's
 *    debugfs.c calls on read and at close after a write);
 *  - the PCI BAR (sysfs resource0, bar_mmio.c): the decoder of the
 *    faulting instruction (x86_decode.c) on fuzzed code, with the access
 *    it decodes then carried out as bar_mmio.c does (the checks of its
 *    check_access, the register reads and writes of its do_access) at
 *    fuzzed BAR offsets; and register reads and writes anywhere in the
 *    BAR's register range.
 * Oracles beside the sanitizers: the decoder's answer is one bar_mmio.c
 * can use (length within what it read, sizes 1/2/4/8, the register of a
 * load or register store 0-15: bar_mmio.c indexes the signal context's
 * registers with it), and
 * another file's object never changes (fuzz_victim.h).
 *
 * Input: a sequence of operations (at most 64), each a byte choosing it
 * and its arguments from the following bytes. */
#include <stdio.h>
#include <string.h>

#include "fuzz_dev.h"
#include "fuzz_target.h"
#include "fuzz_victim.h"
#include "shim/x86_decode.h"

#define BAR0_MMIO_SIZE (2u << 20)   /* as bar_mmio.c: the register half of BAR 0 */

static struct gtsim_device *dev;
static struct victim victim;
static unsigned ndebugfs, nparams;

/* The safe module parameters to write: those that do not stop the
 * device from ending hangs (enable_hangcheck=0 would make later hangs
 * endless) or change the process for good. */
static bool param_writable(const char *name)
{
	return strcmp(name, "enable_hangcheck") && strcmp(name, "reset");
}

static void text_arg(struct fuzz_input *in, char *buf, size_t *len)
{
	*len = fuzz_u8(in) % 64;
	fuzz_bytes(in, buf, *len);
	/* numbers, lists and words now and then, not only noise */
	uint8_t how = fuzz_u8(in);
	if (how < 64)
		*len = (size_t)snprintf(buf, 64, "%lld", (long long)(int64_t)fuzz_size(in, 64));
	else if (how < 80)
		*len = (size_t)snprintf(buf, 64, "0x%llx\n", (unsigned long long)fuzz_u64(in));
}

static void check_decoded(const struct x86_mem_access *a, size_t n)
{
	bool ok = a->len >= 1 && a->len <= n && a->len <= 15 &&
		  (a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8) &&
		  (a->kind == X86_STORE_IMM || (a->reg >= 0 && a->reg < 16)) &&
		  (a->kind != X86_LOAD || a->dest_size == 4 || a->dest_size == 8) &&
		  (a->base == X86_NO_REG || a->base == X86_RIP || (a->base >= 0 && a->base < 16)) &&
		  (a->index == X86_NO_REG || (a->index >= 0 && a->index < 16)) &&
		  (a->scale == 1 || a->scale == 2 || a->scale == 4 || a->scale == 8);
	if (!ok) {
		fprintf(stderr, "x86_decode: len %u size %u reg %d base %d index %d scale %u\n",
			a->len, a->size, a->reg, a->base, a->index, a->scale);
		abort();
	}
}

/* One faulting access to the BAR: bar_mmio.c's on_bar_fault with the
 * mapping at `map` and the registers from the input. */
static void bar_access(struct fuzz_input *in)
{
	uint8_t code[15];
	size_t n = 1 + fuzz_u8(in) % 15;
	fuzz_bytes(in, code, n);
	struct x86_mem_access a;
	if (!x86_decode_mem_access(code, n, &a))
		return;
	check_decoded(&a, n);
	uint64_t regs[16];
	const uint64_t map = 0x7f0000000000ull;
	for (unsigned i = 0; i < 16; i++)
		regs[i] = fuzz_u8(in) < 128 ? map + fuzz_size(in, 22) : fuzz_u64(in);
	uint64_t rip = fuzz_u64(in);
	uint64_t ea = x86_effective_address(&a, regs, rip);
	uint64_t off = ea - map;
	/* check_access: inside the register range, aligned */
	if (off >= BAR0_MMIO_SIZE || BAR0_MMIO_SIZE - off < a.size ||
	    (ea & (a.size < 4 ? a.size - 1 : 3)))
		return;
	/* do_access */
	uint32_t reg = (uint32_t)off & ~3u;
	if (a.kind == X86_LOAD) {
		uint64_t v = gtsim_mmio_read(dev, reg);
		if (a.size == 8)
			v |= (uint64_t)gtsim_mmio_read(dev, reg + 4) << 32;
		(void)v;
		return;
	}
	uint64_t v = a.kind == X86_STORE_IMM ? a.imm : regs[a.reg];
	gtsim_mmio_write(dev, reg, (uint32_t)v);
	if (a.size == 8)
		gtsim_mmio_write(dev, reg + 4, (uint32_t)(v >> 32));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = fuzz_input(data, size);
	if (!dev) {
		dev = fuzz_device("skl");
		victim_init(&victim, dev);
		unsigned mode;
		while (gtsim_debugfs_name(ndebugfs, &mode))
			ndebugfs++;
		while (gtsim_param_name(nparams, &mode))
			nparams++;
	}
	for (unsigned op = 0; op < 64 && fuzz_left(&in); op++) {
		uint8_t what = fuzz_u8(&in);
		unsigned mode;
		char buf[80];
		size_t len;
		switch (what % 6) {
		case 0: {
			const char *name = gtsim_debugfs_name(fuzz_pick(&in, ndebugfs), &mode);
			free(gtsim_debugfs_read(dev, name));
			break;
		}
		case 1: {
			const char *name = gtsim_debugfs_name(fuzz_pick(&in, ndebugfs), &mode);
			text_arg(&in, buf, &len);
			gtsim_debugfs_write(dev, name, buf, len);
			break;
		}
		case 2: {
			const char *name = gtsim_param_name(fuzz_pick(&in, nparams), &mode);
			free(gtsim_param_read(name));
			break;
		}
		case 3: {
			const char *name = gtsim_param_name(fuzz_pick(&in, nparams), &mode);
			text_arg(&in, buf, &len);
			if (param_writable(name))
				gtsim_param_write(name, buf, len);
			break;
		}
		case 4:
			bar_access(&in);
			break;
		default: {   /* a register of the BAR's range, read or written */
			uint32_t reg = (uint32_t)fuzz_size(&in, 21) & ~3u;
			if (what & 0x80)
				gtsim_mmio_write(dev, reg, fuzz_u32(&in));
			else
				(void)gtsim_mmio_read(dev, reg);
			break;
		}
		}
	}
	victim_check(&victim);
	return 0;
}
