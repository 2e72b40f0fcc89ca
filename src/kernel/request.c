/* Requests and their life (seed 002): creation, seqno assignment and
 * submission into the ring, completion from the status page on
 * MI_USER_INTERRUPT, retirement that drops the objects' active references. */
#include "kernel/request.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <time.h>

#include "common/sigdefer.h"
#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "kernel/context.h"
#include "kernel/object.h"
#include "kernel/scheduler.h"
#include "kernel/server/userptr_shadow.h"
#include "kernel/sync/fence.h"
#include "kernel/vm.h"

struct gem_request *request_get(struct gem_request *rq)
{
	__atomic_add_fetch(&rq->refcount, 1, __ATOMIC_RELAXED);
	return rq;
}

void request_put(struct gem_request *rq)
{
	if (!rq || __atomic_sub_fetch(&rq->refcount, 1, __ATOMIC_ACQ_REL))
		return;
	for (unsigned i = 0; i < rq->ndeps; i++)
		fence_put(rq->deps[i]);
	free(rq->deps);
	for (unsigned i = 0; i < rq->nsema; i++)
		fence_put(rq->sema[i].signal);
	if (rq->objs != rq->objs_inline)
		free(rq->objs);
	if (rq->objs_write != rq->objs_write_inline)
		free(rq->objs_write);
	free(rq->capture);
	free(rq->capture_addr);
	fence_put(rq->fence);
	free(rq);
}

bool request_completed(const struct gem_request *rq)
{
	return __atomic_load_n(&rq->signaled, __ATOMIC_ACQUIRE) ||
	       (rq->emitted && seqno_passed(engine_hws_seqno(rq->engine), rq->seqno));
}

/* A request with its fence, of no context yet. */
static struct gem_request *request_alloc(struct rq_engine *e)
{
	struct gem_request *rq = calloc(1, sizeof(*rq));
	if (!rq)
		return NULL;
	rq->fence = fence_create();
	if (!rq->fence) {
		free(rq);
		return NULL;
	}
	fence_mark_request(rq->fence);
	rq->refcount = 1;
	rq->engine = e;
	rq->objs = rq->objs_inline;
	rq->objs_write = rq->objs_write_inline;
	list_init(&rq->link);
	return rq;
}

struct gem_request *request_create(struct rq_engine *e, struct gem_context *ctx)
{
	struct gem_request *rq = request_alloc(e);
	if (!rq)
		return NULL;
	rq->ctx = ctx_get(ctx);
	rq->pml4 = ctx->vm->gt.pml4;
	return rq;
}

/* Dependencies all signaled? Drops them once they are. */
bool request_deps_ready(struct gem_request *rq)
{
	for (unsigned i = 0; i < rq->ndeps; i++)
		if (!fence_is_signaled(rq->deps[i]))
			return false;
	for (unsigned i = 0; i < rq->ndeps; i++)
		fence_put(rq->deps[i]);
	rq->ndeps = 0;
	return true;
}

bool request_sema_blocked(const struct gem_request *rq)
{
	/* the compare of the emitted MI_SEMAPHORE_WAIT (SAD >= SDD) */
	for (unsigned i = 0; i < rq->nsema; i++)
		if (__atomic_load_n(rq->sema[i].host, __ATOMIC_ACQUIRE) < rq->sema[i].value)
			return true;
	return false;
}

/* The loaded ring's HEAD as the engine has it, taken as how far the ring
 * is consumed only when it lies between the last known head and the
 * ring's emit: just after a preemption unwound the ring (preempt.c) the
 * stopped engine's HEAD is still past the new emit until its restart,
 * and taken then it made the ring look full (16 KiB in use), so that an
 * execbuf throttled on a spinner that only its own client would end.
 * Engine lock held. */
static void ring_head_refresh(struct rq_engine *e, struct ctx_ring *r)
{
	uint32_t head = engine_ring_head(e->hw) & REG_RING_HEAD_HEAD_OFFSET_MASK;
	if (ring_span_has(r, r->space_head, head, r->emit))
		r->space_head = head;
}

