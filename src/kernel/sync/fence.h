/* Fences (like the kernel's dma_fence): a one-shot completion signal with an
 * error status, reference counted. Every request has one; sync_file fds and
 * syncobjs carry them between clients (src/kernel/sync/). */
#ifndef GTSIM_SYNC_FENCE_H
#define GTSIM_SYNC_FENCE_H

#include <stdbool.h>
#include <stdint.h>

struct gt_fence;

struct gt_fence *fence_create(void);
struct gt_fence *fence_get(struct gt_fence *f);
/* Dropping the last reference to a fence that never signaled signals it
 * with -EDEADLK first (as dma_fence_release does), so that fences merged
 * from it still complete. */
void fence_put(struct gt_fence *f);
/* Signal once (later calls do nothing); error 0 or -errno (e.g. -EIO for a
 * request that was reset). Wakes waiters and runs callbacks. */
void fence_signal(struct gt_fence *f, int error);
bool fence_is_signaled(struct gt_fence *f);
/* Signaled, or being signaled (its sync-file callbacks running): the work
 * it stands for is complete. A sync file polls readable from that moment,
 * so a GEM_WAIT that follows must find the request done too (i915's
 * dma_fence_signal sets the signaled bit before any callback). */
bool fence_is_done(struct gt_fence *f);
/* Signaled, waiting out a signal already in progress (its early callbacks,
 * which neither signal nor wait, so the wait is short): Linux sets a
 * fence's signaled bit before it runs any callback, so a waiter that can
 * see the work's effects (a sync file polling readable, a request that
 * waited on the fence through a GPU semaphore done) finds it signaled. */
bool fence_is_signaled_settled(struct gt_fence *f);
int fence_error(struct gt_fence *f);
/* 0 once signaled, -ETIME when timeout_ns passed first; timeout_ns < 0
 * waits forever. */
int fence_wait(struct gt_fence *f, int64_t timeout_ns);
/* fn runs once when f signals (at once if it already has). */
void fence_on_signal(struct gt_fence *f, void (*fn)(void *data), void *data);

/* Extensions (src/kernel/sync/fence.c). */
/* fn runs once just before f is seen as signaled (at once if it has been
 * or is being signaled): for state that must already be in place when a
 * waiter wakes, like a sync_file polling readable. fn must not signal or
 * wait for fences. */
void fence_on_signal_early(struct gt_fence *f, void (*fn)(void *data), void *data);
/* The same, but -ENOMEM (fn never runs) when its memory cannot be had,
 * where fence_on_signal_early would wait for f: for a caller that can
 * still fail, such as an execbuf before its request is submitted. */
int fence_on_signal_early_try(struct gt_fence *f, void (*fn)(void *data), void *data);
/* A new fence that is already signaled without error (the kernel's
 * dma_fence_get_stub). */
struct gt_fence *fence_create_signaled(void);
/* A new fence that signals once every one of fences[0..n) has; its error is
 * the first error among them (dma_fence_array / sync_file merge). n == 0
 * gives a signaled fence. */
struct gt_fence *fence_merge(struct gt_fence *const *fences, unsigned n);
/* SYNC_IOC_MERGE's fence: fence_merge of a's and b's fences, flattened (a
 * merged one contributes its parts) and each once, remembering them for
 * SYNC_IOC_FILE_INFO. fence_parts: the parts of f (f itself when not
 * merged so): their count, the first max of them in out (no reference). */
struct gt_fence *fence_merge_file(struct gt_fence *a, struct gt_fence *b);
/* f is point seqno of timeline context (nonzero): a merge keeps only the
 * later of two points of one timeline (sync_file_merge). */
void fence_set_context(struct gt_fence *f, uint64_t context, uint32_t seqno);
unsigned fence_parts(struct gt_fence *f, struct gt_fence **out, unsigned max);
/* I915_EXEC_FENCE_SUBMIT: a request's fence is marked as one
 * (fence_mark_request) and told when its request starts
 * (fence_mark_started); fence_execution_get gives the fence to wait for
 * "until f's work has started": one that signals at that start for a
 * request's fence, f itself for any other, part by part for a merged f (a
 * new reference; NULL: no memory). */
void fence_mark_request(struct gt_fence *f);
void fence_mark_started(struct gt_fence *f);
struct gt_fence *fence_execution_get(struct gt_fence *f);
/* CLOCK_MONOTONIC nanoseconds when f signaled, 0 while it has not. */
uint64_t fence_timestamp_ns(struct gt_fence *f);
/* sync_file status: 1 signaled, 0 active, <0 the error (from the moment
 * signaling starts). */
int fence_status(struct gt_fence *f);
/* CLOCK_MONOTONIC now, in nanoseconds. */
int64_t fence_now_ns(void);

/* Waiting on several conditions at once (syncobj waits). A waiter reads
 * fence_wait_seq(), checks its conditions, and if none holds calls
 * fence_wait_change(seq, deadline) which returns when any fence signals or
 * fence_notify_change() is called (e.g. a syncobj got a fence), or -ETIME
 * once the absolute CLOCK_MONOTONIC deadline_ns (<0: none) has passed. */
uint64_t fence_wait_seq(void);
int fence_wait_change(uint64_t seq, int64_t deadline_ns);
void fence_notify_change(void);
/* The same for a wait i915 lets a signal interrupt (dma_fence_wait and
 * drm_syncobj's waits with intr = true): also -GTSIM_ERESTARTSYS when a
 * client's signal handler ran meanwhile (common/sigdefer.h). */
int fence_wait_change_interruptible(uint64_t seq, int64_t deadline_ns);
int fence_wait_interruptible(struct gt_fence *f, int64_t timeout_ns);

/* fork(): the forking thread holds the unit's locks across the fork
 * (prepare), then releases them in the parent and in the child. */
void fence_fork_prepare(void);
void fence_fork_parent(void);
void fence_fork_child(void);

/* sync_file: a real file descriptor standing for a fence, pollable (POLLIN
 * once signaled), as Mesa and IGT use them. -errno on failure. */
int sync_file_export(struct gt_fence *f);
/* A new reference to the fence behind fd, or NULL (fd is not a sync_file). */
struct gt_fence *sync_file_import(int fd);
/* SYNC_IOC_MERGE / SYNC_IOC_FILE_INFO on a sync_file fd (0 or -errno);
 * -ENOTTY when fd is not a sync_file or request is not a sync ioctl. */
int sync_file_ioctl(int fd, unsigned long request, void *arg);
/* True when fd is a gtsim sync_file or syncobj fd. */
bool sync_fd_is_ours(int fd);

/* Per-file syncobj tables (drm_syncobj), binary and timeline. */
struct syncobj_table;
struct syncobj_table *syncobj_table_create(void);
void syncobj_table_destroy(struct syncobj_table *t);
/* The fence a syncobj holds at point (0 for binary); a new reference, or
 * NULL with -ENOENT (no such handle) or -EINVAL (no fence at that point). */
struct gt_fence *syncobj_find_fence(struct syncobj_table *t, uint32_t handle,
				    uint64_t point, int *err);
/* Replace the binary payload, or add a timeline point. -ENOENT for a bad handle. */
int syncobj_set_fence(struct syncobj_table *t, uint32_t handle, uint64_t point,
		      struct gt_fence *f);
bool syncobj_exists(struct syncobj_table *t, uint32_t handle);

#endif
