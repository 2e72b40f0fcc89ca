/* Engine lifetime, its host thread, MMIO and reset (engine.h). */
#include "gpu/cs/cs.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/thread.h"
#include "common/trace.h"
#include "gpu/cs/state.h"
#include "gpu/eu/exec.h"

enum gt_engine_id engine_id(const struct gt_engine *e)
{
	return e->id;
}

/* An idle engine thread spins this long for a new TAIL before it sleeps,
 * so that a client submitting back to back does not pay a futex wake and
 * two context switches per batch (about as long as such a wake costs; an
 * engine with nothing to do still sleeps). */
#define IDLE_SPIN_NS 10000

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Async TAIL writes are posted without the engine lock (engine_mmio_write);
 * whoever holds the lock next applies the newest one. */
static void apply_posted(struct gt_engine *e, uint32_t v)
{
	if (v)
		cs_reg_write(e, e->base + RING_TAIL, v & ~CS_TAIL_POSTED);
}

void cs_take_posted_tail(struct gt_engine *e)
{
	if (__atomic_load_n(&e->posted_tail, __ATOMIC_RELAXED))
		apply_posted(e, __atomic_exchange_n(&e->posted_tail, 0, __ATOMIC_ACQUIRE));
}

/* Take the engine lock from outside the executing thread: announce the
 * wait so that a runner busy with a long stream of commands lets go of the
 * lock between two commands (cs_run). */
static void lock_engine(struct gt_engine *e)
{
	__atomic_add_fetch(&e->waiters, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&e->lock);
	__atomic_sub_fetch(&e->waiters, 1, __ATOMIC_SEQ_CST);
	cs_take_posted_tail(e);
}

void engine_pause(struct gt_engine *e)
{
	lock_engine(e);
}

void engine_unpause(struct gt_engine *e)
{
	pthread_mutex_unlock(&e->lock);
}

static bool has_work(const struct gt_engine *e)
{
	if (e->stopped || e->stop_ring || e->reset_req || e->quit || e->preempted ||
	    __atomic_load_n(&e->abort, __ATOMIC_ACQUIRE))
		return false;
	if (e->level != CS_RING)
		return true;
	return (e->ring_ctl & REG_RING_CTL_RING_BUFFER_ENABLE_MASK) && e->head != e->tail;
}

/* Run with e->lock held; marks the engine as running meanwhile. */
/* This thread's Linux id (not cached: a fork child's thread has another). */
static int self_tid(void)
{
	return (int)syscall(SYS_gettid);
}

static void run_locked(struct gt_engine *e)
{
	e->running = true;
	__atomic_store_n(&e->run_tid, self_tid(), __ATOMIC_RELEASE);
	exec_watch_abort(&e->abort, &e->arb_checks);
	cs_run(e);
	exec_watch_abort(NULL, NULL);   /* in sync mode this is a client's thread */
	__atomic_store_n(&e->run_tid, 0, __ATOMIC_RELEASE);
	e->running = false;
	pthread_cond_broadcast(&e->idle);
}

/* With the lock dropped, wait until a TAIL is posted or IDLE_SPIN_NS
 * passed. */
static void spin_for_tail(struct gt_engine *e)
{
	pthread_mutex_unlock(&e->lock);
	uint64_t deadline = 0;
	for (unsigned i = 1; !__atomic_load_n(&e->posted_tail, __ATOMIC_RELAXED); i++) {
		cpu_relax();
		if (i % 32)
			continue;
		uint64_t now = cs_now_ns();
		if (!deadline)
			deadline = now + IDLE_SPIN_NS;
		else if (now >= deadline)
			break;
	}
	pthread_mutex_lock(&e->lock);
}