uint32_t ring_space(struct rq_engine *e, struct ctx_ring *r)
{
	uint32_t space = (r->space_head - r->emit - 64) & (r->size - 1);
	/* a ring not loaded has nothing of its own in flight (ring_switch) */
	if (space >= REQUEST_MAX_BYTES || r != e->cur)
		return space;
	ring_head_refresh(e, r);
	return (r->space_head - r->emit - 64) & (r->size - 1);
}

/* Execlists' context switch (i915's execlists_dequeue; BDW PRM vol. 7
 * "Execlists"): the engine runs the ring of one context at a time, loaded
 * from the context image's RING_START/CTL/HEAD/TAIL. r can take requests
 * when it is the loaded ring, or once every request emitted into the
 * loaded one completed and the engine went idle: the outgoing image
 * keeps its HEAD and TAIL, the engine loads r's. (i915 keeps a second
 * context in ELSP's second port meanwhile; here the next context is loaded
 * when the first is done, by the submitter or the kernel worker.) Engine
 * lock held; false when r must wait. */
static bool ring_switch(struct rq_engine *e, struct ctx_ring *r)
{
	struct ctx_ring *old = e->cur;
	if (r == old)
		return true;
	if (!list_empty(&e->requests) &&
	    list_entry(e->requests.next, struct gem_request, link)->emitted)
		return false;
	pthread_mutex_lock(&e->kick_lock);
	/* what was written into the loaded ring runs first (the kernel
	 * context's set-up commands: no request follows them) */
	uint32_t tail = __atomic_load_n(&e->emitted_tail, __ATOMIC_ACQUIRE);
	if (tail != e->kicked_tail) {
		e->kicked_tail = tail;
		engine_mmio_write(e->hw, RING_TAIL, tail);
	}
	bool idle = engine_load_ring(e->hw, r->state[CTX_RING_START], r->state[CTX_RING_CTL],
				     r->state[CTX_RING_HEAD], r->state[CTX_RING_TAIL]);
	if (idle) {
		old->state[CTX_RING_HEAD] = old->state[CTX_RING_TAIL] = old->emit;
		old->space_head = old->emit;
		e->cur = r;
		r->space_head = r->state[CTX_RING_HEAD];
		__atomic_store_n(&e->emitted_tail, r->emit, __ATOMIC_RELEASE);
		e->kicked_tail = r->emit;
		TRACE(TRACE_GEM, "%s: context switch: ring at GGTT 0x%llx loaded (HEAD 0x%x)",
		      engine_name(e->id), (unsigned long long)r->ggtt, r->emit);
	}
	pthread_mutex_unlock(&e->kick_lock);
	return idle;
}

/* Ready for emission now: its dependencies, its ring loaded, room there. */
static bool can_emit(struct rq_engine *e, struct gem_request *rq)
{
	return ring_switch(e, rq->ring) && ring_space(e, rq->ring) >= REQUEST_MAX_BYTES;
}

static void emit_locked(struct rq_engine *e, struct gem_request *rq)
{
	rq->seqno = ++e->next_seqno;
	rq->emission = ++e->serial;
	ring_emit_request(e, rq);
	rq->emitted = true;
	fence_mark_started(rq->fence);   /* an unwound request stays started */
	TRACE(TRACE_GEM, "%s: request seqno %u (context %u) emitted at ring 0x%x..0x%x%s",
	      engine_name(e->id), rq->seqno, rq->ctx ? rq->ctx->hw_id : 0, rq->head, rq->tail,
	      rq->skip ? ", batch skipped" : "");
}

bool request_submit(struct gem_request *rq)
{
	struct rq_engine *e = rq->engine;
	bool emitted = false;

	request_get(rq);    /* the engine list's reference */
	rq->queued_ns = fence_now_ns();
	e->unretired++;
	pthread_mutex_lock(&e->lock);
	list_add_tail(&e->requests, &rq->link);
	if (!e->queued && request_deps_ready(rq) && can_emit(e, rq)) {
		emit_locked(e, rq);
		emitted = true;
	} else {
		e->queued++;
		rq->ring->queued++;
		TRACE(TRACE_GEM, "%s: request queued (%u dependencies, %u ahead, priority %d)",
		      engine_name(e->id), rq->ndeps, e->queued - 1, rq->priority);
	}
	/* A request that may take the engine from the running one (a higher
	 * priority, or an equal one of another context: a timeslice) wakes
	 * the worker, which decides (preempt.c). */
	struct gem_request *running = engine_running_request(e);
	bool contender = running && running != rq && rq->priority >= running->priority &&
			 (rq->priority > running->priority || running->ctx != rq->ctx);
	pthread_mutex_unlock(&e->lock);
	if (!emitted || contender)
		worker_wake(e->dev);
	return emitted;
}

