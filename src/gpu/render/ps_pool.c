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
 * runs the draw (exec_watched_abort): each worker watches it, and counts
 * its threads' ends in the engine's counter, only while it runs a job of
 * the draw (each end is added as its thread ends, before the job is
 * marked done, so the draw's end, which waits for every job, comes after
 * every add); no worker keeps the engine's address past its job (the
 * workers outlive a device). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/thread.h"
#include "common/trace.h"
#include "gpu/render/wm_draw.h"

#define MAX_THREADS 64
#define SPINS 4              /* looks before a host thread sleeps */
#define HELP_BACKLOG 2       /* jobs queued, not taken, for the rasterizer to run one */
#define PAUSES 32            /* spin-wait pauses between two looks */
#define SB_TILE_SHIFT 3      /* the scoreboard's tiles: 8x8 pixels */
#define SB_ENTRIES 4096      /* tiles hashed into this many entries */

/* Counters of ring positions, never reset (a worker comparing `taken`
 * with a stale `queued` of an earlier draw then never takes a job that
 * is not queued yet): a job's position is the draw's base + its number. */
struct ps_ring {
	struct ps_job *jobs;
	unsigned nslots;
	uint64_t base;       /* the position of the draw's thread 0 */
	uint64_t draw;       /* draws served, this one included */
	uint64_t queued;     /* atomic: positions handed out are [.., queued) */
	uint64_t taken;      /* atomic: the next one a host thread runs (CAS) */
	uint64_t retired;    /* merged back into the draw (rasterizing thread) */
	const uint32_t *abort_flag;
	uint64_t *ended;
	/* the pixel scoreboard: per hashed 8x8 tile, the position + 1 of the
	 * last job with a lit pixel there (rasterizing thread only) */
	uint64_t last[SB_ENTRIES];
};

