/* The file behind a shared mapping, without holding a descriptor of it.
 *
 * A MAP_SHARED mapping keeps its file (a memfd's pages) alive by itself,
 * so the kernel model closes an object's memfd once it is mapped and asks
 * for a descriptor again only when one must be handed out (a dma-buf, a
 * CPU mapping made by mmap): through /proc/self/map_files/START-END, the
 * kernel's link from a mapping to its file (proc(5); opening it needs
 * CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN). Where the process may not,
 * callers keep their descriptors as before (map_file_reopen_works()). */
#ifndef GTSIM_COMMON_MAP_FILE_H
#define GTSIM_COMMON_MAP_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* A new open (flags: O_RDONLY/O_RDWR, O_CLOEXEC) of the file mapped by
 * the mapping that spans exactly [addr, addr + len): a descriptor or
 * -errno. */
int map_file_open(const void *addr, size_t len, int flags);
/* Whether map_file_open() works in this process (probed once). */
bool map_file_reopen_works(void);

#endif
