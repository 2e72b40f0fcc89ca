/* The host threads a draw's PS threads run on (issue 15, "use the
 * machine"), as the EUs of a slice run the threads the windower
 * dispatches. GTSIM_THREADS host threads in all, the number of cores by
 * default: the rasterizing thread (the engine's) and GTSIM_THREADS - 1
 * workers, started at the first draw that uses them and kept for the
 * process.
 *
 * A draw hands each PS thread to a ring of slots in dispatch order
 * (slot = thread number % ring size); host threads take them in that
 * order, and the rasterizing thread runs one itself when it needs a slot
 * that is still busy. What a thread changes in the draw (faults, the
 * depth count, the first render target) is merged back in dispatch order
 * when its slot is reused or the draw ends, so the first fault reported is
 * the one a single thread would report.
 *
 * The pixel scoreboard (PRM vol. 7 "Pixel Shader Thread Dispatch": a
 * thread that covers a pixel an earlier, unfinished thread covers waits
 * for it): a thread whose lit pixels' bounds overlap those of an earlier
 * thread still running starts only once that one has ended, so render
 * target writes (blending, logic ops) and late depth/stencil tests of one
 * pixel happen in primitive order, and the image is the one a single
 * thread makes, bit for bit. Early depth/stencil tests are made by the
 * rasterizing thread, in order, before the thread is handed out.
 *
 * A reset reaches the workers through the abort flag of the engine that
 * runs the draw (exec_watched_abort): each worker watches it while it
 * runs the draw's threads; the draw's end waits for every thread. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/thread.h"
#include "common/trace.h"
#include "gpu/render/wm_draw.h"

#define MAX_THREADS 64
#define SPINS 64             /* yields before a host thread sleeps */

struct ps_ring {
	struct ps_job *jobs;
	unsigned nslots;
	uint64_t queued;     /* threads handed out: [0, queued) (under the lock) */
	uint64_t taken;      /* the next one a host thread runs (under the lock) */
	uint64_t retired;    /* merged back into the draw (rasterizing thread) */
	const uint32_t *abort_flag;
	uint64_t *ended;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work;       /* a job handed out */
	pthread_cond_t done;       /* a job ended */
	unsigned started;          /* workers running */
	unsigned idle;             /* workers waiting on `work` */
	unsigned waiting;          /* rasterizing threads waiting on `done` */
	bool busy;                 /* a draw holds the workers */
	struct wm_draw *draw;      /* the draw they serve */
	struct ps_ring ring;       /* its slots (kept across draws) */
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
	   .done = PTHREAD_COND_INITIALIZER };

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* fork: the child has none of the workers */
static void before_fork(void)
{
	pthread_mutex_lock(&pool.lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&pool.lock);
}

static void after_fork_child(void)
{
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.work, NULL);
	pthread_cond_init(&pool.done, NULL);
	pool.started = pool.idle = pool.waiting = 0;
	pool.busy = false;
	pool.draw = NULL;
}

