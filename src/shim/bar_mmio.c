/* The GPU's PCI BAR 0 (GTTMMADR) mapped by a program through sysfs
 * (.../0000:00:02.0/resource0, as libpciaccess maps it for IGT's
 * intel_mmio_use_pci_bar): register reads and writes with CPU loads and
 * stores, executed by gtsim's MMIO (gtsim_mmio_read/gtsim_mmio_write); in
 * shared mode (a fork child, `--shared`) by the server's, one
 * GTSIM_WIRE_MMIO message per 32-bit access.
 *
 * The mapping is anonymous memory with no access rights. A load or store
 * to it faults (SIGSEGV, SEGV_ACCERR); the fault handler shared with user
 * copies (common/sigfault.c) hands the fault here. The instruction
 * at RIP is decoded (x86_decode.c: the mov/movzx forms compilers emit for
 * volatile accesses), its operand's address is checked against the fault
 * address, the access goes to the register, a load's value is written
 * into the saved register, and RIP moves past the instruction. Anything
 * else (an instruction outside those forms, the GTT half of the BAR, an
 * unaligned access, a store through a read-only mapping) is reported on
 * stderr and passed on as an ordinary SIGSEGV: the program's handler if it
 * has one, otherwise the default action (the program dies of it).
 *
 * Layout (i915's intel_uncore and GGTT probes for Gen8/9): BAR 0 is
 * 16 MiB; registers fill its first 2 MiB, the GGTT's PTEs its upper half
 * (not modelled here). */
#include "shim/shim.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "common/sigfault.h"
#include "common/trace.h"
#include "common/user_copy.h"
#include "gtsim/gtsim.h"
#include "gtsim/remote.h"
#include "shim/x86_decode.h"

#define PAGE 4096u
#define MAX_WINDOWS 16

struct window {
	int used;             /* atomic: published after the fields */
	uintptr_t start, end; /* page-rounded mapping */
	uint64_t bar_off;     /* BAR offset of start */
	int writable;
};

static struct window windows[MAX_WINDOWS];
static int num_windows;   /* atomic: quick test on every munmap/mprotect */
static pthread_mutex_t windows_lock = PTHREAD_MUTEX_INITIALIZER;

