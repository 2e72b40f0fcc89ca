/* A draw's pixels on all the host's cores (issue 15, "use the machine"),
 * as the slices of a GPU each own part of the screen. The engine's thread
 * clips and sets up each triangle and rectangle and keeps it in a batch
 * (the primitive's setup, its clip rectangle and viewport); at the draw's
 * end, before any other primitive (lines and points are rasterized by
 * the engine's thread alone) or fault, and when the batch is full, the
 * batch is rasterized by GTSIM_THREADS host threads at once: the target's
 * rows are cut into bands of BAND_ROWS, band b belongs to task
 * b % tasks, and each task rasterizes every primitive of the batch, in
 * order, within its own bands: early depth/stencil tests, PS threads,
 * render target writes and late tests of a pixel are all made by the one
 * task owning it, in primitive order, so the image is the one a single
 * thread makes, bit for bit, with no pixel scoreboard and one hand-off
 * per batch rather than per PS thread.
 *
 * Each task runs on its own copy of the draw (struct wm_draw: state,
 * units, counters) with its own EU thread; what it changes in the draw
 * (pixel and thread counts, the depth-pass count, the first render
 * target, its first fault) is merged back when every task has ended; the
 * fault reported is the one a single thread would have met first (the
 * earliest primitive, then the topmost band). Side effects other than
 * render targets and depth/stencil (image stores, SSBOs) of different
 * bands are not ordered, as on the hardware; data-port atomics are host
 * atomics.
 *
 * Not in bands (the engine's thread alone, as with GTSIM_THREADS=1):
 * multisampled draws, fast clears and resolves (their render target state
 * is the draw's), draws under an `eu` trace (one thread's instructions in
 * a row), lines and points. A reset reaches the workers through the
 * abort flag of the engine that runs the draw, which each watches while
 * it runs a task (exec_watched_abort). */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/thread.h"
#include "common/trace.h"
#include "gpu/render/wm_draw.h"

#define MAX_THREADS 64
/* bands of 64 rows: whole Y tiles (32 rows) and W tiles (64 rows, the
 * stencil buffer's), so that no two tasks write one tile's cache lines */
#define BAND_ROWS 64
#define BATCH_MIN (64u << 10)           /* bytes of the first batch buffer */
#define BATCH_MAX (4u << 20)            /* flushed when this full */
#define PIXELS_PER_TASK 8192            /* less work than this a task: fewer tasks */

/* A primitive kept in the batch (16-byte aligned, size bytes long: its
 * setup[] only up to prim.nattrs). */
struct band_item {
	uint32_t size;
	uint8_t kind;              /* enum wm_prim_kind */
	uint32_t vp_index;         /* the viewport its depth is clamped to */
	struct pixel_rect clip;    /* its clip rectangle, cut to its bounds */
	struct wm_prim prim;
};

struct wm_band {
	struct wm_draw *draw;      /* the task's copy of the draw */
	struct ps_job *job;        /* its PS threads' job and EU thread */
	unsigned task, ntasks;
	int32_t rows;              /* rows of a band */
	unsigned item;             /* the primitive it rasterizes */
	int32_t y;                 /* the first row of the band it is in */
	bool faulted;
	unsigned fault_item;
	int32_t fault_y;
	char fault[200];
};

struct wm_batch {
	uint8_t *buf;
	size_t used, cap;
	unsigned n;
	uint64_t area;             /* pixels of the kept primitives' bounds */
	struct wm_band *bands[MAX_THREADS];
};

/* ---- the host threads ---- */

struct band_run {
	struct wm_band **bands;
	unsigned ntasks;
	unsigned next;             /* atomic: the next task to take */
	unsigned finished;         /* tasks ended (lock) */
	const uint32_t *abort_flag;
	uint64_t *ended;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work;       /* a run was handed out */
	pthread_cond_t done;       /* a task ended, or a worker left a run */
	unsigned started;          /* workers running */
	unsigned active;           /* workers inside the current run */
	uint64_t gen;              /* runs handed out */
	struct band_run *run;      /* the current one, or NULL */
	bool busy;                 /* a draw holds the workers */
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
	pool.started = pool.active = 0;
	pool.run = NULL;
	pool.busy = false;
}

/* The host's cores, read once (sysconf reads /sys at every call; the
 * count is asked at every draw). */
static long cores;