static struct {
	pthread_mutex_t lock;      /* only to sleep and to wake */
	pthread_cond_t work;       /* a job handed out */
	pthread_cond_t done;       /* a job ended */
	unsigned started;          /* workers running (under the lock) */
	unsigned idle;             /* atomic: workers asleep on `work` */
	unsigned waiting;          /* atomic: host threads asleep on `done` */
	uint64_t wake_seq;         /* the least job they wait for, UINT64_MAX: none (lock) */
	bool busy;                 /* a draw holds the workers (lock) */
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

/* Waits until the job at position pos has ended: a short spin, then
 * asleep on `done`. The waiter counts itself before it looks and the
 * job's end stores before it looks at the count (both fenced), so one
 * of them sees the other: no wake-up is lost. */
static void wait_done(struct ps_ring *r, uint64_t pos)
{
	for (unsigned spin = 0; spin < SPINS; spin++) {
		if (job_done(r, pos))
			return;
		pause_a_little();
	}
	pthread_mutex_lock(&pool.lock);
	__atomic_add_fetch(&pool.waiting, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	while (!job_done(r, pos)) {
		pool.wake_seq = pos < pool.wake_seq ? pos : pool.wake_seq;
		pthread_cond_wait(&pool.done, &pool.lock);
	}
	__atomic_sub_fetch(&pool.waiting, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&pool.lock);
}

/* The EU thread a host thread runs the pool's jobs on: its own, so that
 * the 5 KiB of registers and state a job writes stay in the cache of the
 * core that runs it (slot-owned ones moved between the cores at every
 * job: two host threads cost twice the CPU per pixel of one). Cleared
 * whole at its first job of each draw (`fresh`), as the inline job. */
struct runner {
	struct eu_thread *t;
	uint64_t draw;             /* the draw it last ran a job of */
};

static _Thread_local struct runner runner __attribute__((tls_model("initial-exec")));
static pthread_key_t runner_key;
static pthread_once_t runner_once = PTHREAD_ONCE_INIT;

static void runner_free(void *t)
{
	free(t);
}

static void runner_key_make(void)
{
	if (pthread_key_create(&runner_key, runner_free))
		runner_key = 0;
}

/* This host thread's EU thread for job j (NULL: out of memory). */
static struct eu_thread *runner_thread(const struct ps_ring *r, struct ps_job *j)
{
	if (!runner.t) {
		pthread_once(&runner_once, runner_key_make);
		runner.t = aligned_alloc(64, sizeof(struct eu_thread));
		if (!runner.t)
			return NULL;
		/* freed when the host thread ends */
		pthread_setspecific(runner_key, runner.t);
		runner.draw = 0;
	}
	j->fresh = runner.draw != r->draw;
	runner.draw = r->draw;
	return runner.t;
}

/* Runs job j once every earlier job it overlaps has ended; wakes the
 * sleepers once a job as late as the least one waited for ends (they
 * wait again if theirs has not). No lock unless someone sleeps. */
static void run_ordered(struct ps_ring *r, struct ps_job *j)
{
	uint64_t pos = j->pos;
	for (unsigned i = 0; i < j->ndeps; i++)
		wait_done(r, j->deps[i]);
	struct eu_thread *slot_t = j->t, *own = runner_thread(r, j);
	if (own)
		j->t = own;
	ps_job_run(j);
	j->t = slot_t;
	__atomic_store_n(&j->done_seq, pos + 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&pool.waiting, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&pool.lock);
	bool wake = pos >= pool.wake_seq;
	if (wake)
		pool.wake_seq = UINT64_MAX;
	pthread_mutex_unlock(&pool.lock);
	/* after the unlock: a sleeper woken under the lock went straight to
	 * sleep again on the lock (a futex wait and a switch more per wake);
	 * it sleeps on `done` already, it took the lock to count itself */
	if (wake)
		pthread_cond_broadcast(&pool.done);
}

/* The next queued job, taken without a lock (NULL: none queued). */
static struct ps_job *try_take(struct ps_ring *r)
{
	uint64_t q = __atomic_load_n(&r->queued, __ATOMIC_ACQUIRE);
	uint64_t t = __atomic_load_n(&r->taken, __ATOMIC_RELAXED);
	while (t < q) {
		if (__atomic_compare_exchange_n(&r->taken, &t, t + 1, true, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return &r->jobs[t % r->nslots];
	}
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	struct ps_ring *r = &pool.ring;
	unsigned spins = 0;
	for (;;) {
		struct ps_job *j = try_take(r);
		if (!j && spins < SPINS) {
			/* more are likely soon: a sleep and a wake-up cost more
			 * than a short PS thread */
			spins++;
			pause_a_little();
			continue;
		}
		if (!j) {
			pthread_mutex_lock(&pool.lock);
			__atomic_add_fetch(&pool.idle, 1, __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			j = try_take(r);
			if (!j)
				pthread_cond_wait(&pool.work, &pool.lock);
			__atomic_sub_fetch(&pool.idle, 1, __ATOMIC_RELAXED);
			pthread_mutex_unlock(&pool.lock);
			spins = 0;
			if (!j)
				continue;
		}
		spins = 0;
		exec_watch_abort(r->abort_flag, r->ended);
		run_ordered(r, j);
		exec_watch_abort(NULL, NULL);
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
		/* every job of the last draw was taken, ended and retired */
		r->base = r->retired = r->queued;
		r->draw++;
		exec_watched_abort(&r->abort_flag, &r->ended);
		for (unsigned i = 0; i < r->nslots; i++)
			ps_job_init(d, &r->jobs[i]);
		d->ring = r;
		d->px = &r->jobs[r->base % r->nslots].px;
	}
	pthread_mutex_unlock(&pool.lock);
}

/* Waits for the oldest job (running queued ones itself meanwhile) and
 * merges it. */
static void retire_one(struct wm_draw *d, struct ps_ring *r)
{
	uint64_t pos = r->retired;
	while (!job_done(r, pos)) {
		struct ps_job *j = try_take(r);
		if (!j) {
			/* every queued job is held by a worker: sleep until a
			 * quarter of the ring has ended (not a wake-up per
			 * job), or the last queued one */
			uint64_t last = __atomic_load_n(&r->queued, __ATOMIC_RELAXED) - 1;
			uint64_t batch = pos + r->nslots / 4;
			wait_done(r, batch < last ? batch : last);
			continue;
		}
		run_ordered(r, j);
	}
	ps_job_retire(d, &r->jobs[pos % r->nslots]);
	r->retired++;
}

struct ps_job *ps_pool_slot(struct wm_draw *d)
{
	struct ps_ring *r = d->ring;
	uint64_t pos = r->base + d->ps_threads;
	while (r->retired + r->nslots <= pos)
		retire_one(d, r);
	return &r->jobs[pos % r->nslots];
}

/* The scoreboard entry of the 8x8 tile of pixel (x, y). */
static unsigned sb_entry(int32_t x, int32_t y)
{
	uint32_t tx = (uint32_t)x >> SB_TILE_SHIFT, ty = (uint32_t)y >> SB_TILE_SHIFT;
	return (tx * 0x9e3779b1u ^ ty * 0x85ebca77u) >> 7 & (SB_ENTRIES - 1);
}

/* Job j depends on the last earlier job with a lit pixel in a tile of
 * one of its lit subspans, if that one has not ended; each such job
 * waited in turn for the one before it there, so every earlier job
 * sharing a pixel with j ends before j starts. Two tiles in one entry
 * only order more jobs than needed. */
static void add_deps(struct ps_ring *r, struct ps_job *j)
{
	const struct ps_pixels *px = &j->px;
	j->ndeps = 0;
	for (unsigned b = 0; b < px->count; b += 4) {
		if (!(px->mask >> b & 15))
			continue;
		/* a subspan's corners: one tile unless it straddles tiles */
		unsigned e[2] = { sb_entry(px->x[b], px->y[b]), sb_entry(px->x[b + 3], px->y[b + 3]) };
		for (unsigned k = 0; k < (e[0] == e[1] ? 1u : 2u); k++) {
			uint64_t last = r->last[e[k]];
			r->last[e[k]] = j->pos + 1;
			if (!last || last - 1 == j->pos || job_done(r, last - 1))
				continue;
			unsigned i = 0;
			while (i < j->ndeps && j->deps[i] != last - 1)
				i++;
			if (i == j->ndeps)
				j->deps[j->ndeps++] = last - 1;
		}
	}
}

void ps_pool_submit(struct wm_draw *d, struct ps_job *j)
{
	struct ps_ring *r = d->ring;
	j->pos = r->base + j->seq;
	add_deps(r, j);
	__atomic_store_n(&r->queued, j->pos + 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	uint64_t backlog = j->pos + 1 - __atomic_load_n(&r->taken, __ATOMIC_RELAXED);
	if (backlog <= HELP_BACKLOG)
		return;
	if (__atomic_load_n(&pool.idle, __ATOMIC_RELAXED)) {
		/* a sleeping worker is woken for a batch, not for each job */
		if (backlog < r->nslots / 4)
			return;
		/* a worker counted itself idle under the lock and holds it
		 * until it sleeps: once the lock is had, it is asleep */
		pthread_mutex_lock(&pool.lock);
		pthread_mutex_unlock(&pool.lock);
		pthread_cond_signal(&pool.work);
	} else {
		/* the rasterizing thread runs a job itself while the workers
		 * are behind, rather than only once the ring is full: the
		 * workers then find a job at each look instead of an empty
		 * ring after a burst, and sleep (a futex wait and a wake-up,
		 * some 10 us of CPU here) far less often */
		struct ps_job *o = try_take(r);
		if (o)
			run_ordered(r, o);
	}
}

int ps_pool_detach(struct wm_draw *d)
{
	struct ps_ring *r = d->ring;
	while (r->retired < r->queued)
		retire_one(d, r);
	pthread_mutex_lock(&pool.lock);
	pool.busy = false;
	r->abort_flag = NULL;   /* the engine may go with its device */
	r->ended = NULL;
	pthread_mutex_unlock(&pool.lock);
	d->ring = NULL;
	d->px = NULL;
	return d->fault ? -1 : 0;
}