/* Greg slots of the x86 registers 0-15 (ucontext.h). */
static const int greg_of[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

static bool window_lookup(uintptr_t addr, uint64_t *bar_off, int *writable)
{
	for (int i = 0; i < MAX_WINDOWS; i++) {
		struct window *w = &windows[i];
		if (!__atomic_load_n(&w->used, __ATOMIC_ACQUIRE))
			continue;
		if (addr >= w->start && addr < w->end) {
			*bar_off = w->bar_off + (addr - w->start);
			*writable = w->writable;
			return true;
		}
	}
	return false;
}

/* Up to 15 bytes at rip, fewer when the next page is not readable. */
static size_t read_code(uintptr_t rip, uint8_t code[15])
{
	if (copy_from_user_ptr(code, rip, 15) == 0)
		return 15;
	size_t to_page_end = PAGE - (rip & (PAGE - 1));
	if (to_page_end < 15 && copy_from_user_ptr(code, rip, to_page_end) == 0)
		return to_page_end;
	return 0;
}

static void report(uintptr_t addr, uint64_t bar_off, uintptr_t rip, const uint8_t *code,
		   size_t n, const char *why)
{
	char msg[512];
	int len = snprintf(msg, sizeof(msg),
			   "gtsim: access to the GPU's PCI BAR at %p (BAR 0 offset 0x%llx) by the "
			   "instruction at %p (bytes", (void *)addr,
			   (unsigned long long)bar_off, (void *)rip);
	for (size_t i = 0; i < n && i < 15 && len > 0 && (size_t)len < sizeof(msg) - 8; i++)
		len += snprintf(msg + len, sizeof(msg) - (size_t)len, " %02x", code[i]);
	if (len > 0 && (size_t)len < sizeof(msg))
		len += snprintf(msg + len, sizeof(msg) - (size_t)len,
				"%s) not emulated: %s; delivering SIGSEGV\n", n ? "" : " unreadable",
				why);
	if (len > 0)
		(void)!write(2, msg, (size_t)len < sizeof(msg) ? (size_t)len : sizeof(msg) - 1);
}

/* Why the decoded access cannot be emulated, or NULL. */
static const char *check_access(const struct x86_mem_access *a, uintptr_t addr,
				uint64_t bar_off, int writable, uint64_t ea)
{
	if (ea != addr)
		return "the decoded operand address differs from the fault address";
	if (bar_off >= BAR0_MMIO_SIZE || BAR0_MMIO_SIZE - bar_off < a->size)
		return "outside the 2 MiB register range (the GGTT half is not modelled)";
	if (addr & (a->size < 4 ? a->size - 1 : 3))
		return "unaligned register access";
	if (a->kind != X86_LOAD && !writable)
		return "store through a read-only mapping";
	return NULL;
}

/* A register of the process's device, or in shared mode (dev NULL) of
 * the server's (a fork-sharing child's: its parent's). */
static uint32_t reg_read(struct gtsim_device *dev, uint32_t reg)
{
	uint32_t v = 0;
	if (dev)
		return gtsim_mmio_read(dev, reg);
	if (gtsim_remote_mmio(devnode_server(), reg, 0, &v))
		TRACE(TRACE_SHIM, "BAR read 0x%05x on the server failed", (unsigned)reg);
	return v;
}

static void reg_write(struct gtsim_device *dev, uint32_t reg, uint32_t v)
{
	if (dev)
		gtsim_mmio_write(dev, reg, v);
	else if (gtsim_remote_mmio(devnode_server(), reg, 1, &v))
		TRACE(TRACE_SHIM, "BAR write 0x%05x on the server failed", (unsigned)reg);
}

static void do_access(struct gtsim_device *dev, const struct x86_mem_access *a, uint64_t bar_off,
		      greg_t *gregs)
{
	uint32_t reg = (uint32_t)bar_off & ~3u;
	if (a->kind == X86_LOAD) {
		uint64_t v = reg_read(dev, reg);
		if (a->size == 8)
			v |= (uint64_t)reg_read(dev, reg + 4) << 32;
		else if (a->size < 4)
			v = (v >> (8 * (bar_off & 3))) & ((1u << (8 * a->size)) - 1);
		/* A 32-bit destination zero-extends into the 64-bit register. */
		gregs[greg_of[a->reg]] = (greg_t)(a->dest_size == 8 ? v : (uint32_t)v);
		TRACE(TRACE_SHIM, "BAR read 0x%05x (%u bytes) -> 0x%llx", (unsigned)bar_off, a->size,
		      (unsigned long long)v);
		return;
	}
	uint64_t v = a->kind == X86_STORE_IMM ? a->imm : (uint64_t)gregs[greg_of[a->reg]];
	reg_write(dev, reg, (uint32_t)v);
	if (a->size == 8)
		reg_write(dev, reg + 4, (uint32_t)(v >> 32));
	TRACE(TRACE_SHIM, "BAR write 0x%05x (%u bytes) <- 0x%llx", (unsigned)bar_off, a->size,
	      (unsigned long long)(a->size == 8 ? v : (uint32_t)v));
}

static bool on_bar_fault(int sig, siginfo_t *info, void *uctx)
{
	uint64_t bar_off;
	int writable;
	if (sig != SIGSEGV || info->si_code != SEGV_ACCERR)
		return false;
	uintptr_t addr = (uintptr_t)info->si_addr;
	if (!window_lookup(addr, &bar_off, &writable))
		return false;
	greg_t *gregs = ((ucontext_t *)uctx)->uc_mcontext.gregs;
	uintptr_t rip = (uintptr_t)gregs[REG_RIP];
	uint8_t code[15];
	size_t n = read_code(rip, code);
	struct x86_mem_access a;
	const char *why = NULL;
	if (!x86_decode_mem_access(code, n, &a)) {
		why = "not a plain mov/movzx load or a 32/64-bit mov store";
	} else {
		uint64_t regs[16];
		for (int i = 0; i < 16; i++)
			regs[i] = (uint64_t)gregs[greg_of[i]];
		why = check_access(&a, addr, bar_off, writable, x86_effective_address(&a, regs, rip));
	}
	struct gtsim_device *dev = why ? NULL : devnode_device();
	if (!why && !dev && !devnode_server())
		why = "no simulated device (GTSIM_DEVICE?)";
	if (why) {
		report(addr, bar_off, rip, code, n, why);
		return false;
	}
	do_access(dev, &a, bar_off, gregs);
	gregs[REG_RIP] += a.len;
	return true;
}

void *bar_mmio_map(void *addr, size_t len, int prot, int flags, off_t off)
{
	if (len == 0 || off < 0 || (off & (PAGE - 1)) || (uint64_t)off >= BAR0_SIZE ||
	    len > BAR0_SIZE - (uint64_t)off) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (sigfault_add_hook(on_bar_fault) < 0) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	if (flags & MAP_FIXED)
		bar_mmio_forget(addr, len);
	int map_flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE));
	real_init();
	void *p = real.mmap ? real.mmap(addr, len, PROT_NONE, map_flags, -1, 0)
			    : (void *)syscall(SYS_mmap, addr, len, PROT_NONE, map_flags, -1, 0);
	if (p == MAP_FAILED)
		return p;
	pthread_mutex_lock(&windows_lock);
	struct window *w = NULL;
	for (int i = 0; i < MAX_WINDOWS && !w; i++)
		if (!windows[i].used)
			w = &windows[i];
	if (w) {
		w->start = (uintptr_t)p;
		w->end = (uintptr_t)p + ((len + PAGE - 1) & ~(size_t)(PAGE - 1));
		w->bar_off = (uint64_t)off;
		w->writable = (prot & PROT_WRITE) != 0;
		__atomic_store_n(&w->used, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&num_windows, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&windows_lock);
	if (!w) {
		real.munmap(p, len);
		errno = ENOMEM;
		return MAP_FAILED;
	}
	TRACE(TRACE_SHIM, "BAR 0 mapped at %p, offset 0x%llx, %zu bytes%s", p,
	      (unsigned long long)off, len, prot & PROT_WRITE ? "" : " (read-only)");
	return p;
}