bool requests_emit_ready_locked(struct rq_engine *e)
{
	bool emitted = false;
	struct gem_request *rq;
	while (e->queued && (rq = sched_pick(&e->requests)) != NULL && can_emit(e, rq)) {
		/* Emitted requests stay a prefix of the list, in seqno order. */
		list_del(&rq->link);
		list_add_tail(sched_first_queued(&e->requests), &rq->link);
		emit_locked(e, rq);
		e->queued--;
		rq->ring->queued--;
		emitted = true;
	}
	return emitted;
}

struct gem_request *engine_running_request(struct rq_engine *e)
{
	if (list_empty(&e->requests))
		return NULL;
	struct gem_request *rq = list_entry(e->requests.next, struct gem_request, link);
	return rq->emitted && !rq->signaled ? rq : NULL;
}

struct gem_request *request_create_kernel(struct rq_engine *e, int priority)
{
	struct gem_request *rq = request_alloc(e);
	if (!rq)
		return NULL;
	rq->skip = true;
	rq->pulse = true;
	rq->ring = lrc_slot_ring(e, 0);   /* the kernel context's */
	rq->priority = priority;
	return rq;
}

bool requests_emit_ready(struct rq_engine *e)
{
	bool emitted, remain;
	pthread_mutex_lock(&e->lock);
	emitted = requests_emit_ready_locked(e);
	remain = e->queued > 0;
	/* A context switch waits for the engine to go idle: the last
	 * request's breadcrumb has completed, a few commands are left. */
	bool drained = remain && !emitted && !list_empty(&e->requests) &&
		       !list_entry(e->requests.next, struct gem_request, link)->emitted;
	pthread_mutex_unlock(&e->lock);
	if (drained && engine_wait_idle(e->hw, 2000000)) {
		pthread_mutex_lock(&e->lock);
		emitted = requests_emit_ready_locked(e);
		remain = e->queued > 0;
		pthread_mutex_unlock(&e->lock);
	}
	if (emitted)
		request_kick(e);
	return remain;
}

/* Bytes of ring r in use once its queued requests are emitted too (each
 * at its longest), after its requests up to `done` completed: the space
 * i915 reserves in the context's ring at request creation. Engine lock
 * held. */
static uint32_t ring_used_after(struct rq_engine *e, struct ctx_ring *r,
				const struct gem_request *done)
{
	uint32_t head = done && done->emitted ? done->tail : r->space_head;
	uint32_t used = (r->emit - head) & (r->size - 1);
	unsigned queued = r->queued;
	if (done && !done->emitted) {
		/* done is queued: everything emitted and the queued requests
		 * up to it completed. */
		used = 0;
		struct list_node *n, *t;
		list_for_each_safe(n, t, &e->requests) {
			const struct gem_request *rq = list_entry(n, struct gem_request, link);
			if (rq->ring == r && !rq->emitted)
				queued--;
			if (rq == done)
				break;
		}
	}
	return used + queued * REQUEST_RESERVE_BYTES;
}

/* i915's eb_throttle on the context's ring: with less than a page of it
 * free, the first of its requests whose completion leaves more than half
 * of it free, else NULL. Its requests queued for emission count as if in
 * the ring. Engine lock held. */
static struct gem_request *throttle_target(struct rq_engine *e, struct ctx_ring *r)
{
	const uint32_t usable = r->size - 64;
	if (r == e->cur)
		ring_head_refresh(e, r);
	if (ring_used_after(e, r, NULL) + GT_PAGE_SIZE <= usable)
		return NULL;
	struct list_node *n, *t;
	list_for_each_safe(n, t, &e->requests) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		if (rq->ring == r && ring_used_after(e, r, rq) < usable - r->size / 2)
			return rq;
	}
	return NULL;
}

bool request_throttle_needed(struct rq_engine *e, struct ctx_ring *r)
{
	if (!r)
		return false;
	pthread_mutex_lock(&e->lock);
	bool needed = throttle_target(e, r) != NULL;
	pthread_mutex_unlock(&e->lock);
	return needed;
}