static void pool_once(void)
{
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	cores = sysconf(_SC_NPROCESSORS_ONLN);
}

unsigned wm_band_threads(void)
{
	pthread_once(&once, pool_once);
	long n = cores;
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

static void run_task(struct wm_band *bd);

/* Flushes that ran on more than one host thread (tests read it to know
 * the bands were really shared). */
static uint64_t split_runs;

uint64_t wm_band_split_runs(void)
{
	return __atomic_load_n(&split_runs, __ATOMIC_RELAXED);
}

/* Takes and runs tasks of run r until none is left. */
static void run_tasks(struct band_run *r, bool worker)
{
	for (;;) {
		unsigned t = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
		if (t >= r->ntasks)
			return;
		if (worker)
			exec_watch_abort(r->abort_flag, r->ended);
		run_task(r->bands[t]);
		if (worker)
			exec_watch_abort(NULL, NULL);
		pthread_mutex_lock(&pool.lock);
		if (++r->finished == r->ntasks)
			pthread_cond_broadcast(&pool.done);
		pthread_mutex_unlock(&pool.lock);
	}
}

static void *worker(void *arg)
{
	(void)arg;
	uint64_t seen = 0;
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (!pool.run || pool.gen == seen)
			pthread_cond_wait(&pool.work, &pool.lock);
		seen = pool.gen;
		struct band_run *r = pool.run;
		pool.active++;
		pthread_mutex_unlock(&pool.lock);
		run_tasks(r, true);
		pthread_mutex_lock(&pool.lock);
		/* the last touch of r: the draw waits for it */
		if (--pool.active == 0)
			pthread_cond_broadcast(&pool.done);
	}
	return NULL;
}

/* Workers for `threads` host threads (under the lock): false when none
 * could be started. */
static bool grow(unsigned threads)
{
	while (pool.started + 1 < threads) {
		/* gtsim's own thread: a client's signals stay off it (an
		 * interrupted ioctl must see EINTR on the client's thread) */
		pthread_t tid;
		if (gt_thread_create(&tid, worker, NULL))
			break;
		pthread_detach(tid);
		pool.started++;
	}
	return pool.started > 0;
}

/* Runs the tasks of r, on the workers too when they are free. */
static void run_all(struct band_run *r)
{
	pthread_mutex_lock(&pool.lock);
	bool shared = r->ntasks > 1 && !pool.busy && grow(r->ntasks);
	if (shared) {
		__atomic_fetch_add(&split_runs, 1, __ATOMIC_RELAXED);
		pool.busy = true;
		pool.run = r;
		pool.gen++;
		pthread_cond_broadcast(&pool.work);
	}
	pthread_mutex_unlock(&pool.lock);
	run_tasks(r, false);
	if (!shared)
		return;
	pthread_mutex_lock(&pool.lock);
	while (r->finished < r->ntasks || pool.active)
		pthread_cond_wait(&pool.done, &pool.lock);
	pool.run = NULL;
	pool.busy = false;
	pthread_mutex_unlock(&pool.lock);
}

/* GTSIM_BAND_ROWS=N (tests and debugging): bands of N rows (even, at
 * most 4096), and every flush split over all the threads however little
 * it draws, so that small targets exercise many bands; 0 otherwise. */
static int32_t band_rows_forced(void)
{
	const char *e = getenv("GTSIM_BAND_ROWS");
	if (!e || !*e)
		return 0;
	char *end;
	long v = strtol(e, &end, 10);
	if (*end || v < 2 || v > 4096 || v % 2) {
		TRACE_STUB_ONCE("GTSIM_BAND_ROWS=%s is not an even count of rows from 2 to 4096: "
				"ignored", e);
		return 0;
	}
	return (int32_t)v;
}

/* ---- the batch ---- */

void wm_band_begin(struct wm_draw *d)
{
	d->batch = NULL;
	d->band = NULL;
	if (wm_band_threads() < 2 || trace_on(TRACE_EU) || d->st.ms.samples > 1 ||
	    d->st.ps.fast_clear || d->st.ps.resolve)
		return;
	d->batch = calloc(1, sizeof(*d->batch));   /* NULL: no bands, not an error */
}

static size_t item_size(unsigned nattrs)
{
	size_t s = offsetof(struct band_item, prim) + offsetof(struct wm_prim, setup) +
		   nattrs * sizeof(((struct wm_prim *)0)->setup[0]);
	return (s + 15) & ~(size_t)15;
}

