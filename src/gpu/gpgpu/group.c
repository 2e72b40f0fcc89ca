/* One thread group of a walker: its threads are dispatched together and
 * run round-robin on the interpreter, each until it ends, is suspended at
 * a `wait` (the barrier, sfid/gateway.h) or has run a time slice (so that
 * a thread spinning on shared memory lets the others on, as the EUs run
 * them at the same time), until all have ended. When
 * none can run and some have not ended, the group can never finish: on
 * the hardware the EUs would wait forever and the kernel's hangcheck
 * would reset the engine; gtsim reports that hang at once as a GPU fault
 * naming the group, its waiting threads and the barrier's count. */
#include <stdio.h>
#include <stdlib.h>

#include "common/trace.h"
#include "gpu/gpgpu/gpgpu_internal.h"

/* Instructions one thread may execute before it counts as hung (as a VS
 * or PS thread: exec_run's default budget), and in one turn. */
#define THREAD_BUDGET 100000000ull
#define THREAD_SLICE 20000ull

static void event(struct gpgpu_state *gs, enum gpgpu_event ev, const struct gpgpu_walk *w,
		  const uint32_t group[3], unsigned index, const struct eu_thread *t)
{
	if (!gs->hook)
		return;
	struct gpgpu_thread_info ti = { .group = { group[0], group[1], group[2] },
					.index = index, .threads = w->threads,
					.simd = w->simd, .mask = t->dispatch_mask };
	gs->hook(gs->hook_ctx, ev, &ti, t);
}

/* The fault of a group that can make no more progress. */
static int deadlock(struct gpgpu_state *gs, const struct gpgpu_walk *w, const uint32_t group[3],
		    const struct gpgpu_units *u, struct eu_thread **threads)
{
	char list[96] = "";
	size_t at = 0;
	unsigned waiting = 0, ended = 0;
	for (unsigned i = 0; i < w->threads; i++) {
		if (threads[i]->state == EU_THREAD_DONE) {
			ended++;
			continue;
		}
		if (waiting++ < 8 && at < sizeof(list))
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%u@%u",
					       at ? " " : "", i, threads[i]->ip);
	}
	return gpgpu_set_fault(gs, "GPU hang: %s thread group (%u,%u,%u): %u of %u "
			       "threads wait forever (thread@instruction number: %s%s), %u ended; "
			       "barrier: %u of %u threads arrived", w->cmd, group[0], group[1],
			       group[2], waiting, w->threads, list, waiting > 8 ? " ..." : "", ended,
			       u->gateway.arrived, u->gateway.expected);
}

static void dispatch(struct gpgpu_state *gs, struct gpgpu_walk *w, const uint32_t group[3],
		     struct gpgpu_units *u, struct eu_thread **threads, uint32_t barrier_id)
{
	for (unsigned i = 0; i < w->threads; i++) {
		struct eu_thread *t = threads[i];
		eu_thread_init(t, w->simd, gpgpu_thread_mask(w, i));
		(w->payload ? w->payload : gpgpu_payload)(gs, w, t, group, i, barrier_id);
		t->sfids = &gpgpu_sfids;
		t->sfid_units = u;
		t->user = gs;
		w->invocations += (unsigned)__builtin_popcount(t->dispatch_mask);
		event(gs, GPGPU_THREAD_START, w, group, i, t);
	}
}

int gpgpu_run_group(struct gpgpu_state *gs, const struct gpgpu_env *env,
		    struct gpgpu_walk *w, const uint32_t group[3], struct gpgpu_units *u,
		    struct eu_thread **threads)
{
	(void)env;
	/* the hardware has 16 barriers per subslice; one group runs at a
	 * time here, so the ID only tells groups apart in traces */
	uint32_t barrier_id = (uint32_t)(gs->groups % 16) << 24;
	u->gateway = (struct gateway_group){
		.gen = gs->gen, .barrier_enable = w->id.barrier_enable, .barrier_id = barrier_id,
		.expected = w->id.number_of_threads_in_gpgpu_thread_group,
		.threads = threads, .nthreads = w->threads };
	TRACE(TRACE_GPGPU, "group %llu (%u,%u,%u): %u SIMD%u threads, barrier ID %u",
	      (unsigned long long)gs->groups, group[0], group[1], group[2], w->threads, w->simd,
	      barrier_id >> 24);
	gs->groups++;
	dispatch(gs, w, group, u, threads, barrier_id);
	gs->threads += w->threads;

	unsigned ended = 0;
	bool *waited = calloc(w->threads, sizeof(bool));
	if (!waited)
		return gpgpu_set_fault(gs, "%s: out of memory", w->cmd);
	int r = 0;
	while (!r && ended < w->threads) {
		bool ran = false;
		for (unsigned i = 0; !r && i < w->threads; i++) {
			struct eu_thread *t = threads[i];
			if (t->state != EU_THREAD_READY)
				continue;
			if (waited[i])
				event(gs, GPGPU_THREAD_RESUME, w, group, i, t);
			waited[i] = false;
			ran = true;
			uint64_t left = t->instructions < THREAD_BUDGET ?
				THREAD_BUDGET - t->instructions : 1;
			switch (exec_run(t, w->prog, left < THREAD_SLICE ? left : THREAD_SLICE)) {
			case EU_THREAD_DONE:
				ended++;
				event(gs, GPGPU_THREAD_END, w, group, i, t);
				break;
			case EU_THREAD_WAIT:
				waited[i] = true;
				event(gs, GPGPU_THREAD_WAIT, w, group, i, t);
				break;
			case EU_THREAD_FAULT:
				r = gpgpu_set_fault(gs, "CS thread %u of group (%u,%u,%u): %s", i,
						    group[0], group[1], group[2], t->fault);
				break;
			case EU_THREAD_LIMIT:
				if (t->instructions < THREAD_BUDGET) {
					t->state = EU_THREAD_READY;   /* its slice is over */
					break;
				}
				/* fall through */
			default:
				r = gpgpu_set_fault(gs, "GPU hang: CS thread %u of group (%u,%u,%u) "
						    "did not end (%llu instructions)", i, group[0],
						    group[1], group[2],
						    (unsigned long long)t->instructions);
				break;
			}
		}
		if (!r && !ran)
			r = deadlock(gs, w, group, u, threads);
	}
	free(waited);
	return r;
}