static int futex_wait_ms(uint32_t *word, uint32_t seen, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	return (int)syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

/* A client that submits faster than the engine runs neither queues
 * requests without bound nor wakes up for each one that completes: it
 * sleeps until the target request completes (its interrupt bumps
 * e->throttle_seq, not every fence as fence_wait would), about once per
 * half ring. The wait is a futex wait with a timeout, which a signal
 * handler interrupts whatever its SA_RESTART (the restart block path
 * returns EINTR once a handler ran), as i915's eb_pin_timeline returns
 * -EINTR (not -ERESTARTSYS) when i915_request_wait is interrupted; the
 * 10 ms timeout re-reads the status page in case no interrupt comes. */
int request_throttle(struct rq_engine *e, struct ctx_ring *r, bool nonblock)
{
	if (!r)
		return 0;
	pthread_mutex_lock(&e->lock);
	struct gem_request *rq = throttle_target(e, r);
	if (rq) {
		request_get(rq);
		rq->throttled = true;
		TRACE(TRACE_GEM, "%s: throttle: ring at GGTT 0x%llx, %u bytes in use, %u requests "
		      "queued: waits for seqno %u (context %u)", engine_name(e->id),
		      (unsigned long long)r->ggtt, ring_used_after(e, r, NULL), r->queued, rq->seqno,
		      rq->ctx ? rq->ctx->hw_id : 0);
	}
	pthread_mutex_unlock(&e->lock);
	if (!rq)
		return 0;
	int err = 0;
	for (;;) {
		uint32_t seen = __atomic_load_n(&e->throttle_seq, __ATOMIC_ACQUIRE);
		if (request_completed(rq))
			break;
		if (nonblock) {
			err = -EWOULDBLOCK;
			break;
		}
		/* the one wait here a signal may interrupt (common/sigdefer.h):
		 * no lock is held */
		bool interrupted = sigdefer_open();
		if (!interrupted)
			interrupted = futex_wait_ms(&e->throttle_seq, seen, 10) < 0 && errno == EINTR;
		interrupted |= sigdefer_close();
		if (interrupted) {
			err = -EINTR;
			break;
		}
	}
	request_put(rq);
	return err;
}

void request_kick(struct rq_engine *e)
{
	pthread_mutex_lock(&e->kick_lock);
	uint32_t tail = __atomic_load_n(&e->emitted_tail, __ATOMIC_ACQUIRE);
	if (tail != e->kicked_tail) {
		e->kicked_tail = tail;
		engine_mmio_write(e->hw, RING_TAIL, tail);
	}
	pthread_mutex_unlock(&e->kick_lock);
}

/* A request that waited for another engine's on a GPU semaphore
 * (execbuf_sema.c) is done only after that one; on i915 the signaler's
 * fence then reads as signaled (dma_fence_is_signaled asks
 * i915_request_completed, the seqno in memory), even before its engine's
 * interrupt is handled. So the signalers are signaled first: their seqno
 * has passed (ring_emit.c writes it before the timeline dword the
 * semaphore polls). One another thread is signaling right now is waited
 * for (bounded: a reset may hold it back). */
static void signal_semaphore_signalers(struct gem_request *rq)
{
	for (unsigned i = 0; i < rq->nsema; i++) {
		struct gt_fence *f = rq->sema[i].signal;
		if (fence_is_signaled(f))
			continue;
		if (!fence_is_done(f))
			requests_signal_completed(&rq->engine->dev->requests->engine[rq->sema[i].engine]);
		/* signaled by another thread now, its early callbacks (a sync
		 * file turning readable) maybe still running */
		if (!fence_is_signaled(f))
			fence_wait(f, 100000000);
	}
}

void requests_signal_completed(struct rq_engine *e)
{
	struct gem_request *done[32];
	unsigned n;
	do {
		bool wake = false;
		n = 0;
		pthread_mutex_lock(&e->lock);
		if (list_empty(&e->requests)) {
			pthread_mutex_unlock(&e->lock);
			return;
		}
		uint32_t seqno = engine_hws_seqno(e);
		struct list_node *p, *t;
		list_for_each_safe(p, t, &e->requests) {
			struct gem_request *rq = list_entry(p, struct gem_request, link);
			if (!rq->emitted || !seqno_passed(seqno, rq->seqno) || n == 32)
				break;
			__atomic_store_n(&rq->signaled, true, __ATOMIC_RELEASE);
			wake |= rq->throttled;
			/* To the retire list, in order. */
			list_del(&rq->link);
			list_add_tail(&e->done, &rq->link);
			done[n++] = request_get(rq);
		}
		if (wake) {
			__atomic_add_fetch(&e->throttle_seq, 1, __ATOMIC_RELEASE);
			syscall(SYS_futex, &e->throttle_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
		}
		pthread_mutex_unlock(&e->lock);
		/* Outside the engine lock: fence callbacks may submit. */
		for (unsigned i = 0; i < n; i++) {
			TRACE(TRACE_GEM, "%s: seqno %u passed in the status page (%u): request done%s",
			      engine_name(e->id), done[i]->seqno, seqno,
			      done[i]->error ? " with an error" : "");
			/* a device server's userptr objects: the GPU's writes
			 * are in the client's memory before anyone sees the
			 * request done (server/userptr_shadow.h) */
			for (unsigned j = 0; j < done[i]->nobjs; j++)
				if (done[i]->objs[j]->shadow)
					userptr_shadow_sync(done[i]->objs[j]);
			signal_semaphore_signalers(done[i]);
			fence_signal(done[i]->fence, done[i]->error);
			request_put(done[i]);
		}
	} while (n == 32);
}

/* Drop everything a completed request holds. dev->lock held. */
void request_retire(struct gem_request *rq)
{
	enum gt_engine_id id = rq->engine->id;
	TRACE(TRACE_GEM, "%s: request seqno %u retired (%u objects released)",
	      engine_name(id), rq->seqno, rq->nobjs);
	for (unsigned i = 0; i < rq->nobjs; i++) {
		struct gem_object *obj = rq->objs[i];
		obj_drop_reader(obj, rq);
		if (obj->last_write == rq) {
			obj->last_write = NULL;
			request_put(rq);
		}
		obj_active_put(obj);
	}
	rq->nobjs = 0;
	rq->batch_obj = NULL;
	rq->ncapture = 0;
	ctx_put(rq->ctx);
	rq->ctx = NULL;
}

void requests_retire_engine(struct rq_engine *e)
{
	/* Every ioctl retires: an engine without requests costs no lock. */
	if (!e->unretired)
		return;
	requests_signal_completed(e);
	/* The retire list, in order, up to the first request whose fence the
	 * interrupt handler has not signalled yet (another thread may be
	 * signalling it right now): a request stays the object's last use,
	 * so that GEM_WAIT waits on it, until its fence has signalled. */
	struct list_node done;
	list_init(&done);
	pthread_mutex_lock(&e->lock);
	while (!list_empty(&e->done)) {
		struct gem_request *rq = list_entry(e->done.next, struct gem_request, link);
		if (!fence_is_signaled(rq->fence))
			break;
		list_del(&rq->link);
		list_add_tail(&done, &rq->link);
	}
	pthread_mutex_unlock(&e->lock);
	while (!list_empty(&done)) {
		struct gem_request *rq = list_entry(done.next, struct gem_request, link);
		list_del(&rq->link);
		e->unretired--;
		request_retire(rq);
		request_put(rq);
	}
}

void requests_retire(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	if (!r)
		return;
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		requests_retire_engine(&r->engine[i]);
}

/* The newest request of an engine whose fence has not signaled, or NULL:
 * one not completed yet, or one completed that a thread is signaling
 * right now (requests_signal_completed takes it off the list first; two
 * threads may signal two batches of them in either order), which
 * retiring would stop at. */
static struct gem_request *last_pending(struct rq_engine *e)
{
	struct gem_request *last = NULL;
	pthread_mutex_lock(&e->lock);
	if (!list_empty(&e->requests)) {
		struct gem_request *rq = list_entry(e->requests.prev, struct gem_request, link);
		if (!rq->signaled)
			last = request_get(rq);
	}
	for (struct list_node *n = e->done.prev; !last && n != &e->done; n = n->prev) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		if (!fence_is_signaled(rq->fence))
			last = request_get(rq);
	}
	pthread_mutex_unlock(&e->lock);
	return last;
}

/* Wait for every engine's requests (bounded per request when timeout_ns
 * >= 0). True when all completed. */
static bool wait_all(struct gem_requests *r, int64_t timeout_ns)
{
	bool idle = true;
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		struct gem_request *rq;
		while ((rq = last_pending(&r->engine[i]))) {
			int ret = fence_wait(rq->fence, timeout_ns);
			request_put(rq);
			if (ret) {
				idle = false;
				break;
			}
		}
	}
	return idle;
}