/* The primitive's bounds within clip (false: none). */
static bool prim_bounds(const struct wm_prim *p, struct pixel_rect *r)
{
	float x0 = p->v[0].x, x1 = x0, y0 = p->v[0].y, y1 = y0;
	for (unsigned i = 1; i < 3; i++) {
		x0 = fminf(x0, p->v[i].x), x1 = fmaxf(x1, p->v[i].x);
		y0 = fminf(y0, p->v[i].y), y1 = fmaxf(y1, p->v[i].y);
	}
	if (!(x0 >= -1e9f && x1 <= 1e9f && y0 >= -1e9f && y1 <= 1e9f))
		return true;        /* leave the clip rectangle as it is */
	struct pixel_rect b = { (int32_t)floorf(x0) - 1, (int32_t)floorf(y0) - 1,
				(int32_t)ceilf(x1) + 1, (int32_t)ceilf(y1) + 1 };
	rect_intersect(r, &b);
	return r->x0 <= r->x1 && r->y0 <= r->y1;
}

int wm_band_add(struct wm_draw *d, enum wm_prim_kind kind)
{
	struct wm_batch *b = d->batch;
	if (!b)
		return -1;
	struct pixel_rect clip = d->clip;
	if (!prim_bounds(&d->prim, &clip))
		return 0;           /* no pixel of it is inside */
	size_t size = item_size(d->prim.nattrs);
	if (b->used + size > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : BATCH_MIN;
		uint8_t *buf = b->used + size <= cap && cap <= BATCH_MAX ? realloc(b->buf, cap) : NULL;
		if (buf) {
			b->buf = buf;
			b->cap = cap;
		} else {
			wm_band_flush(d);
			if (size > b->cap)
				return -1;
		}
	}
	struct band_item *it = (struct band_item *)(b->buf + b->used);
	it->size = (uint32_t)size;
	it->kind = (uint8_t)kind;
	it->vp_index = d->vp_index;
	it->clip = clip;
	memcpy(&it->prim, &d->prim, size - offsetof(struct band_item, prim));
	b->used += size;
	b->n++;
	b->area += (uint64_t)(clip.x1 - clip.x0 + 1) * (uint64_t)(clip.y1 - clip.y0 + 1);
	return 0;
}

/* Task bd: every primitive of the batch within its bands, in order. */
static void run_task(struct wm_band *bd)
{
	struct wm_draw *c = bd->draw;
	const struct wm_batch *b = c->batch_of;
	int32_t rows = bd->rows;
	size_t off = 0;
	for (unsigned i = 0; i < b->n && !c->fault; i++) {
		const struct band_item *it = (const struct band_item *)(b->buf + off);
		off += it->size;
		bd->item = i;
		memcpy(&c->prim, &it->prim, it->size - offsetof(struct band_item, prim));
		if (it->vp_index != c->vp_index) {
			c->vp_index = it->vp_index;
			c->st.vp = c->st.vps[it->vp_index];
		}
		/* the task's bands within the primitive's rows (rows below 0
		 * are outside every target: clip.y0 >= 0 once cut) */
		int32_t first = it->clip.y0 < 0 ? 0 : it->clip.y0 / rows;
		int32_t last = it->clip.y1 / rows;
		int32_t band = first + (int32_t)((bd->task + bd->ntasks - (uint32_t)first % bd->ntasks) %
						 bd->ntasks);
		for (; band <= last && !c->fault; band += (int32_t)bd->ntasks) {
			struct pixel_rect r = it->clip;
			if (r.y0 < band * rows)
				r.y0 = band * rows;
			if (r.y1 > band * rows + rows - 1)
				r.y1 = band * rows + rows - 1;
			bd->y = r.y0;
			c->clip = r;
			wm_raster_prim(c, it->kind, &c->clip);
		}
		ps_prim_end(c);
	}
}

/* Band t's copy of draw d for this batch (allocated at the draw's first
 * use of it): false when short of memory. */