/* Caller holds windows_lock. A free slot for the upper piece of a split
 * window; NULL when all are taken (that piece then faults as memory). */
static struct window *spare_locked(void)
{
	for (int i = 0; i < MAX_WINDOWS; i++)
		if (!windows[i].used)
			return &windows[i];
	return NULL;
}

/* Calls fn on every window overlapping [addr, addr+len), under the lock. */
static void for_each_overlap(void *addr, size_t len,
			     void (*fn)(struct window *w, uintptr_t a, uintptr_t b))
{
	if (!__atomic_load_n(&num_windows, __ATOMIC_ACQUIRE) || len == 0)
		return;
	uintptr_t a = (uintptr_t)addr, b = a + len;
	pthread_mutex_lock(&windows_lock);
	for (int i = 0; i < MAX_WINDOWS; i++) {
		struct window *w = &windows[i];
		if (w->used && b > w->start && a < w->end)
			fn(w, a, b);
	}
	pthread_mutex_unlock(&windows_lock);
}

/* Removes [a, b) from w: what is left below and above stays BAR. */
static void cut_window(struct window *w, uintptr_t a, uintptr_t b)
{
	uintptr_t start = w->start, end = w->end;
	__atomic_store_n(&w->used, 0, __ATOMIC_RELEASE);
	__atomic_sub_fetch(&num_windows, 1, __ATOMIC_RELEASE);
	if (start < a) {
		w->end = a;
		__atomic_store_n(&w->used, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&num_windows, 1, __ATOMIC_RELEASE);
	}
	struct window *up = b < end ? spare_locked() : NULL;
	if (up) {
		uint64_t bar_off = w->bar_off + (b - start);
		int writable = w->writable;
		up->start = b;
		up->end = end;
		up->bar_off = bar_off;
		up->writable = writable;
		__atomic_store_n(&up->used, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&num_windows, 1, __ATOMIC_RELEASE);
	}
}

void bar_mmio_forget(void *addr, size_t len)
{
	for_each_overlap(addr, len, cut_window);
}

static void protect_overlap(struct window *w, uintptr_t a, uintptr_t b)
{
	uintptr_t lo = a > w->start ? a : w->start, hi = b < w->end ? b : w->end;
	lo &= ~(uintptr_t)(PAGE - 1);
	syscall(SYS_mprotect, lo, hi - lo, PROT_NONE);
}

void bar_mmio_keep_protected(void *addr, size_t len)
{
	for_each_overlap(addr, len, protect_overlap);
}
