/* User copies that survive bad pointers (user_copy.h).
 *
 * The copy is a plain loop; a fault inside it (SIGSEGV, or SIGBUS past the
 * end of a mapped file) is caught by a handler that jumps back to the copy
 * and makes it return -EFAULT, like the kernel's exception-table fixups.
 * Faults anywhere else go on to whatever handler was installed before (or
 * the default action). If the handler cannot be installed, the copy goes
 * through process_vm_readv/writev on our own process, which reports
 * unmapped memory as an error but costs a system call with page pinning
 * (microseconds). */
#include "kernel/sync/user_copy.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* initial-exec: a plain %fs-relative access instead of a __tls_get_addr
 * call on every copy (the shim is preloaded or linked, never dlopened). */
static _Thread_local sigjmp_buf *copy_fixup __attribute__((tls_model("initial-exec")));
static struct sigaction previous[2];   /* SIGSEGV, SIGBUS */
static pthread_mutex_t previous_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int handler_installed;
static user_fault_hook fault_hook;

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
	sigjmp_buf *fixup = copy_fixup;
	if (fixup) {
		copy_fixup = NULL;
		siglongjmp(*fixup, 1);
	}
	/* Then the shim's emulated accesses (MMIO through the PCI BAR). */
	user_fault_hook hook = __atomic_load_n(&fault_hook, __ATOMIC_ACQUIRE);
	if (hook && hook(sig, info, uctx))
		return;
	/* Not ours: pass it on to the handler installed before (or after,
	 * through user_copy_sigaction); with none, restore the default and
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

int user_copy_sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
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

int user_copy_set_fault_hook(user_fault_hook hook)
{
	pthread_once(&install_once, install_handler);
	if (!__atomic_load_n(&handler_installed, __ATOMIC_ACQUIRE))
		return -1;
	__atomic_store_n(&fault_hook, hook, __ATOMIC_RELEASE);
	return 0;
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

static int guarded_copy(void *dst, const void *src, size_t size)
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

static int copy_syscall(void *local, uint64_t remote, size_t size, int to_user)
{
	struct iovec l = { local, size };
	struct iovec r = { (void *)(uintptr_t)remote, size };
	ssize_t n = to_user ? process_vm_writev(getpid(), &l, 1, &r, 1, 0)
			    : process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	if (n == (ssize_t)size)
		return 0;
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		if (to_user)
			memcpy((void *)(uintptr_t)remote, local, size);
		else
			memcpy(local, (const void *)(uintptr_t)remote, size);
		return 0;
	}
	return -EFAULT;
}

static int copy_user(void *local, uint64_t remote, size_t size, int to_user)
{
	if (size == 0)
		return 0;
	if (remote == 0 || remote + size < remote || remote + size > UINTPTR_MAX)
		return -EFAULT;
	pthread_once(&install_once, install_handler);
	if (!handler_installed)
		return copy_syscall(local, remote, size, to_user);
	void *user = (void *)(uintptr_t)remote;
	return to_user ? guarded_copy(user, local, size) : guarded_copy(local, user, size);
}

int copy_from_user_ptr(void *dst, uint64_t user_ptr, size_t size)
{
	return copy_user(dst, user_ptr, size, 0);
}

int copy_to_user_ptr(uint64_t user_ptr, const void *src, size_t size)
{
	return copy_user((void *)src, user_ptr, size, 1);
}