static void *engine_thread(void *arg)
{
	struct gt_engine *e = arg;
	bool just_ran = false;

	__atomic_store_n(&e->host_tid, self_tid(), __ATOMIC_RELEASE);
	pthread_mutex_lock(&e->lock);
	for (;;) {
		cs_take_posted_tail(e);
		if (e->quit)
			break;
		if (!e->running && has_work(e)) {
			run_locked(e);
			just_ran = true;
			continue;
		}
		if (just_ran && !e->gpu->sync) {
			just_ran = false;
			spin_for_tail(e);
			continue;
		}
		/* Sleep. A TAIL posted from here on sees `sleeping` and signals
		 * (both sides are sequentially consistent: one of them sees the
		 * other's write). Everything else changes under the lock. */
		__atomic_store_n(&e->sleeping, 1, __ATOMIC_SEQ_CST);
		apply_posted(e, __atomic_exchange_n(&e->posted_tail, 0, __ATOMIC_SEQ_CST));
		if (!e->quit && (e->running || !has_work(e)))
			pthread_cond_wait(&e->wake, &e->lock);
		__atomic_store_n(&e->sleeping, 0, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

struct gt_engine *engine_create(struct gt_gpu *gpu, enum gt_engine_id id, const void *handlers)
{
	if ((unsigned)id >= GT_NUM_ENGINES)
		return NULL;
	struct gt_engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->gpu = gpu;
	e->id = id;
	e->handlers = handlers;
	e->base = engine_mmio_base(id);
	e->name = engine_name(id);
	e->cmd = calloc(CS_MAX_CMD_DWORDS, sizeof(uint32_t));
	e->state = cs_state_create();
	e->timestamp_t0_ns = cs_now_ns();
	if (!e->cmd || !e->state)
		goto fail;
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->wake, NULL);
	pthread_cond_init(&e->idle, NULL);
	if (gt_thread_create(&e->thread, engine_thread, e)) {
		pthread_cond_destroy(&e->idle);
		pthread_cond_destroy(&e->wake);
		pthread_mutex_destroy(&e->lock);
		goto fail;
	}
	return e;
fail:
	cs_state_destroy(e->state);
	free(e->cmd);
	free(e);
	return NULL;
}

/* In a fork child: the copy of an idle engine gets a thread of its own
 * (fork copies only the calling thread) and fresh locks (the parent's
 * thread may have been waiting on a condition variable at the fork). */
int engine_fork_child(struct gt_engine *e)
{
	memset(&e->wake, 0, sizeof(e->wake));
	memset(&e->idle, 0, sizeof(e->idle));
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->wake, NULL);
	pthread_cond_init(&e->idle, NULL);
	e->sleeping = 0;
	e->cb_running = 0;   /* the callers were the parent's threads */
	e->quit = false;
	e->host_tid = 0;
	e->run_tid = 0;
	return gt_thread_create(&e->thread, engine_thread, e) ? -1 : 0;
}

void engine_destroy(struct gt_engine *e)
{
	if (!e)
		return;
	__atomic_store_n(&e->abort, 1, __ATOMIC_RELEASE);
	lock_engine(e);
	e->quit = true;
	pthread_cond_broadcast(&e->wake);
	pthread_mutex_unlock(&e->lock);
	pthread_join(e->thread, NULL);
	pthread_cond_destroy(&e->idle);
	pthread_cond_destroy(&e->wake);
	pthread_mutex_destroy(&e->lock);
	cs_context_images_free(e);
	cs_state_destroy(e->state);
	free(e->cmd);
	free(e);
}

void engine_set_callbacks(struct gt_engine *e, const struct engine_callbacks *cb)
{
	lock_engine(e);
	if (cb)
		e->cb = *cb;
	else
		memset(&e->cb, 0, sizeof(e->cb));
	/* a callback that began with the old ones may still use what they
	 * point to (the kernel frees it once they are cleared) */
	while (e->cb_running)
		pthread_cond_wait(&e->idle, &e->lock);
	pthread_mutex_unlock(&e->lock);
}

struct engine_callbacks cs_callback_begin(struct gt_engine *e)
{
	struct engine_callbacks cb = e->cb;
	e->cb_running++;
	pthread_mutex_unlock(&e->lock);
	return cb;
}

void cs_callback_end(struct gt_engine *e)
{
	pthread_mutex_lock(&e->lock);
	if (!--e->cb_running)
		pthread_cond_broadcast(&e->idle);
}

uint32_t engine_mmio_read(struct gt_engine *e, uint32_t reg)
{
	lock_engine(e);
	uint32_t v = cs_reg_read(e, e->base + reg);
	pthread_mutex_unlock(&e->lock);
	return v;
}

/* A TAIL write starts the engine: the thread in async mode, the caller
 * itself in sync mode (GTSIM_SYNC). */
static void kick(struct gt_engine *e)
{
	if (!e->gpu->sync) {
		pthread_cond_signal(&e->wake);
		return;
	}
	while (has_work(e)) {
		if (!e->running) {
			run_locked(e);
			continue;
		}
		pthread_cond_wait(&e->idle, &e->lock);
	}
}

/* Async TAIL write without the engine lock: posted for the engine thread
 * (spinning for it, running, or woken here when asleep). Traced writes
 * take the locked path so that trace lines keep their order. */
static bool post_tail(struct gt_engine *e, uint32_t val)
{
	if (e->gpu->sync || trace_on(TRACE_REG) || trace_on(TRACE_CS))
		return false;
	__atomic_store_n(&e->posted_tail, (val & REG_RING_TAIL_TAIL_OFFSET_MASK) | CS_TAIL_POSTED,
			 __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&e->sleeping, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&e->lock);
		pthread_cond_signal(&e->wake);
		pthread_mutex_unlock(&e->lock);
	}
	return true;
}

