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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/thread.h"
#include "common/trace.h"
#include "gpu/render/wm_draw.h"

#define MAX_THREADS 64
#define SPINS 4              /* looks before a host thread sleeps */
#define PAUSES 32            /* spin-wait pauses between two looks */

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
	unsigned waiting;          /* host threads waiting on `done` */
	uint64_t wake_seq;         /* the least job they wait for (UINT64_MAX: none) */
	bool busy;                 /* a draw holds the workers */
	struct wm_draw *draw;      /* the draw they serve */
	struct ps_ring ring;       /* its slots (kept across draws) */
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
	   .done = PTHREAD_COND_INITIALIZER, .wake_seq = UINT64_MAX };

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
	pool.wake_seq = UINT64_MAX;
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

/* A short busy wait (the processor's spin-wait hint): on a loaded
 * machine sched_yield() was a system call each time, 341 000 in 40 s,
 * while a preempted worker held the job waited for. */
static void pause_a_little(void)
{
	for (unsigned i = 0; i < PAUSES; i++) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#else
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
	}
}

/* Waits until job seq has ended: a short spin, then asleep on `done`,
 * which every job's end signals (run_ordered). */
static void wait_done(struct ps_ring *r, uint64_t seq)
{
	for (unsigned spin = 0; spin < SPINS; spin++) {
		if (job_done(r, seq))
			return;
		pause_a_little();
	}
	pthread_mutex_lock(&pool.lock);
	while (!job_done(r, seq)) {
		pool.waiting++;
		pool.wake_seq = seq < pool.wake_seq ? seq : pool.wake_seq;
		pthread_cond_wait(&pool.done, &pool.lock);
		pool.waiting--;
	}
	pthread_mutex_unlock(&pool.lock);
}

/* Runs job j once every earlier job it overlaps has ended, then wakes
 * whoever waits for a job's end. */
static void run_ordered(struct ps_ring *r, struct ps_job *j)
{
	for (unsigned i = 0; i < j->ndeps; i++)
		wait_done(r, j->deps[i]);
	ps_job_run(j);
	__atomic_store_n(&j->done_seq, j->seq + 1, __ATOMIC_RELEASE);
	/* the waiters check done_seq and note what they wait for under the
	 * lock; they are woken once a job as late as the least of those
	 * ends, and wait again if theirs has not */
	pthread_mutex_lock(&pool.lock);
	if (pool.waiting && j->seq >= pool.wake_seq) {
		pool.wake_seq = UINT64_MAX;
		pthread_cond_broadcast(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
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
			pause_a_little();
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
	while (!job_done(r, seq)) {
		/* run the queued jobs meanwhile; then wait for the ones
		 * the workers hold */
		pthread_mutex_lock(&pool.lock);
		struct ps_job *j = take(r);
		uint64_t last = r->queued - 1;
		pthread_mutex_unlock(&pool.lock);
		if (!j) {
			/* every queued job is held by a worker: sleep until a
			 * quarter of the ring has ended (not a wake-up per
			 * job), or the last queued one */
			uint64_t batch = seq + r->nslots / 4;
			wait_done(r, batch < last ? batch : last);
			continue;
		}
		run_ordered(r, j);
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
