/* Copying between files without filling their holes: the data extents
 * of a sparse file (a memfd whose pages were never touched, or were
 * punched) are copied, its holes stay holes in the copy. */
#ifndef GTSIM_COMMON_FILE_COPY_H
#define GTSIM_COMMON_FILE_COPY_H

#include <sys/types.h>

/* Copies [src_off, src_off + len) of src to dst at dst_off; the range of
 * dst must be a hole (e.g. a new, truncated memfd). 0 or -errno. */
int file_copy_data(int dst, off_t dst_off, int src, off_t src_off, off_t len);

#endif
