/* The fetch-execute loop of a command streamer (seed 004): commands come
 * from the ring between HEAD and TAIL, or from the current batch at ACTHD;
 * each is looked up in the command table of the engine's generation. */
#include "gpu/cs/cs.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cmd/decode.h"

struct gt_vm cs_ggtt(const struct gt_engine *e)
{
	return (struct gt_vm){ .phys = e->gpu->phys, .ggtt = &e->gpu->ggtt };
}

struct gt_vm cs_ppgtt(const struct gt_engine *e)
{
	/* 48-bit PPGTT: RING_PDP0 holds the PML4 (BDW PRM "PPGTT" / i915's
	 * gen8 LRI of PDP0 in 4-level mode). */
	return (struct gt_vm){ .phys = e->gpu->phys, .pml4 = e->pdp[0] & GT_PTE_ADDR_MASK };
}

/* A command's memory access goes through the PPGTT unless it asks for
 * the GGTT (Use Global GTT and the like), in the ring and in batches alike;
 * with no PPGTT loaded (PDP0 is 0) everything is GGTT. */
struct gt_vm cs_vm_for(const struct gt_engine *e, bool ggtt)
{
	if (ggtt || !(e->pdp[0] & GT_PTE_ADDR_MASK))
		return cs_ggtt(e);
	return cs_ppgtt(e);
}

enum cs_result cs_fault(struct gt_engine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->fault_reason, sizeof(e->fault_reason), fmt, ap);
	va_end(ap);
	return CS_FAULT;
}

bool cs_poll_pause(struct gt_engine *e)
{
	pthread_mutex_unlock(&e->lock);
	struct timespec ts = { 0, 20000 };
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&e->lock);
	return !e->quit && !e->reset_req;
}

/* Read n dwords of the ring from byte offset off, wrapping at its end. */
static int ring_read(struct gt_engine *e, uint32_t off, uint32_t *dst, uint32_t n)
{
	uint32_t size = cs_ring_size(e);
	struct gt_vm vm = cs_ggtt(e);
	while (n) {
		off %= size;
		uint32_t chunk = (size - off) / 4;
		if (chunk > n)
			chunk = n;
		if (vm_read(&vm, (uint64_t)e->ring_start + off, dst, chunk * 4))
			return -1;
		dst += chunk;
		n -= chunk;
		off += chunk * 4;
	}
	return 0;
}

/* Dwords from ring byte offset off (below the ring size) up to TAIL or
 * the ring's end, when off lies between HEAD and TAIL; else 0. */
static uint32_t before_tail(const struct gt_engine *e, uint32_t off)
{
	uint32_t head = e->head, tail = e->tail, end = 0;
	if (head <= tail)
		end = off >= head && off < tail ? tail : 0;
	else
		end = off >= head ? cs_ring_size(e) : off < tail ? tail : 0;
	return end ? (end - off) / 4 : 0;
}

/* Ring reads go through the read-ahead buffer: up to CS_RING_PREFETCH
 * dwords between HEAD and TAIL at once (one address translation for a
 * request's commands instead of one per command). Anything else (past
 * TAIL, across the ring's end) is read directly. */
static int ring_fetch(struct gt_engine *e, uint32_t off, uint32_t *dst, uint32_t n)
{
	off %= cs_ring_size(e);
	bool hit = e->rbuf_len && e->rbuf_wraps == e->head_wraps && off >= e->rbuf_off &&
		   (uint64_t)(off - e->rbuf_off) / 4 + n <= e->rbuf_len;
	if (!hit) {
		uint32_t avail = before_tail(e, off);
		if (avail > CS_RING_PREFETCH)
			avail = CS_RING_PREFETCH;
		cs_ring_prefetch_drop(e);
		if (avail < n || ring_read(e, off, e->rbuf, avail))
			return ring_read(e, off, dst, n);
		e->rbuf_off = off;
		e->rbuf_len = avail;
		e->rbuf_wraps = e->head_wraps;
	}
	memcpy(dst, e->rbuf + (off - e->rbuf_off) / 4, n * 4);
	return 0;
}

/* How many dwords to read with the header: up to 16, within the ring (up
 * to TAIL) or the batch's page, so that most commands need one read. (A
 * failed read falls back to the header alone.) */
static uint32_t prefetch_count(const struct gt_engine *e)
{
	uint64_t n;
	if (e->level == CS_RING)
		n = before_tail(e, e->head);
	else
		n = (4096 - (e->bb[e->level].addr & 0xfff)) / 4;
	return n < 16 ? (uint32_t)(n ? n : 1) : 16;
}

/* The address space of the current batch. */
static struct gt_vm batch_vm(struct gt_engine *e)
{
	return e->bb[e->level].ppgtt ? cs_ppgtt(e) : cs_ggtt(e);
}