static bool band_prepare(struct wm_draw *d, unsigned t, unsigned ntasks, int32_t rows)
{
	struct wm_batch *b = d->batch;
	struct wm_band *bd = b->bands[t];
	if (!bd) {
		bd = calloc(1, sizeof(*bd));
		if (!bd)
			return false;
		bd->draw = malloc(sizeof(*bd->draw));
		bd->job = calloc(1, sizeof(*bd->job));
		if (bd->job)
			bd->job->t = aligned_alloc(64, sizeof(struct eu_thread));
		if (!bd->draw || !bd->job || !bd->job->t) {
			if (bd->job)
				free(bd->job->t);
			free(bd->job);
			free(bd->draw);
			free(bd);
			return false;
		}
		/* its own per-thread scratch space */
		bd->job->hw_thread = t;
		b->bands[t] = bd;
	}
	bd->task = t;
	bd->ntasks = ntasks;
	bd->rows = rows;
	bd->faulted = false;
	struct wm_draw *c = bd->draw;
	memcpy(c, d, sizeof(*c));
	c->batch = NULL;
	c->batch_of = b;
	c->band = bd;
	c->job = bd->job;
	c->units.rt = c;       /* its render target writes reach its copy */
	c->ps_threads = c->ps_pixels = c->depth_passed = c->fast_subspans = 0;
	c->have_rt0 = false;
	c->fault = 0;
	c->px = NULL;
	if (c->dispatch) {
		ps_job_init(c, bd->job);
		c->px = &bd->job->px;
	}
	return true;
}

void wm_band_flush(struct wm_draw *d)
{
	struct wm_batch *b = d->batch;
	if (!b || !b->n)
		return;
	unsigned threads = wm_band_threads();
	int32_t rows = band_rows_forced();
	uint64_t want = rows ? threads : b->area / PIXELS_PER_TASK;
	unsigned ntasks = want < 1 ? 1 : want > threads ? threads : (unsigned)want;
	if (!rows)
		rows = BAND_ROWS;
	unsigned ready = 0;
	while (ready < ntasks && band_prepare(d, ready, ntasks, rows))
		ready++;
	if (ready < ntasks) {
		for (unsigned t = 0; t < ready; t++)
			b->bands[t]->ntasks = ready;
		ntasks = ready;
	}
	if (!ntasks) {
		b->n = 0;
		b->used = 0;
		b->area = 0;
		wm_fault(d, "back end: out of memory");
		return;
	}
	struct band_run r = { .bands = b->bands, .ntasks = ntasks };
	exec_watched_abort(&r.abort_flag, &r.ended);
	run_all(&r);
	/* emptied first: the fault below flushes nothing again */
	b->n = 0;
	b->used = 0;
	b->area = 0;
	const struct wm_band *first = NULL;
	for (unsigned t = 0; t < ntasks; t++) {
		const struct wm_band *bd = b->bands[t];
		const struct wm_draw *c = bd->draw;
		d->ps_threads += c->ps_threads;
		d->ps_pixels += c->ps_pixels;
		d->depth_passed += c->depth_passed;
		d->fast_subspans += c->fast_subspans;
		if (c->have_rt0 && !d->have_rt0) {
			d->rt0 = c->rt0;
			d->have_rt0 = true;
		}
		if (bd->faulted && (!first || bd->fault_item < first->fault_item ||
				    (bd->fault_item == first->fault_item && bd->fault_y < first->fault_y)))
			first = bd;
	}
	if (first)
		wm_fault(d, "%s", first->fault);
}

bool wm_band_fault(struct wm_draw *d, const char *text)
{
	struct wm_band *bd = d->band;
	if (!bd)
		return false;
	if (!bd->faulted) {
		bd->faulted = true;
		bd->fault_item = bd->item;
		bd->fault_y = bd->y;
		snprintf(bd->fault, sizeof(bd->fault), "%s", text);
	}
	__atomic_store_n(&d->fault, 1, __ATOMIC_RELAXED);
	return true;
}

const char *wm_band_fault_text(const struct wm_draw *d)
{
	return d->band ? d->band->fault : NULL;
}

void wm_band_end(struct wm_draw *d)
{
	struct wm_batch *b = d->batch;
	if (!b)
		return;
	for (unsigned t = 0; t < MAX_THREADS; t++) {
		struct wm_band *bd = b->bands[t];
		if (!bd)
			continue;
		free(bd->job->t);
		free(bd->job);
		free(bd->draw);
		free(bd);
	}
	free(b->buf);
	free(b);
	d->batch = NULL;
}