bool requests_wait_idle(struct gtsim_device *dev, int64_t timeout_ns)
{
	struct gem_requests *r = dev->requests;
	if (!r)
		return true;
	bool idle = wait_all(r, timeout_ns);
	pthread_mutex_lock(&dev->lock);
	requests_retire(dev);
	pthread_mutex_unlock(&dev->lock);
	return idle;
}

void requests_idle(struct gtsim_device *dev)
{
	requests_wait_idle(dev, -1);
}

/* Does the engine run something now, or could it (a queued request the
 * scheduler would emit)? */
static bool engine_has_runnable(struct rq_engine *e)
{
	pthread_mutex_lock(&e->lock);
	bool busy = engine_running_request(e) || (e->queued && sched_pick(&e->requests));
	pthread_mutex_unlock(&e->lock);
	return busy;
}

void requests_quiesce(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	if (!r)
		return;
	for (;;) {
		uint64_t seq = fence_wait_seq();
		bool busy = false;
		for (int i = 0; i < GT_NUM_ENGINES && !busy; i++)
			busy = engine_has_runnable(&r->engine[i]);
		if (!busy)
			break;
		fence_wait_change(seq, fence_now_ns() + 10000000);
	}
	/* A request is done at its user interrupt, while its engine's thread
	 * still runs the ring's last commands: a fork then would copy an
	 * engine marked running that no thread of the child runs (the child's
	 * engine never ran again and its reset waited for it forever: IGT
	 * gem_exec_fence syncobj-channel, about one run in 12 under load).
	 * So each engine's thread is waited for too (bounded: a stopped or
	 * faulted engine returns at once). */
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (r->engine[i].hw)
			engine_wait_idle(r->engine[i].hw, 1000000000ull);
	pthread_mutex_lock(&dev->lock);
	requests_retire(dev);
	pthread_mutex_unlock(&dev->lock);
}