void engine_mmio_write(struct gt_engine *e, uint32_t reg, uint32_t val)
{
	if (reg == RING_TAIL && post_tail(e, val))
		return;
	lock_engine(e);
	cs_reg_write(e, e->base + reg, val);
	if (reg == RING_TAIL || reg == RING_CTL || reg == REG_RING_MI_MODE)
		kick(e);   /* MI_MODE: Stop Ring may have been cleared */
	pthread_mutex_unlock(&e->lock);
}

/* The command being executed holds the lock as long as it runs (a walker
 * may run for minutes): what it published is read instead (busy_acthd,
 * busy_head); true with *busy set, or the lock taken (false). */
static bool lock_or_busy(struct gt_engine *e, uint64_t *busy)
{
	__atomic_add_fetch(&e->waiters, 1, __ATOMIC_SEQ_CST);
	while (pthread_mutex_trylock(&e->lock)) {
		if ((*busy = __atomic_load_n(&e->busy_acthd, __ATOMIC_ACQUIRE))) {
			__atomic_sub_fetch(&e->waiters, 1, __ATOMIC_SEQ_CST);
			return true;
		}
		sched_yield();
	}
	__atomic_sub_fetch(&e->waiters, 1, __ATOMIC_SEQ_CST);
	cs_take_posted_tail(e);
	return false;
}

uint64_t engine_acthd(struct gt_engine *e)
{
	uint64_t busy;
	if (lock_or_busy(e, &busy))
		return busy & ~1ull;
	uint64_t a = cs_acthd(e);
	pthread_mutex_unlock(&e->lock);
	return a;
}

uint32_t engine_ring_head(struct gt_engine *e)
{
	uint64_t busy;
	if (lock_or_busy(e, &busy))
		return __atomic_load_n(&e->busy_head, __ATOMIC_RELAXED);
	uint32_t v = cs_reg_read(e, e->base + RING_HEAD);
	pthread_mutex_unlock(&e->lock);
	return v;
}

bool engine_is_idle(struct gt_engine *e)
{
	lock_engine(e);
	bool idle = !e->running && e->level == CS_RING && e->head == e->tail;
	pthread_mutex_unlock(&e->lock);
	return idle;
}

bool engine_load_ring(struct gt_engine *e, uint32_t start, uint32_t ctl, uint32_t head,
		      uint32_t tail)
{
	lock_engine(e);
	bool idle = !e->running && e->level == CS_RING && e->head == e->tail && !e->stopped &&
		    !e->preempted && !e->reset_req;
	if (idle) {
		/* all four at once, as a context restore loads them: the
		 * engine never sees a mix of the two rings */
		cs_reg_write(e, e->base + RING_START, start);
		cs_reg_write(e, e->base + RING_CTL, ctl);
		cs_reg_write(e, e->base + RING_HEAD, head);
		cs_reg_write(e, e->base + RING_TAIL, tail);
		kick(e);
	}
	pthread_mutex_unlock(&e->lock);
	return idle;
}

void engine_request_preemption(struct gt_engine *e, bool on)
{
	__atomic_store_n(&e->preempt_req, on ? 1u : 0u, __ATOMIC_RELEASE);
}

bool engine_preempted(struct gt_engine *e, struct engine_preempt_point *pt)
{
	lock_engine(e);
	bool stopped = e->preempted;
	if (stopped && pt)
		*pt = e->preempt_pt;
	pthread_mutex_unlock(&e->lock);
	return stopped;
}

bool engine_is_stopped(struct gt_engine *e, char *reason, size_t size)
{
	lock_engine(e);
	bool stopped = e->stopped;
	if (stopped && reason && size)
		snprintf(reason, size, "%s", e->fault_reason);
	pthread_mutex_unlock(&e->lock);
	return stopped;
}

bool engine_wait_idle(struct gt_engine *e, uint64_t timeout_ns)
{
	uint64_t deadline = cs_now_ns() + timeout_ns;
	bool idle;

	lock_engine(e);
	for (;;) {
		idle = !e->running && e->level == CS_RING && e->head == e->tail;
		if (idle || e->stopped || cs_now_ns() >= deadline)
			break;
		if (!e->running && !has_work(e))
			break;
		struct timespec ts = gt_abstime_in(CLOCK_REALTIME, 1000000);
		pthread_cond_timedwait(&e->idle, &e->lock, &ts);
	}
	pthread_mutex_unlock(&e->lock);
	return idle;
}

uint64_t engine_commands(struct gt_engine *e)
{
	lock_engine(e);
	uint64_t n = e->commands;
	pthread_mutex_unlock(&e->lock);
	return n;
}

uint64_t engine_progress_marks(struct gt_engine *e)
{
	return __atomic_load_n(&e->arb_checks, __ATOMIC_RELAXED) +
	       __atomic_load_n(&e->arb_passes_off, __ATOMIC_RELAXED);
}

uint64_t engine_arb_checks(struct gt_engine *e)
{
	return __atomic_load_n(&e->arb_checks, __ATOMIC_RELAXED);
}

