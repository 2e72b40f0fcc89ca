/* The C library's versions of the functions the shim interposes, looked up
 * with dlsym(RTLD_NEXT). Lookups happen once, on first use or in the
 * constructor, whichever comes first. While dlsym itself runs, a hook that
 * it reaches (through the dynamic loader) finds its pointer still NULL and
 * takes the raw system call path instead (see the hooks). */
#include "shim/shim.h"

#include <dlfcn.h>
#include <pthread.h>

struct real_fns real;

static int state;  /* 0 not started, 1 resolving, 2 done (atomic) */

#define RESOLVE(name) real.name = (__typeof__(real.name))dlsym(RTLD_NEXT, #name)

void real_init(void)
{
	int expected = 0;
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2)
		return;
	if (!__atomic_compare_exchange_n(&state, &expected, 1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* Another thread (or we, recursively) is resolving: the
		 * callers fall back to system calls until it is done. */
		return;
	}
	RESOLVE(open); RESOLVE(openat); RESOLVE(openat64);
	RESOLVE(fopen); RESOLVE(fopen64); RESOLVE(fclose);
	RESOLVE(close); RESOLVE(dup); RESOLVE(dup2); RESOLVE(dup3);
	RESOLVE(fcntl); RESOLVE(fcntl64); RESOLVE(ioctl);
	RESOLVE(mmap); RESOLVE(mmap64); RESOLVE(munmap); RESOLVE(mprotect);
	RESOLVE(mremap); RESOLVE(madvise);
	RESOLVE(stat); RESOLVE(lstat);
	RESOLVE(fstat); RESOLVE(fstatat);
	RESOLVE(statx);
	RESOLVE(access); RESOLVE(faccessat); RESOLVE(eaccess);
	RESOLVE(readlink); RESOLVE(readlinkat);
	RESOLVE(realpath);
	RESOLVE(opendir); RESOLVE(scandir);
	RESOLVE(sigaction);
	__atomic_store_n(&state, 2, __ATOMIC_RELEASE);
}

__attribute__((constructor(101))) static void real_init_early(void)
{
	real_init();
}
