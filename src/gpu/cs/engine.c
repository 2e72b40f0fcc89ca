/* Engine lifetime, its host thread, MMIO and reset (engine.h). */
#include "gpu/cs/cs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cs/state.h"
#include "gpu/gpu_priv.h"

static const char *const names[GT_NUM_ENGINES] = {
	[ENGINE_RCS] = "rcs0", [ENGINE_BCS] = "bcs0",
	[ENGINE_VCS] = "vcs0", [ENGINE_VECS] = "vecs0",
};
static const uint32_t bases[GT_NUM_ENGINES] = {
	[ENGINE_RCS] = 0x2000, [ENGINE_BCS] = 0x22000,
	[ENGINE_VCS] = 0x12000, [ENGINE_VECS] = 0x1a000,
};

uint32_t engine_mmio_base(enum gt_engine_id id)
{
	return (unsigned)id < GT_NUM_ENGINES ? bases[id] : 0;
}

const char *engine_name(enum gt_engine_id id)
{
	return (unsigned)id < GT_NUM_ENGINES ? names[id] : "?";
}

enum gt_engine_id engine_id(const struct gt_engine *e)
{
	return e->id;
}

/* Take the engine lock from outside the executing thread: announce the
 * wait so that a runner busy with a long stream of commands lets go of the
 * lock between two commands (cs_run). */
static void lock_engine(struct gt_engine *e)
{
	__atomic_add_fetch(&e->waiters, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&e->lock);
	__atomic_sub_fetch(&e->waiters, 1, __ATOMIC_SEQ_CST);
}

static bool has_work(const struct gt_engine *e)
{
	if (e->stopped || e->reset_req || e->quit)
		return false;
	if (e->level != CS_RING)
		return true;
	return (e->ring_ctl & RING_CTL_ENABLE) && e->head != e->tail;
}

/* Run with e->lock held; marks the engine as running meanwhile. */
static void run_locked(struct gt_engine *e)
{
	e->running = true;
	cs_run(e);
	e->running = false;
	pthread_cond_broadcast(&e->idle);
}

static void *engine_thread(void *arg)
{
	struct gt_engine *e = arg;

	pthread_mutex_lock(&e->lock);
	for (;;) {
		while (!e->quit && (e->running || !has_work(e)))
			pthread_cond_wait(&e->wake, &e->lock);
		if (e->quit)
			break;
		run_locked(e);
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

struct gt_engine *engine_create(struct gt_gpu *gpu, enum gt_engine_id id)
{
	if ((unsigned)id >= GT_NUM_ENGINES)
		return NULL;
	struct gt_engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->gpu = gpu;
	e->id = id;
	e->base = bases[id];
	e->name = names[id];
	e->cmd = calloc(CS_MAX_CMD_DWORDS, sizeof(uint32_t));
	e->state = cs_state_create();
	e->timestamp_t0_ns = cs_now_ns();
	if (!e->cmd || !e->state)
		goto fail;
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->wake, NULL);
	pthread_cond_init(&e->idle, NULL);
	if (pthread_create(&e->thread, NULL, engine_thread, e)) {
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

void engine_destroy(struct gt_engine *e)
{
	if (!e)
		return;
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
	pthread_mutex_unlock(&e->lock);
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

void engine_mmio_write(struct gt_engine *e, uint32_t reg, uint32_t val)
{
	lock_engine(e);
	cs_reg_write(e, e->base + reg, val);
	if (reg == RING_TAIL || reg == RING_CTL)
		kick(e);
	pthread_mutex_unlock(&e->lock);
}

uint64_t engine_acthd(struct gt_engine *e)
{
	lock_engine(e);
	uint64_t a = cs_acthd(e);
	pthread_mutex_unlock(&e->lock);
	return a;
}

bool engine_is_idle(struct gt_engine *e)
{
	lock_engine(e);
	bool idle = !e->running && e->level == CS_RING && e->head == e->tail;
	pthread_mutex_unlock(&e->lock);
	return idle;
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
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
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

void engine_reset(struct gt_engine *e, uint32_t restart_head)
{
	lock_engine(e);
	e->reset_req = true;
	pthread_cond_broadcast(&e->wake);
	while (e->running)
		pthread_cond_wait(&e->idle, &e->lock);
	TRACE(TRACE_CS, "%s: reset at ACTHD 0x%llx, HEAD 0x%x -> 0x%x",
	      e->name, (unsigned long long)cs_acthd(e), e->head,
	      restart_head & RING_HEAD_ADDR_MASK);
	e->level = CS_RING;
	memset(e->bb, 0, sizeof(e->bb));
	e->head = restart_head & RING_HEAD_ADDR_MASK;
	if (e->head >= cs_ring_size(e))
		e->head = 0;
	e->stopped = false;
	e->fault_reason[0] = 0;
	e->reset_req = false;
	/* The rest of the ring runs on the engine's thread, in sync mode too:
	 * the caller (hangcheck) must not be the one to run it. */
	pthread_cond_broadcast(&e->wake);
	pthread_mutex_unlock(&e->lock);
}
