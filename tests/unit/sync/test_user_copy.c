/* User copies: good memory is copied; NULL, unmapped, PROT_NONE and
 * read-only destinations give -EFAULT (as copy_{from,to}_user do) and the
 * process lives on; a fault outside a copy still reaches the program's own
 * SIGSEGV handler. */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/user_copy.h"
#include "test.h"

static void own_handler(int sig) { (void)sig; _exit(42); }

int main(void)
{
	uint32_t src[4] = { 1, 2, 3, 4 }, dst[4] = { 0 };
	CHECK_EQ(copy_from_user_ptr(dst, (uintptr_t)src, sizeof(src)), 0);
	CHECK_EQ(dst[3], 4);
	CHECK_EQ(copy_to_user_ptr((uintptr_t)dst, (uint32_t[]){ 9 }, 4), 0);
	CHECK_EQ(dst[0], 9);
	CHECK_EQ(copy_from_user_ptr(dst, 0, 4), -EFAULT);
	CHECK_EQ(copy_from_user_ptr(dst, 0x10, 4), -EFAULT);
	CHECK_EQ(copy_from_user_ptr(dst, ~0ull - 2, 4), -EFAULT);   /* wraps */
	CHECK_EQ(copy_from_user_ptr(dst, 0x10, 0), 0);              /* nothing to copy */

	long page = sysconf(_SC_PAGESIZE);
	unsigned char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED);
	p[page - 1] = 0x5a;
	mprotect(p + page, page, PROT_NONE);
	unsigned char two[2] = { 0 };
	/* Straddling into the PROT_NONE page. */
	CHECK_EQ(copy_from_user_ptr(two, (uintptr_t)(p + page - 1), 2), -EFAULT);
	CHECK_EQ(copy_from_user_ptr(two, (uintptr_t)(p + page - 1), 1), 0);
	CHECK_EQ(two[0], 0x5a);
	mprotect(p, page, PROT_READ);
	CHECK_EQ(copy_to_user_ptr((uintptr_t)p, two, 1), -EFAULT);  /* read-only */
	munmap(p, 2 * page);
	CHECK_EQ(copy_to_user_ptr((uintptr_t)p, two, 1), -EFAULT);  /* unmapped */

	/* A program's own handler, installed after the copy's, still gets
	 * the program's own faults (in a child, which then exits 42). */
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, own_handler);
		volatile uintptr_t bad_addr = 0x10;
		*(volatile int *)bad_addr = 1;
		_exit(0);
	}
	int status = 0;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42);
	/* A fault outside any copy, with no other handler: the process dies
	 * (of SIGSEGV, or through AddressSanitizer's report), no hang. */
	pid = fork();
	if (pid == 0) {
		volatile uintptr_t bad_addr = 0x10;
		*(volatile int *)bad_addr = 1;
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0));
	return test_exit();
}