/* interrupt and fault callbacks, on the engine's thread */
static void on_user_interrupt(void *data, struct gt_engine *hw)
{
	(void)hw;
	requests_signal_completed(data);
}

static void on_fault(void *data, struct gt_engine *hw, const char *reason)
{
	struct rq_engine *e = data;
	TRACE(TRACE_HANG, "%s: GPU fault: %s", engine_name(engine_id(hw)), reason);
	__atomic_store_n(&e->fault, true, __ATOMIC_RELEASE);
	worker_wake(e->dev);
}

/* A kernel object bound and pinned in the GGTT (outside the aperture). */
static struct gem_object *ggtt_object(struct gtsim_device *dev, uint64_t size, uint64_t *addr)
{
	int err;
	struct gem_object *obj = obj_create(dev, size, &err);
	struct gem_vma *vma;
	if (!obj)
		return NULL;
	if (vma_bind(dev->ggtt, obj, PIN_PIN | PIN_HIGH, 0, 0, &vma)) {
		obj_put(obj);
		return NULL;
	}
	*addr = vma->start;
	return obj;
}

static int engine_init(struct gtsim_device *dev, struct rq_engine *e, enum gt_engine_id id)
{
	e->dev = dev;
	e->id = id;
	e->hw = dev->gpu->engines[id];
	pthread_mutex_init(&e->lock, NULL);
	pthread_mutex_init(&e->kick_lock, NULL);
	list_init(&e->requests);
	list_init(&e->done);
	if (!e->hw)
		return -ENODEV;
	struct engine_callbacks cb = { on_user_interrupt, on_fault, e, on_preempted };
	engine_props_init(&e->props);
	engine_set_callbacks(e->hw, &cb);
	return 0;
}