static int fetch(struct gt_engine *e, uint32_t *dst, uint32_t first, uint32_t n)
{
	if (e->level == CS_RING)
		return ring_fetch(e, e->head + first * 4, dst + first, n);
	struct gt_vm vm = batch_vm(e);
	return vm_read(&vm, e->bb[e->level].addr + first * 4ull, dst + first, n * 4);
}

static const char *where(const struct gt_engine *e)
{
	static const char *const names[] = { "ring", "batch", "2nd-level batch" };
	return names[e->level];
}

/* Seed 004: a privileged command met in a non-privileged batch is
 * converted into an MI_NOOP. */
static bool dropped_for_privilege(struct gt_engine *e, const struct cmd_desc *d,
				  const uint32_t *dw, uint32_t len)
{
	if (cs_privileged(e) || d->priv == CMD_PRIV_NONE || d->priv == CMD_PRIV_REG)
		return false;
	if (d->priv == CMD_PRIV_GGTT) {
		bool ggtt = false;
		for (int k = 0; k < CMD_PRIV_FIELDS; k++) {
			const struct cmd_field *f = d->priv_fields[k];
			if (f && cmd_field_value(f, dw, len, 0))
				ggtt = true;
		}
		if (!ggtt)
			return false;
	}
	TRACE(TRACE_CS, "%s: privileged %s at 0x%llx in a non-privileged batch "
	      "executes as MI_NOOP", e->name, d->name, (unsigned long long)cs_acthd(e));
	return true;
}

/* Trace `batch`: a section line names the engine and where the commands
 * come from ("[batch] rcs0 ring:", "[batch] rcs0 batch 0x...:", with
 * " (GGTT)" for a batch in the global GTT, the kernel's own) when that
 * changes (a batch starts, chains or returns, or another engine's command
 * came between); then each command as INTEL_DEBUG=bat prints it. */
static void trace_command(struct gt_engine *e, const struct cmd_desc *d,
			  const uint32_t *dw, uint32_t len)
{
	static const struct gt_engine *last_engine;   /* under trace_lock */
	static enum cs_level last_level;
	uint64_t at = cs_acthd(e);
	trace_lock();
	FILE *f = trace_stream();
	bool batch_start = e->level != CS_RING && at == e->bb[e->level].start;
	if (last_engine != e || last_level != e->level || batch_start) {
		if (e->level == CS_RING)
			fprintf(f, "[batch] %s ring:\n", e->name);
		else
			fprintf(f, "[batch] %s %s 0x%llx%s%s:\n", e->name, where(e),
				(unsigned long long)e->bb[e->level].start,
				e->bb[e->level].ppgtt ? "" : " (GGTT)",
				batch_start ? "" : " (continued)");
		last_engine = e;
		last_level = e->level;
	}
	cmd_decode_print(f, d, at, dw, len);
	trace_unlock();
}

/* A length shorter than the shortest the table allows (its `minlength`,
 * else its usual length) is bad. */
static bool too_short(const struct cmd_desc *d, uint32_t len)
{
	if (len < d->bias)
		return true;
	return d->len_mask && d->min_length && len < d->min_length;
}

/* MI_NOOPs from dw[0] on: those fetched (have) and, in a batch, the rest
 * of the page. A header of 0 is a NOOP that writes no NOP identification
 * (BDW PRM vol. 2a MI_NOOP bit 22): nothing of it is visible but its time,
 * so a run is one step (IGT's spinners loop over 960 of them). */
static uint32_t noop_run(struct gt_engine *e, const uint32_t *dw, uint32_t have)
{
	uint32_t run = 1;
	while (run < have && dw[run] == 0)
		run++;
	if (run < have || e->level == CS_RING)
		return run;
	struct gt_vm vm = batch_vm(e);
	uint64_t avail, addr = e->bb[e->level].addr + run * 4ull;
	const uint32_t *p = (addr & 0xfff) ? vm_map(&vm, addr, false, &avail) : NULL;
	for (uint64_t i = 0; p && i < avail / 4 && p[i] == 0; i++)
		run++;
	return run;
}

/* The command at `at`, len dwords long, is the current one: ACTHD, and
 * in the ring the HEAD after it; count commands it stands for. */
static void set_current(struct gt_engine *e, uint64_t at, uint32_t len, uint32_t commands)
{
	e->cmd_addr = at;
	e->cmd_len = len;
	if (e->level == CS_RING)
		e->next_head = (e->head + len * 4) % cs_ring_size(e);
	e->commands += commands;
}

/* Fetch and execute the command at the current position. */
static enum cs_result step(struct gt_engine *e)
{
	uint32_t *dw = e->cmd;
	uint64_t at = cs_acthd(e);

