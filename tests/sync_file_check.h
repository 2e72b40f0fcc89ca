/* The status of an out-fence's sync file (SYNC_IOC_FILE_INFO: 1 signaled,
 * 0 active, a negative errno for a fence signaled with an error, -EIO for
 * a reset request), which the tests that submit through execbuf check;
 * the descriptor is closed. */
#ifndef GTSIM_TEST_SYNC_FILE_CHECK_H
#define GTSIM_TEST_SYNC_FILE_CHECK_H

#include <linux/sync_file.h>
#include <unistd.h>

#include "kernel/sync/fence.h"
#include "test.h"

static inline int sync_file_status(int fd)
{
	struct sync_file_info info = { 0 };
	CHECK(fd >= 0);
	if (fd < 0)
		return 0;
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_FILE_INFO, &info), 0);
	close(fd);
	return info.status;
}

#endif
