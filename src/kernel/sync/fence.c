/* One-shot fences (the kernel's dma_fence). State changes and waits go
 * through one process-wide lock and condition variable: a fence is signaled
 * rarely compared with how often it is read, and a single condvar lets a
 * waiter sleep on any number of fences and syncobjs at once (see
 * fence_wait_change). */
#include "kernel/sync/fence.h"
#include "kernel/sync/sync_fd.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/sigdefer.h"
#include "gtsim/gtsim.h"

struct fence_cb {
	struct fence_cb *next;
	void (*fn)(struct gt_fence *f, void *data);
	void *data;
};

struct gt_fence {
	int refcount;             /* atomic */
	int signaled;             /* atomic; set under fence_lock */
	int signaling;            /* atomic: early callbacks running, error set */
	int error;
	uint64_t timestamp_ns;
	struct fence_cb *early;       /* fence_on_signal_early */
	struct fence_cb *callbacks;
	/* A merged sync_file's fences (fence_merge_file), one reference each. */
	struct gt_fence **parts;
	unsigned nparts;
	/* dma_fence's context and seqno (fence_set_context); 0: none. */
	uint64_t context;
	uint32_t seqno;
	/* A request's fence (fence_mark_request): whether the request has
	 * started, and the fence its start signals, made on first demand
	 * (fence_execution_get; one reference), so that a request costs no
	 * second fence unless someone submits against it. */
	bool request;
	int started;                  /* atomic */
	struct gt_fence *execution;   /* atomic */
};

static pthread_mutex_t fence_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fence_cond;
static pthread_once_t cond_once = PTHREAD_ONCE_INIT;
static uint64_t change_seq;
/* For interruptible waits (fence_wait_change_interruptible): a futex word
 * that changes with change_seq, and how many threads sleep on it (both
 * under fence_lock), so a broadcast makes the wake system call only when
 * someone sleeps there. */
static uint32_t change_word;
static unsigned futex_sleepers;

static void init_cond(void)
{
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&fence_cond, &attr);
	pthread_condattr_destroy(&attr);
}

int64_t fence_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct gt_fence *fence_create(void)
{
	struct gt_fence *f = calloc(1, sizeof(*f));
	if (f)
		f->refcount = 1;
	return f;
}

struct gt_fence *fence_create_signaled(void)
{
	struct gt_fence *f = fence_create();
	if (f)
		fence_signal(f, 0);
	return f;
}

struct gt_fence *fence_get(struct gt_fence *f)
{
	if (f)
		__atomic_add_fetch(&f->refcount, 1, __ATOMIC_RELAXED);
	return f;
}

