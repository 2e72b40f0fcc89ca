/* Accessors other units need on a DRM file (struct gtsim_file, defined by
 * the kernel model's core in src/kernel/). */
#ifndef GTSIM_KERNEL_FILE_H
#define GTSIM_KERNEL_FILE_H

struct gtsim_file;
struct syncobj_table;

/* The file's syncobj handle table (src/kernel/sync/). */
struct syncobj_table *file_syncobjs(struct gtsim_file *file);

#endif