static void at_fork(void)
{
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* GTSIM_THREADS, read at each draw (tests change it between draws) */
static unsigned read_env(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	const char *e = getenv("GTSIM_THREADS");
	if (e && *e) {
		char *end;
		long v = strtol(e, &end, 10);
		if (*end || v < 1)
			TRACE_STUB_ONCE("GTSIM_THREADS=%s is not a positive count: %ld threads", e, n);
		else
			n = v;
	}
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

unsigned ps_pool_threads(void)
{
	pthread_once(&once, at_fork);
	return read_env();
}

static bool job_done(const struct ps_ring *r, uint64_t seq)
{
	return __atomic_load_n(&r->jobs[seq % r->nslots].done_seq, __ATOMIC_ACQUIRE) > seq;
}

/* Runs job j once every earlier job it overlaps has ended. */
static void run_ordered(struct ps_ring *r, struct ps_job *j)
{
	for (unsigned i = 0; i < j->ndeps; i++)
		for (unsigned spin = 0; !job_done(r, j->deps[i]); spin++)
			if (spin > 64)
				sched_yield();
	ps_job_run(j);
	__atomic_store_n(&j->done_seq, j->seq + 1, __ATOMIC_RELEASE);
}

/* The next job of the served draw, under the lock (NULL: none). */
static struct ps_job *take(struct ps_ring *r)
{
	if (!pool.draw || r->taken == r->queued)
		return NULL;
	return &r->jobs[r->taken++ % r->nslots];
}

static void *worker(void *arg)
{
	(void)arg;
	struct ps_ring *r = &pool.ring;
	unsigned spins = 0;
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		struct ps_job *j = take(r);
		if (!j && pool.draw && spins < SPINS) {
			/* more are likely soon: a sleep and a wake-up cost more
			 * than a short PS thread */
			spins++;
			pthread_mutex_unlock(&pool.lock);
			sched_yield();
			pthread_mutex_lock(&pool.lock);
			continue;
		}
		if (!j) {
			pool.idle++;
			pthread_cond_wait(&pool.work, &pool.lock);
			pool.idle--;
			spins = 0;
			continue;
		}
		spins = 0;
		exec_watch_abort(r->abort_flag, r->ended);
		pthread_mutex_unlock(&pool.lock);
		run_ordered(r, j);
		pthread_mutex_lock(&pool.lock);
		if (pool.waiting)
			pthread_cond_broadcast(&pool.done);
	}
	return NULL;
}

/* Slots and workers for `threads` host threads; false when short of
 * memory or threads (the draw then runs inline). Under the lock. */
static bool grow(unsigned threads)
{
	struct ps_ring *r = &pool.ring;
	unsigned want = PS_RING_MAX;
	if (!r->jobs) {
		r->jobs = calloc(want, sizeof(*r->jobs));
		if (!r->jobs)
			return false;
		for (unsigned i = 0; i < want; i++) {
			r->jobs[i].hw_thread = i;
			r->jobs[i].t = aligned_alloc(64, sizeof(struct eu_thread));
			if (!r->jobs[i].t) {
				want = i;
				break;
			}
		}
		r->nslots = want;
	}
	while (pool.started + 1 < threads) {
		/* gtsim's own thread: a client's signals stay off it (an
		 * interrupted ioctl must see EINTR on the client's thread) */
		pthread_t tid;
		if (gt_thread_create(&tid, worker, NULL))
			break;
		pthread_detach(tid);
		pool.started++;
	}
	return r->nslots >= 2 && pool.started > 0;
}

void ps_pool_attach(struct wm_draw *d)
{
	d->ring = NULL;
	/* one thread; an EU trace (one thread's instructions in a row);
	 * multisampling, fast clears and resolves (their render target
	 * state is the draw's, written by the thread that loads it) */
	unsigned threads = ps_pool_threads();
	if (threads < 2 || trace_on(TRACE_EU) || d->st.ms.samples > 1 ||
	    d->st.ps.fast_clear || d->st.ps.resolve)
		return;
	pthread_mutex_lock(&pool.lock);
	if (!pool.busy && grow(threads)) {
		struct ps_ring *r = &pool.ring;
		pool.busy = true;
		pool.draw = d;
		r->queued = r->taken = r->retired = 0;
		exec_watched_abort(&r->abort_flag, &r->ended);
		for (unsigned i = 0; i < r->nslots; i++) {
			ps_job_init(d, &r->jobs[i]);
			r->jobs[i].done_seq = 0;
		}
		d->ring = r;
		d->px = &r->jobs[0].px;
	}
	pthread_mutex_unlock(&pool.lock);
}

/* Waits for job seq (running one itself meanwhile) and merges it. */
static void retire_one(struct wm_draw *d, struct ps_ring *r)
{
	uint64_t seq = r->retired;
	unsigned spins = 0;
	if (!job_done(r, seq)) {
		pthread_mutex_lock(&pool.lock);
		while (!job_done(r, seq)) {
			struct ps_job *j = take(r);
			if (j) {
				pthread_mutex_unlock(&pool.lock);
				run_ordered(r, j);
				pthread_mutex_lock(&pool.lock);
				continue;
			}
			if (spins++ < SPINS) {
				pthread_mutex_unlock(&pool.lock);
				sched_yield();
				pthread_mutex_lock(&pool.lock);
				continue;
			}
			pool.waiting++;
			pthread_cond_wait(&pool.done, &pool.lock);
			pool.waiting--;
		}
		pthread_mutex_unlock(&pool.lock);
	}
	ps_job_retire(d, &r->jobs[seq % r->nslots]);
	r->retired++;
}

struct ps_job *ps_pool_slot(struct wm_draw *d)
{
	struct ps_ring *r = d->ring;
	uint64_t seq = d->ps_threads;
	while (r->retired + r->nslots <= seq)
		retire_one(d, r);
	return &r->jobs[seq % r->nslots];
}

static bool overlap(const struct ps_job *a, const struct ps_job *b)
{
	return a->x0 <= b->x1 && b->x0 <= a->x1 && a->y0 <= b->y1 && b->y0 <= a->y1;
}

void ps_pool_submit(struct wm_draw *d, struct ps_job *j)
{
	struct ps_ring *r = d->ring;
	j->ndeps = 0;
	for (uint64_t s = r->retired; s < j->seq; s++) {
		const struct ps_job *o = &r->jobs[s % r->nslots];
		if (overlap(o, j) && !job_done(r, s))
			j->deps[j->ndeps++] = s;
	}
	pthread_mutex_lock(&pool.lock);
	r->queued = j->seq + 1;
	/* a sleeping worker is woken for a batch, not for each thread */
	if (pool.idle && r->queued - r->taken >= r->nslots / 4)
		pthread_cond_signal(&pool.work);
	pthread_mutex_unlock(&pool.lock);
}

int ps_pool_detach(struct wm_draw *d)
{
	struct ps_ring *r = d->ring;
	while (r->retired < r->queued)
		retire_one(d, r);
	pthread_mutex_lock(&pool.lock);
	pool.draw = NULL;
	pool.busy = false;
	pthread_mutex_unlock(&pool.lock);
	d->ring = NULL;
	d->px = NULL;
	return d->fault ? -1 : 0;
}