bool engine_host_times(struct gt_engine *e, struct engine_host_times *t)
{
	/* /proc/<tid>/schedstat: "time on the CPU, time waiting on a run
	 * queue (counted when the wait ends), timeslices" in ns
	 * (Documentation/scheduler/sched-stats.rst); stat's third field is
	 * the state, R for running or waiting for a CPU (proc(5)) */
	/* the thread running the ring: in sync mode (GTSIM_SYNC) a client's,
	 * whose waits for a CPU count as the engine's (a 100 ms hangcheck
	 * reset a sync-mode draw on a loaded host when only the idle engine
	 * thread's were looked at) */
	int tid = __atomic_load_n(&e->run_tid, __ATOMIC_ACQUIRE);
	if (!tid)
		tid = __atomic_load_n(&e->host_tid, __ATOMIC_ACQUIRE);
	if (!tid)
		return false;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	unsigned long long on_cpu = 0, runq = 0;
	bool ok = fscanf(f, "%llu %llu", &on_cpu, &runq) == 2;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	char state = 0;
	if (f) {
		/* "tid (comm) S ...": comm may hold spaces, the state follows
		 * the last ')' */
		char buf[256];
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		char *p = strrchr(buf, ')');
		if (p && p[1] == ' ')
			state = p[2];
		fclose(f);
	}
	t->on_cpu_ns = on_cpu;
	t->runq_ns = runq;
	t->runnable = state == 'R';
	return ok;
}

bool engine_host_compiling(void)
{
	return exec_jit_compiling() != 0;
}

const struct cs_state *engine_state(struct gt_engine *e)
{
	return e->state;
}

void engine_forget_context(struct gt_engine *e, uint32_t addr)
{
	lock_engine(e);
	cs_context_forget(e, addr);
	pthread_mutex_unlock(&e->lock);
}

void engine_abort_command(struct gt_engine *e)
{
	__atomic_store_n(&e->abort, 1, __ATOMIC_RELEASE);
	lock_engine(e);
	pthread_mutex_unlock(&e->lock);
}

/* Is ring offset h inside [from, to) (which may wrap)? */
static bool ring_within(uint32_t h, uint32_t from, uint32_t to)
{
	return from <= to ? h >= from && h < to : h >= from || h < to;
}

/* Stop the engine (the running command unwinds: EU threads poll abort),
 * then restart at restart_head, or, with started given, at restart_head
 * only when the engine was within [restart_head, replay_to) (*started:
 * it had gone past restart_head) and else where it was. */
static bool reset_at(struct gt_engine *e, uint32_t restart_head, bool *started,
		     uint32_t replay_to)
{
	__atomic_store_n(&e->abort, 1, __ATOMIC_RELEASE);
	lock_engine(e);
	e->reset_req = true;
	pthread_cond_broadcast(&e->wake);
	while (e->running)
		pthread_cond_wait(&e->idle, &e->lock);
	restart_head &= REG_RING_HEAD_HEAD_OFFSET_MASK;
	bool replay = true;
	if (started) {
		replay = ring_within(e->head, restart_head, replay_to & REG_RING_HEAD_HEAD_OFFSET_MASK);
		*started = replay && (e->head != restart_head || e->level != CS_RING);
		if (!replay)
			restart_head = e->head;
	}
	TRACE(TRACE_CS, "%s: reset at ACTHD 0x%llx, HEAD 0x%x -> 0x%x%s",
	      e->name, (unsigned long long)cs_acthd(e), e->head, restart_head,
	      started && replay ? " (replay)" : "");
	e->level = CS_RING;
	memset(e->bb, 0, sizeof(e->bb));
	cs_ring_prefetch_drop(e);   /* the kernel may have rewritten the ring */
	e->head = restart_head;
	if (e->head >= cs_ring_size(e))
		e->head = 0;
	e->stopped = false;
	e->preempted = false;
	e->arb_disabled = false;
	/* the reset clears MI_MODE's Stop Ring */
	cs_reg_write(e, e->base + REG_RING_MI_MODE, REG_RING_MI_MODE_STOP_RING_MASK << 16);
	e->fault_reason[0] = 0;
	e->reset_req = false;
	__atomic_store_n(&e->abort, 0, __ATOMIC_RELEASE);
	/* The rest of the ring runs on the engine's thread, in sync mode too:
	 * the caller (hangcheck) must not be the one to run it. */
	pthread_cond_broadcast(&e->wake);
	pthread_mutex_unlock(&e->lock);
	return replay;
}

void engine_reset(struct gt_engine *e, uint32_t restart_head)
{
	reset_at(e, restart_head, NULL, 0);
}

bool engine_reset_replay(struct gt_engine *e, uint32_t from, uint32_t to, bool *started)
{
	*started = false;
	return reset_at(e, from, started, to);
}
