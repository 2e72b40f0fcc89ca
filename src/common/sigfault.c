/* The SIGSEGV/SIGBUS handler (sigfault.h).
 *
 * A guarded copy is a plain loop; a fault inside it (SIGSEGV, or SIGBUS
 * past the end of a mapped file) is caught by the handler, which jumps back
 * to the copy and makes it return -EFAULT. Faults anywhere else go to the
 * hook, then to whatever handler was installed before (or recorded through
 * sigfault_sigaction), then to the default action. */
#include "common/sigfault.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* initial-exec: a plain %fs-relative access instead of a __tls_get_addr
 * call on every copy (gtsim is preloaded or linked, never dlopened).
 * volatile: only the signal handler reads it, so without it a compiler
 * that sees raw_copy never does may drop the store before the copy
 * (clang -O2 did: every bad user pointer crashed instead of -EFAULT). */
static _Thread_local sigjmp_buf *volatile copy_fixup __attribute__((tls_model("initial-exec")));
static struct sigaction previous[2];   /* SIGSEGV, SIGBUS */
static pthread_mutex_t previous_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int handler_installed;
#define MAX_HOOKS 4
static sigfault_hook fault_hooks[MAX_HOOKS];

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
	sigjmp_buf *fixup = copy_fixup;
	if (fixup) {
		copy_fixup = NULL;
		siglongjmp(*fixup, 1);
	}
	/* Then the hooks (the shim's MMIO through the PCI BAR, the kernel
	 * model's userptr fixup), in the order they were added. */
	for (int i = 0; i < MAX_HOOKS; i++) {
		sigfault_hook hook = __atomic_load_n(&fault_hooks[i], __ATOMIC_ACQUIRE);
		if (hook && hook(sig, info, uctx))
			return;
	}
	/* Not ours: pass it on to the handler installed before (or after,
	 * through sigfault_sigaction); with none, restore the default and
	 * let the faulting instruction run again under it. */
	struct sigaction old = previous[sig == SIGBUS];
	if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
		old.sa_sigaction(sig, info, uctx);
		return;
	}
	if (old.sa_handler == SIG_IGN)
		return;
	if (old.sa_handler != SIG_DFL) {
		old.sa_handler(sig);
		return;
	}
	/* The raw system call: sigaction() itself may be interposed (the
	 * shim records handlers instead of installing them). */
	struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } dfl = {
		.handler = (void *)SIG_DFL };
	syscall(SYS_rt_sigaction, sig, &dfl, NULL, sizeof(dfl.mask));
}

static void install_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &previous[0]) == 0 &&
	    sigaction(SIGBUS, &sa, &previous[1]) == 0)
		__atomic_store_n(&handler_installed, 1, __ATOMIC_RELEASE);
}

bool sigfault_available(void)
{
	pthread_once(&install_once, install_handler);
	return __atomic_load_n(&handler_installed, __ATOMIC_ACQUIRE);
}

int sigfault_sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	if ((sig != SIGSEGV && sig != SIGBUS) || !__atomic_load_n(&handler_installed, __ATOMIC_ACQUIRE))
		return -1;
	pthread_mutex_lock(&previous_lock);
	struct sigaction *slot = &previous[sig == SIGBUS];
	if (oldact)
		*oldact = *slot;
	if (act)
		*slot = *act;
	pthread_mutex_unlock(&previous_lock);
	return 0;
}

int sigfault_add_hook(sigfault_hook hook)
{
	if (!sigfault_available())
		return -1;
	pthread_mutex_lock(&previous_lock);
	int ret = -1;
	for (int i = 0; i < MAX_HOOKS && ret; i++) {
		sigfault_hook cur = __atomic_load_n(&fault_hooks[i], __ATOMIC_ACQUIRE);
		if (cur == hook) {
			ret = 0;
		} else if (!cur) {
			__atomic_store_n(&fault_hooks[i], hook, __ATOMIC_RELEASE);
			ret = 0;
		}
	}
	pthread_mutex_unlock(&previous_lock);
	return ret;
}

/* Not instrumented: a bad address must fault here, inside the guarded
 * region, not in a sanitizer's check first. */
__attribute__((no_sanitize("address", "undefined"), noinline))
static void raw_copy(volatile unsigned char *dst, const volatile unsigned char *src, size_t n)
{
	size_t i = 0;
	/* Eight bytes at a time (x86 allows unaligned words), then bytes. */
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		__builtin_memcpy(&w, (const unsigned char *)src + i, 8);
		__builtin_memcpy((unsigned char *)dst + i, &w, 8);
	}
	for (; i < n; i++)
		dst[i] = src[i];
}

int sigfault_copy(void *dst, const void *src, size_t size)
{
	sigjmp_buf fixup;
	if (sigsetjmp(fixup, 0)) {
		copy_fixup = NULL;
		return -EFAULT;
	}
	copy_fixup = &fixup;
	raw_copy(dst, src, size);
	copy_fixup = NULL;
	return 0;
}
