/* A page of the test's own registered with userfaultfd (missing pages):
 * the first access to it waits until the test serves the fault. Shared by
 * the tests of copies and execbufs that must not hold the device while they
 * wait on a fault (test_userptr_fault.c, test_rw_fault.c). */
#ifndef GTSIM_TEST_UFFD_H
#define GTSIM_TEST_UFFD_H

#include <fcntl.h>
#include <poll.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test.h"

/* The userfaultfd with one fresh page (shared or private) registered in
 * *page; skips the test where userfaultfd is unavailable. UFFD_USER_MODE_ONLY
 * (Linux 5.11) first, for hosts with unprivileged userfaultfd off: the
 * model's accesses are user-mode ones. Non-blocking: Linux's poll on a
 * blocking userfaultfd returns POLLERR at once, without waiting for a fault
 * (userfaultfd_poll), which made the wait below a no-op. */
static inline int uffd_page(void **page, int map_flags)
{
	int fd = -1;
#ifdef UFFD_USER_MODE_ONLY
	fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
#endif
	if (fd < 0)
		fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		test_skip("userfaultfd unavailable");
	struct uffdio_api api = { .api = UFFD_API };
	if (ioctl(fd, UFFDIO_API, &api))
		test_skip("UFFDIO_API refused");
	*page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, map_flags | MAP_ANONYMOUS, -1, 0);
	CHECK(*page != MAP_FAILED);
	struct uffdio_register reg = { .range = { .start = (uintptr_t)*page, .len = 4096 },
				       .mode = UFFDIO_REGISTER_MODE_MISSING };
	if (ioctl(fd, UFFDIO_REGISTER, &reg))
		test_skip("UFFDIO_REGISTER refused");
	return fd;
}

/* Within 5 s a fault arrives on ufd at page. */
static inline void uffd_expect_fault(int ufd, const void *page)
{
	struct pollfd pfd = { .fd = ufd, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 5000), 1);
	CHECK_EQ(pfd.revents, POLLIN);
	struct uffd_msg msg = { 0 };
	if (pfd.revents & POLLIN) {
		CHECK_EQ(read(ufd, &msg, sizeof(msg)), (ssize_t)sizeof(msg));
		CHECK_EQ(msg.event, UFFD_EVENT_PAGEFAULT);
		CHECK_EQ(msg.arg.pagefault.address & ~4095ull, (uint64_t)(uintptr_t)page);
	}
}

#endif