void fence_put(struct gt_fence *f)
{
	if (!f || __atomic_sub_fetch(&f->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	/* Nobody can wait on it any more, but fences merged from it can. */
	if (!fence_is_signaled(f))
		fence_signal(f, -EDEADLK);
	for (unsigned i = 0; i < f->nparts; i++)
		fence_put(f->parts[i]);
	fence_put(f->execution);
	free(f->parts);
	free(f);
}

/* Wakes every waiter; callers hold fence_lock. */
static void broadcast_locked(void)
{
	pthread_once(&cond_once, init_cond);
	change_seq++;
	pthread_cond_broadcast(&fence_cond);
	__atomic_add_fetch(&change_word, 1, __ATOMIC_RELEASE);
	if (futex_sleepers)
		syscall(SYS_futex, &change_word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Runs a callback list (built newest first) in registration order. */
static void run_callbacks(struct gt_fence *f, struct fence_cb *cbs)
{
	struct fence_cb *ordered = NULL;
	while (cbs) {
		struct fence_cb *next = cbs->next;
		cbs->next = ordered;
		ordered = cbs;
		cbs = next;
	}
	while (ordered) {
		struct fence_cb *next = ordered->next;
		ordered->fn(f, ordered->data);
		free(ordered);
		ordered = next;
	}
}

void fence_signal(struct gt_fence *f, int error)
{
	if (!f)
		return;
	pthread_mutex_lock(&fence_lock);
	if (f->signaled || f->signaling) {
		pthread_mutex_unlock(&fence_lock);
		return;
	}
	f->error = error;
	f->timestamp_ns = (uint64_t)fence_now_ns();
	__atomic_store_n(&f->signaling, 1, __ATOMIC_RELEASE);
	struct fence_cb *early = f->early;
	f->early = NULL;
	pthread_mutex_unlock(&fence_lock);

	/* Early callbacks first (sync_file readiness), so that whoever sees
	 * the fence signaled also finds them done. */
	run_callbacks(f, early);

	pthread_mutex_lock(&fence_lock);
	__atomic_store_n(&f->signaled, 1, __ATOMIC_RELEASE);
	struct fence_cb *cbs = f->callbacks;
	f->callbacks = NULL;
	broadcast_locked();
	pthread_mutex_unlock(&fence_lock);

	/* Callbacks run without the lock: they may signal other fences. */
	run_callbacks(f, cbs);
}

bool fence_is_signaled(struct gt_fence *f)
{
	return f && __atomic_load_n(&f->signaled, __ATOMIC_ACQUIRE);
}

bool fence_is_signaled_settled(struct gt_fence *f)
{
	if (fence_is_signaled(f))
		return true;
	return fence_is_done(f) && fence_wait(f, -1) == 0;
}

bool fence_is_done(struct gt_fence *f)
{
	return f && (__atomic_load_n(&f->signaling, __ATOMIC_ACQUIRE) ||
		     __atomic_load_n(&f->signaled, __ATOMIC_ACQUIRE));
}

int fence_error(struct gt_fence *f)
{
	return fence_is_signaled(f) ? f->error : 0;
}

int fence_status(struct gt_fence *f)
{
	/* Signaling counts: a sync_file already polls readable then. */
	if (!f || !__atomic_load_n(&f->signaling, __ATOMIC_ACQUIRE))
		return 0;
	return f->error ? f->error : 1;
}

uint64_t fence_timestamp_ns(struct gt_fence *f)
{
	return fence_is_signaled(f) ? f->timestamp_ns : 0;
}

uint64_t fence_wait_seq(void)
{
	pthread_mutex_lock(&fence_lock);
	uint64_t seq = change_seq;
	pthread_mutex_unlock(&fence_lock);
	return seq;
}

int fence_wait_change(uint64_t seq, int64_t deadline_ns)
{
	int ret = 0;
	pthread_once(&cond_once, init_cond);
	pthread_mutex_lock(&fence_lock);
	while (change_seq == seq) {
		if (deadline_ns < 0) {
			pthread_cond_wait(&fence_cond, &fence_lock);
			continue;
		}
		if (fence_now_ns() >= deadline_ns) {
			ret = -ETIME;
			break;
		}
		struct timespec ts = { .tv_sec = deadline_ns / 1000000000,
				       .tv_nsec = deadline_ns % 1000000000 };
		pthread_cond_timedwait(&fence_cond, &fence_lock, &ts);
	}
	pthread_mutex_unlock(&fence_lock);
	return ret;
}

/* Sleeps on the futex word with a timeout (at most 100 ms): FUTEX_WAIT
 * with a relative timeout ends with EINTR once a handler ran, whatever
 * its SA_RESTART (the restart-block path), where pthread_cond_timedwait
 * would resume. The window (common/sigdefer.h) lets the client's handler
 * run at once; no lock is held. */
int fence_wait_change_interruptible(uint64_t seq, int64_t deadline_ns)
{
	pthread_mutex_lock(&fence_lock);
	if (change_seq != seq) {
		pthread_mutex_unlock(&fence_lock);
		return 0;
	}
	int64_t left = 100000000;
	if (deadline_ns >= 0) {
		int64_t now = fence_now_ns();
		if (now >= deadline_ns) {
			pthread_mutex_unlock(&fence_lock);
			return -ETIME;
		}
		if (deadline_ns - now < left)
			left = deadline_ns - now;
	}
	uint32_t seen = change_word;
	futex_sleepers++;
	pthread_mutex_unlock(&fence_lock);
	bool interrupted = sigdefer_open();
	if (!interrupted) {
		struct timespec ts = { left / 1000000000, left % 1000000000 };
		interrupted = syscall(SYS_futex, &change_word, FUTEX_WAIT_PRIVATE, seen, &ts,
				      NULL, 0) < 0 && errno == EINTR;
	}
	interrupted |= sigdefer_close();
	pthread_mutex_lock(&fence_lock);
	futex_sleepers--;
	pthread_mutex_unlock(&fence_lock);
	return interrupted ? -GTSIM_ERESTARTSYS : 0;
}


void fence_notify_change(void)
{
	pthread_mutex_lock(&fence_lock);
	broadcast_locked();
	pthread_mutex_unlock(&fence_lock);
}

static int wait_fence(struct gt_fence *f, int64_t timeout_ns, bool intr)
{
	if (!f)
		return -EINVAL;
	int64_t deadline = -1;
	if (timeout_ns >= 0) {
		int64_t now = fence_now_ns();
		deadline = timeout_ns > INT64_MAX - now ? INT64_MAX : now + timeout_ns;
	}
	while (!fence_is_signaled(f)) {
		uint64_t seq = fence_wait_seq();
		if (fence_is_signaled(f))
			break;
		int r = intr ? fence_wait_change_interruptible(seq, deadline)
			     : fence_wait_change(seq, deadline);
		if (r)   /* -ETIME, -GTSIM_ERESTARTSYS */
			return fence_is_signaled(f) ? 0 : r;
	}
	return 0;
}

int fence_wait(struct gt_fence *f, int64_t timeout_ns)
{
	return wait_fence(f, timeout_ns, false);
}

int fence_wait_interruptible(struct gt_fence *f, int64_t timeout_ns)
{
	return wait_fence(f, timeout_ns, true);
}

/* cb: preallocated (add_callback_alloc), or NULL when that failed. */
static void add_callback_cb(struct gt_fence *f, bool early, struct fence_cb *cb,
			    void (*fn)(struct gt_fence *f, void *data), void *data)
{
	pthread_mutex_lock(&fence_lock);
	bool pending = early ? !f->signaling : !f->signaled;
	if (pending && cb) {
		struct fence_cb **list = early ? &f->early : &f->callbacks;
		cb->fn = fn;
		cb->data = data;
		cb->next = *list;
		*list = cb;
		pthread_mutex_unlock(&fence_lock);
		return;
	}
	pthread_mutex_unlock(&fence_lock);
	free(cb);
	if (pending)  /* out of memory: never lose a callback */
		fence_wait(f, -1);
	fn(f, data);
}

static void add_callback(struct gt_fence *f, bool early,
			 void (*fn)(struct gt_fence *f, void *data), void *data)
{
	add_callback_cb(f, early, malloc(sizeof(struct fence_cb)), fn, data);
}

struct plain_cb {
	void (*fn)(void *data);
	void *data;
};

static void run_plain_cb(struct gt_fence *f, void *data)
{
	(void)f;
	struct plain_cb pc = *(struct plain_cb *)data;
	free(data);
	pc.fn(pc.data);
}

static void on_signal(struct gt_fence *f, bool early, void (*fn)(void *data), void *data)
{
	if (!f || !fn)
		return;
	struct plain_cb *pc = malloc(sizeof(*pc));
	if (!pc) {
		fence_wait(f, -1);
		fn(data);
		return;
	}
	pc->fn = fn;
	pc->data = data;
	add_callback(f, early, run_plain_cb, pc);
}

void fence_on_signal(struct gt_fence *f, void (*fn)(void *data), void *data)
{
	on_signal(f, false, fn, data);
}

void fence_on_signal_early(struct gt_fence *f, void (*fn)(void *data), void *data)
{
	on_signal(f, true, fn, data);
}

int fence_on_signal_early_try(struct gt_fence *f, void (*fn)(void *data), void *data)
{
	struct plain_cb *pc = malloc(sizeof(*pc));
	struct fence_cb *cb = malloc(sizeof(*cb));
	if (!pc || !cb) {
		free(pc);
		free(cb);
		return -ENOMEM;
	}
	pc->fn = fn;
	pc->data = data;
	add_callback_cb(f, true, cb, run_plain_cb, pc);
	return 0;
}

/* fence_merge: the result signals when the last pending input does. */
struct merge_state {
	unsigned pending;   /* atomic */
	int error;          /* first error, under fence_lock order: atomic cas */
	struct gt_fence *result;
};

static void merge_input_signaled(struct gt_fence *input, void *data)
{
	struct merge_state *m = data;
	int err = input->error, zero = 0;
	if (err)
		__atomic_compare_exchange_n(&m->error, &zero, err, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	if (__atomic_sub_fetch(&m->pending, 1, __ATOMIC_ACQ_REL) == 0) {
		fence_signal(m->result, __atomic_load_n(&m->error, __ATOMIC_ACQUIRE));
		fence_put(m->result);
		free(m);
	}
}

struct gt_fence *fence_merge(struct gt_fence *const *fences, unsigned n)
{
	struct gt_fence *result = fence_create();
	if (!result)
		return NULL;
	struct merge_state *m = calloc(1, sizeof(*m));
	if (!m) {
		fence_put(result);
		return NULL;
	}
	/* One extra count held while callbacks are being added, so the
	 * result cannot signal before every input is registered. */
	m->pending = n + 1;
	m->result = fence_get(result);
	for (unsigned i = 0; i < n; i++) {
		if (fences[i])
			add_callback(fences[i], false, merge_input_signaled, m);
		else
			__atomic_sub_fetch(&m->pending, 1, __ATOMIC_ACQ_REL);
	}
	struct gt_fence done = { .signaled = 1 };
	merge_input_signaled(&done, m);
	return result;
}

/* sync_file_merge(): the fences of both files, flattened (a merged file
 * contributes its own), each once. */
struct gt_fence *fence_merge_file(struct gt_fence *a, struct gt_fence *b)
{
	struct gt_fence *in[2] = { a, b };
	unsigned cap = (a->nparts ? a->nparts : 1) + (b->nparts ? b->nparts : 1), n = 0;
	struct gt_fence **parts = calloc(cap, sizeof(*parts));
	if (!parts)
		return NULL;
	for (unsigned i = 0; i < 2; i++) {
		unsigned count = in[i]->nparts ? in[i]->nparts : 1;
		for (unsigned j = 0; j < count; j++) {
			struct gt_fence *p = in[i]->nparts ? in[i]->parts[j] : in[i];
			unsigned k = 0;
			while (k < n && parts[k] != p &&
			       !(p->context && parts[k]->context == p->context))
				k++;
			if (k == n)
				parts[n++] = p;
			else if (parts[k] != p && (int32_t)(p->seqno - parts[k]->seqno) > 0)
				parts[k] = p;   /* same timeline: the later point */
		}
	}
	struct gt_fence *result = fence_merge(parts, n);
	if (!result) {
		free(parts);
		return NULL;
	}
	for (unsigned i = 0; i < n; i++)
		fence_get(parts[i]);
	result->parts = parts;
	result->nparts = n;
	return result;
}

void fence_set_context(struct gt_fence *f, uint64_t context, uint32_t seqno)
{
	f->context = context;
	f->seqno = seqno;
}

void fence_mark_request(struct gt_fence *f)
{
	f->request = true;
}

void fence_mark_started(struct gt_fence *f)
{
	/* Paired with execution_of: whichever of the two comes second sees
	 * the other's store, so the execution fence is always signaled. */
	__atomic_store_n(&f->started, 1, __ATOMIC_SEQ_CST);
	struct gt_fence *x = __atomic_load_n(&f->execution, __ATOMIC_SEQ_CST);
	if (x)
		fence_signal(x, 0);
}

/* f's execution fence, a new reference (NULL: no memory). */
static struct gt_fence *execution_of(struct gt_fence *f)
{
	if (!f->request)
		return fence_get(f);
	struct gt_fence *x = __atomic_load_n(&f->execution, __ATOMIC_SEQ_CST);
	if (!x) {
		struct gt_fence *n = fence_create();
		if (!n)
			return NULL;
		if (__atomic_compare_exchange_n(&f->execution, &x, n, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			x = n;
		else
			fence_put(n);   /* another thread's is x */
	}
	if (__atomic_load_n(&f->started, __ATOMIC_SEQ_CST))
		fence_signal(x, 0);
	return fence_get(x);
}

/* i915_request_await_execution: a request's fence stands for its start,
 * anything else (another driver's fence, a sw_sync point) for its
 * completion; a merged fence for each of its parts so. */
struct gt_fence *fence_execution_get(struct gt_fence *f)
{
	if (!f->nparts)
		return execution_of(f);
	struct gt_fence **parts = calloc(f->nparts, sizeof(*parts));
	struct gt_fence *m = NULL;
	if (parts) {
		unsigned i = 0;
		while (i < f->nparts && (parts[i] = execution_of(f->parts[i])) != NULL)
			i++;
		if (i == f->nparts)
			m = fence_merge(parts, f->nparts);
		for (unsigned j = 0; j < i; j++)
			fence_put(parts[j]);
	}
	free(parts);
	return m;
}

unsigned fence_parts(struct gt_fence *f, struct gt_fence **out, unsigned max)
{
	unsigned n = f->nparts ? f->nparts : 1;
	for (unsigned i = 0; i < n && i < max; i++)
		out[i] = f->nparts ? f->parts[i] : f;
	return n;
}

void fence_fork_prepare(void)
{
	sync_fd_fork_lock();
	pthread_mutex_lock(&fence_lock);
}

void fence_fork_parent(void)
{
	pthread_mutex_unlock(&fence_lock);
	sync_fd_fork_unlock();
}

void fence_fork_child(void)
{
	pthread_mutex_unlock(&fence_lock);
	sync_fd_fork_unlock();
}