int request_engine_setup(struct rq_engine *e)
{
	struct gtsim_device *dev = e->dev;
	if (e->cur)
		return 0;
	/* The kernel context's image slot (0, the default image) and ring:
	 * the default register image is recorded by the first commands the
	 * engine runs (i915 records engine->default_state at init). Then the
	 * status page, below them in the GGTT (the engine's address cache,
	 * gtt_walk.c, keeps it apart from a batch at PPGTT 0 there). */
	uint32_t dw[4];
	if (!e->lrc.nslots && !lrc_engine_setup(e, dw))
		return -ENOMEM;
	unsigned n = lrc_emit_call(dev->info->gen, dw, lrc_slot_ggtt(e, 0) + LRC_SAVE_OFFSET);
	uint64_t hws_ggtt;
	struct gem_object *hws = ggtt_object(dev, GT_PAGE_SIZE, &hws_ggtt);
	if (!hws)
		return -ENOSPC;
	e->hws_obj = hws;
	e->hws_ggtt = hws_ggtt;
	__atomic_store_n(&e->hws, (volatile uint32_t *)hws->map, __ATOMIC_RELEASE);
	struct ctx_ring *k = lrc_slot_ring(e, 0);
	/* Seed 004: the status page; the ring's GGTT address, HEAD and TAIL
	 * at 0, size and enable (from the kernel context's image). */
	engine_mmio_write(e->hw, RING_CTL, 0);
	engine_mmio_write(e->hw, RING_HWS_PGA, (uint32_t)e->hws_ggtt);
	engine_mmio_write(e->hw, RING_START, k->state[CTX_RING_START]);
	engine_mmio_write(e->hw, RING_HEAD, 0);
	engine_mmio_write(e->hw, RING_TAIL, 0);
	engine_mmio_write(e->hw, RING_CTL, k->state[CTX_RING_CTL]);
	engine_apply_whitelist(e);
	e->lrc_default = lrc_slot_ggtt(e, 0);
	__atomic_store_n(&e->cur, k, __ATOMIC_RELEASE);
	ring_emit_raw(e, dw, n);
	/* run them now, so that the first request's context switch finds
	 * the engine idle */
	request_kick(e);
	engine_wait_idle(e->hw, 1000000000ull);
	TRACE(TRACE_GEM, "%s: kernel context's ring at GGTT 0x%llx (%u bytes), status page at 0x%llx",
	      engine_name(e->id), (unsigned long long)k->ggtt, k->size,
	      (unsigned long long)e->hws_ggtt);
	return 0;
}

int requests_init(struct gtsim_device *dev)
{
	struct gem_requests *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	pthread_mutex_init(&r->worker_lock, NULL);
	pthread_cond_init(&r->worker_cond, NULL);
	dev->requests = r;
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		int err = engine_init(dev, &r->engine[i], (enum gt_engine_id)i);
		if (err)
			return err;   /* requests_fini() cleans up */
	}
	return worker_start(dev);
}

static void engine_fini(struct gtsim_device *dev, struct rq_engine *e)
{
	if (e->hw)
		engine_set_callbacks(e->hw, NULL);
	pthread_mutex_lock(&dev->lock);
	/* Whatever did not complete is abandoned with its objects. */
	struct list_node *n, *t;
	while (!list_empty(&e->done)) {
		struct list_node *d = e->done.next;
		list_del(d);
		list_add_tail(&e->requests, d);
	}
	list_for_each_safe(n, t, &e->requests) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		list_del(&rq->link);
		fence_mark_started(rq->fence);
		fence_signal(rq->fence, -EIO);
		request_retire(rq);
		request_put(rq);
	}
	request_put(e->pulse);
	e->pulse = NULL;
	obj_put(e->hws_obj);
	lrc_engine_fini(e);
	pthread_mutex_unlock(&dev->lock);
	pthread_mutex_destroy(&e->kick_lock);
	pthread_mutex_destroy(&e->lock);
}

void requests_fini(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	if (!r)
		return;
	/* Let running work finish (hangcheck resets hung engines meanwhile). */
	if (r->worker_started)
		wait_all(r, 10ll * 1000000000);
	worker_stop(dev);
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (r->engine[i].dev)
			engine_fini(dev, &r->engine[i]);
	free(r->error_state);
	pthread_cond_destroy(&r->worker_cond);
	pthread_mutex_destroy(&r->worker_lock);
	free(r);
	dev->requests = NULL;
}
