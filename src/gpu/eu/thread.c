/* EU hardware thread state: reset, faults, flag registers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/thread.h"

static void set_dispatch(struct eu_thread *t, unsigned simd, uint32_t mask)
{
	if (simd != 8 && simd != 16 && simd != 32)
		simd = 8;
	t->simd = (uint8_t)simd;
	uint32_t width = simd == 32 ? UINT32_MAX : (1u << simd) - 1;
	t->dispatch_mask = mask & width;
	t->live = t->dispatch_mask;
	t->active = t->dispatch_mask;
	t->wake_at = UINT32_MAX;
	t->state = EU_THREAD_READY;
	/* sr0.2 dispatch mask, sr0.3 vector mask (PRM "State Register");
	 * Mesa reads them to find live channels. A dispatcher may refine
	 * sr0.3 (e.g. pixels that are helpers). */
	uint8_t *sr0 = eu_arf(t, EU_ARF_SR0);
	memcpy(sr0 + 8, &t->dispatch_mask, 4);
	memcpy(sr0 + 12, &t->dispatch_mask, 4);
}

void eu_thread_init(struct eu_thread *t, unsigned simd, uint32_t mask)
{
	memset(t, 0, sizeof(*t));
	set_dispatch(t, simd, mask);
}

/* glibc's memset (wide vector stores): for these constant sizes GCC
 * inlines a `rep stos`, whose start-up cost more than the clearing did
 * (6% of a trivial pixel shader's time). */
static void *(*volatile clear_bytes)(void *, int, size_t) = memset;

void eu_thread_dispatch(struct eu_thread *t, unsigned simd, uint32_t mask)
{
	/* the architecture registers and everything after the register file
	 * but the fault text (about 1.4 KiB), not the 4 KiB of GRFs */
	clear_bytes(t->regs + EU_ARF_BASE, 0, EU_REGS_BYTES - EU_ARF_BASE);
	size_t rest = offsetof(struct eu_thread, acc_wide), text = offsetof(struct eu_thread, fault);
	size_t after = offsetof(struct eu_thread, fault) + sizeof(t->fault);
	clear_bytes((char *)t + rest, 0, text - rest);
	t->fault[0] = 0;
	clear_bytes((char *)t + after, 0, sizeof(*t) - after);
	set_dispatch(t, simd, mask);
}

int eu_thread_fault(struct eu_thread *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->fault, sizeof(t->fault), fmt, ap);
	va_end(ap);
	t->state = EU_THREAD_FAULT;
	TRACE(TRACE_EU, "FAULT (illegal instruction exception): %s", t->fault);
	return -1;
}

uint64_t eu_thread_flags(const struct eu_thread *t)
{
	uint32_t f0, f1;
	memcpy(&f0, eu_arf_c(t, EU_ARF_F0), 4);
	memcpy(&f1, eu_arf_c(t, EU_ARF_F1), 4);
	return (uint64_t)f1 << 32 | f0;
}

void eu_thread_set_flags(struct eu_thread *t, uint64_t flags)
{
	uint32_t f0 = (uint32_t)flags, f1 = (uint32_t)(flags >> 32);
	memcpy(eu_arf(t, EU_ARF_F0), &f0, 4);
	memcpy(eu_arf(t, EU_ARF_F1), &f1, 4);
}
