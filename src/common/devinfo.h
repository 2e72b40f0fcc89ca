/* The identity and sizes of the simulated GPU. Everything that differs
 * between devices is a field here, never a scattered generation check.
 * GTSIM_DEVICE=bdw (default) or skl selects one. */
#ifndef GTSIM_DEVINFO_H
#define GTSIM_DEVINFO_H

#include <stdint.h>

struct gt_devinfo {
	const char *short_name;   /* "bdw" */
	const char *marketing;    /* "Intel(R) HD Graphics 5500 (BDW GT2)" */
	uint16_t pci_vendor;      /* 0x8086 */
	uint16_t pci_device;      /* 0x1616 */
	uint16_t subsys_vendor, subsys_device;
	uint8_t revision;
	int gen;                  /* 8 or 9 */
	int gt;                   /* 2 */
	int num_slices;
	int num_subslices;        /* total */
	int num_eus;              /* total */
	int threads_per_eu;
	uint64_t ggtt_size;       /* bytes of global GTT address space */
	uint64_t aperture_size;   /* CPU-mappable part at the start of the GGTT */
	int ppgtt_bits;           /* 48: full 4-level PPGTT */
	uint64_t timestamp_hz;    /* command streamer TIMESTAMP frequency */
	/* URB (seed 003): total size in KB and per-stage entry limits. */
	int urb_size_kb;
	int urb_min_vs_entries;
	int urb_max_entries[4];   /* VS, HS, DS, GS */
	int urb_min_vs_entries_tess; /* VS minimum when tessellation is on */
	int urb_min_ds_entries;   /* DS minimum when tessellation is on */
	int push_constant_kb;     /* URB space the driver keeps for push constants */
};

/* The GPU's command streamers, in i915's order. */
enum gt_engine_id {
	ENGINE_RCS,   /* render */
	ENGINE_BCS,   /* blitter */
	ENGINE_VCS,   /* video */
	ENGINE_VECS,  /* video enhancement */
	GT_NUM_ENGINES
};
/* "rcs0", "bcs0", "vcs0", "vecs0"; "?" for another value. */
const char *engine_name(enum gt_engine_id id);
/* The base of the engine's 4 KiB MMIO page: RCS 0x2000, BCS 0x22000, VCS
 * 0x12000, VECS 0x1a000 (0 for another value). */
uint32_t engine_mmio_base(enum gt_engine_id id);
/* The engine whose registers hold the absolute MMIO offset reg: its page,
 * and for RCS the render unit's registers outside it (0x4000-0x408f,
 * 0x5xxx, 0x7xxx, 0xbxxx, 0xexxx: SO and pipeline statistics, L3 and cache
 * modes, which RCS batches load); GT_NUM_ENGINES for a global register. */
enum gt_engine_id engine_of_reg(uint32_t reg);

/* NULL for an unknown name. */
const struct gt_devinfo *devinfo_lookup(const char *name);
/* GTSIM_DEVICE from the environment, or bdw. NULL (and a message) when the
 * variable names no known device. */
const struct gt_devinfo *devinfo_from_env(void);

#endif
