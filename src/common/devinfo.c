#include "common/devinfo.h"

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