	uint32_t have = prefetch_count(e);
	if (fetch(e, dw, 0, have) && (have = 1, fetch(e, dw, 0, 1)))
		return cs_fault(e, "page fault fetching a command at 0x%llx (%s)",
				(unsigned long long)at, where(e));
	if (dw[0] == 0 && !trace_on(TRACE_BATCH)) {
		uint32_t run = noop_run(e, dw, have);
		set_current(e, at, run, run);
		return CS_NEXT;
	}
	const struct cmd_desc *d = cmd_find(e->gpu->info->gen, e->id, dw[0]);
	if (!d)
		return cs_fault(e, "unknown command 0x%08x at 0x%llx (%s): not a gen%d %s "
				"command", dw[0], (unsigned long long)at, where(e),
				e->gpu->info->gen, e->name);
	uint32_t len = cmd_length(d, dw[0]);
	if (len > CS_MAX_CMD_DWORDS || too_short(d, len))
		return cs_fault(e, "%s at 0x%llx: bad length %u", d->name,
				(unsigned long long)at, len);
	if (e->level == CS_RING && len * 4 > cs_ring_size(e))
		return cs_fault(e, "%s at 0x%llx: %u dwords do not fit the ring",
				d->name, (unsigned long long)at, len);
	if (len > have && fetch(e, dw, have, len - have))
		return cs_fault(e, "page fault fetching %s at 0x%llx (%s)", d->name,
				(unsigned long long)at, where(e));

	set_current(e, at, len, 1);
	if (trace_on(TRACE_BATCH))
		trace_command(e, d, dw, len);
	if (dropped_for_privilege(e, d, dw, len))
		return CS_NEXT;
	__atomic_store_n(&e->busy_head, cs_ring_head_reg(e), __ATOMIC_RELAXED);
	__atomic_store_n(&e->busy_acthd, at | 1, __ATOMIC_RELEASE);
	enum cs_result r = cs_execute(e, d, dw, len);
	__atomic_store_n(&e->busy_acthd, 0, __ATOMIC_RELEASE);
	return r;
}

static void advance(struct gt_engine *e, uint32_t len)
{
	if (e->level == CS_RING) {
		if (e->next_head < e->head)
			e->head_wraps++;
		TRACE(TRACE_CS, "%s: HEAD 0x%x -> 0x%x (TAIL 0x%x)", e->name,
		      e->head, e->next_head, e->tail);
		e->head = e->next_head;
	} else {
		e->bb[e->level].addr += len * 4ull;
	}
}

/* Let MMIO callers (resets, hangcheck reading ACTHD, TAIL writes) in
 * between two commands. */
static void let_waiters_in(struct gt_engine *e)
{
	if (!__atomic_load_n(&e->waiters, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_unlock(&e->lock);
	while (__atomic_load_n(&e->waiters, __ATOMIC_SEQ_CST))
		sched_yield();
	pthread_mutex_lock(&e->lock);
}

/* Commands until idle, stopped, reset or quit; the context's run time
 * (RING_CTX_TIMESTAMP) counts meanwhile. */
static void run_commands(struct gt_engine *e)
{
	while (!e->quit && !e->reset_req && !e->stopped && !e->preempted) {
		let_waiters_in(e);
		if (e->quit || e->reset_req || e->stopped || e->preempted)
			break;
		/* MI_MODE Stop Ring: nothing runs until it is cleared or the
		 * engine is reset (i915 sets it before a reset). */
		if (e->stop_ring)
			break;
		if (e->level == CS_RING && e->head == e->tail)
			cs_take_posted_tail(e);
		if (e->level == CS_RING &&
		    (!(e->ring_ctl & REG_RING_CTL_RING_BUFFER_ENABLE_MASK) || e->head == e->tail))
			break;
		cs_ctx_time_run(e);
		enum cs_result r = step(e);
		if (r == CS_FAULT && __atomic_load_n(&e->abort, __ATOMIC_ACQUIRE))
			r = CS_ABORTED;   /* the command stopped for a reset */
		if (r == CS_NEXT) {
			advance(e, e->cmd_len);
			if (e->level == CS_RING && e->head == e->tail)
				cs_ctx_time_ring_empty(e);
			continue;
		}
		if (r == CS_JUMPED) {
			if (e->preempted) {   /* stopped at an arbitration point */
				cs_notify_preempted(e);
				break;
			}
			continue;
		}
		if (r == CS_ABORTED)
			break;
		/* A GPU fault: the engine stops until engine_reset(). */
		e->stopped = true;
		cs_reg_write(e, e->base + REG_RING_IPEHR, e->cmd[0]);
		cs_reg_write(e, e->base + REG_RING_EIR, cs_reg_read(e, e->base + REG_RING_EIR) |
			     REG_RING_EIR_INSTRUCTION_ERROR_MASK);
		TRACE(TRACE_CS, "%s: GPU fault: %s", e->name, e->fault_reason);
		char reason[sizeof(e->fault_reason)];
		memcpy(reason, e->fault_reason, sizeof(reason));
		if (e->cb.fault) {
			struct engine_callbacks cb = cs_callback_begin(e);
			cb.fault(cb.data, e, reason);
			cs_callback_end(e);
		}
		break;
	}
}

void cs_run(struct gt_engine *e)
{
	run_commands(e);
	cs_ctx_time_stop(e);
}
