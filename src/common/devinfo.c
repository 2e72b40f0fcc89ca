#include "common/devinfo.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct gt_devinfo devices[] = {
	{
		.short_name = "bdw",
		.marketing = "Intel(R) HD Graphics 5500 (BDW GT2)",
		.pci_vendor = 0x8086, .pci_device = 0x1616,
		.subsys_vendor = 0x8086, .subsys_device = 0x2057,
		.revision = 0x09,
		.gen = 8, .gt = 2,
		.num_slices = 1, .num_subslices = 3, .num_eus = 24,
		.threads_per_eu = 7,
		.ggtt_size = 4ull << 30, .aperture_size = 256ull << 20,
		.ppgtt_bits = 48,
		.timestamp_hz = 12500000,
		.urb_size_kb = 384,
		.urb_min_vs_entries = 64,
		.urb_max_entries = { 2560, 504, 1536, 960 },
		.urb_min_vs_entries_tess = 192, /* BDW 3DSTATE_URB_VS: >= 192 with tessellation */
		.urb_min_ds_entries = 34,
		.push_constant_kb = 32,
	},
	{
		.short_name = "skl",
		.marketing = "Intel(R) HD Graphics 530 (SKL GT2)",
		.pci_vendor = 0x8086, .pci_device = 0x1912,
		.subsys_vendor = 0x8086, .subsys_device = 0x2057,
		.revision = 0x06,
		.gen = 9, .gt = 2,
		.num_slices = 1, .num_subslices = 3, .num_eus = 24,
		.threads_per_eu = 7,
		.ggtt_size = 4ull << 30, .aperture_size = 256ull << 20,
		.ppgtt_bits = 48,
		.timestamp_hz = 12000000,
		.urb_size_kb = 384,
		.urb_min_vs_entries = 64,
		.urb_max_entries = { 1856, 672, 1120, 640 },
		.urb_min_vs_entries_tess = 64,
		.urb_min_ds_entries = 34,
		.push_constant_kb = 32,
	},
};

const struct gt_devinfo *devinfo_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		if (!strcmp(devices[i].short_name, name))
			return &devices[i];
	return NULL;
}

const struct gt_devinfo *devinfo_from_env(void)
{
	const char *name = getenv("GTSIM_DEVICE");
	if (!name || !*name)
		name = "bdw";
	const struct gt_devinfo *d = devinfo_lookup(name);
	if (!d)
		fprintf(stderr, "gtsim: unknown GTSIM_DEVICE '%s' (known: bdw, skl)\n", name);
	return d;
}

static const char *const engine_names[GT_NUM_ENGINES] = {
	[ENGINE_RCS] = "rcs0", [ENGINE_BCS] = "bcs0",
	[ENGINE_VCS] = "vcs0", [ENGINE_VECS] = "vecs0",
};
static const uint32_t engine_bases[GT_NUM_ENGINES] = {
	[ENGINE_RCS] = 0x2000, [ENGINE_BCS] = 0x22000,
	[ENGINE_VCS] = 0x12000, [ENGINE_VECS] = 0x1a000,
};

const char *engine_name(enum gt_engine_id id)
{
	return (unsigned)id < GT_NUM_ENGINES ? engine_names[id] : "?";
}

uint32_t engine_mmio_base(enum gt_engine_id id)
{
	return (unsigned)id < GT_NUM_ENGINES ? engine_bases[id] : 0;
}

static bool is_render_unit_reg(uint32_t reg)
{
	return (reg >= 0x4000 && reg < 0x4000 + 0x90) ||
	       (reg >= 0x5000 && reg < 0x6000) ||
	       (reg >= 0x7000 && reg < 0x8000) ||
	       (reg >= 0xb000 && reg < 0xc000) ||
	       (reg >= 0xe000 && reg < 0xf000);
}

enum gt_engine_id engine_of_reg(uint32_t reg)
{
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (reg >= engine_bases[i] && reg < engine_bases[i] + 0x1000)
			return (enum gt_engine_id)i;
	return is_render_unit_reg(reg) ? ENGINE_RCS : GT_NUM_ENGINES;
}
