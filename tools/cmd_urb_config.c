/* gtsim urb-config: how libgtdrv would divide the URB (seed 003). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "common/devinfo.h"
#include "drv/urb_config.h"

static int parse_uint(const char *opt, const char *val, unsigned *out)
{
	char *end;
	if (!val) {
		fprintf(stderr, "gtsim urb-config: %s needs a value\n", opt);
		return -1;
	}
	errno = 0;
	unsigned long v = strtoul(val, &end, 0);
	if (errno || end == val || *end || v > 1u << 20 || val[0] == '-') {
		fprintf(stderr, "gtsim urb-config: bad value '%s' for %s\n", val, opt);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int urb_config_main(int argc, char **argv)
{
	const char *device = NULL;
	unsigned urb_kb = 0, size[URB_NUM_STAGES] = { 0 };
	static const char *const size_opts[URB_NUM_STAGES] = {
		"--vs-size", "--hs-size", "--ds-size", "--gs-size" };

	/* Every option takes one value: options come in pairs. */
	for (int i = 1; i < argc; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		int known = 0;
		if (!strcmp(opt, "--device")) {
			if (!val) {
				fprintf(stderr, "gtsim urb-config: --device needs a name\n");
				return 1;
			}
			device = val;
			known = 1;
		} else if (!strcmp(opt, "--urb-kb")) {
			if (parse_uint(opt, val, &urb_kb))
				return 1;
			known = 1;
		}
		for (int s = 0; s < URB_NUM_STAGES && !known; s++) {
			if (!strcmp(opt, size_opts[s])) {
				if (parse_uint(opt, val, &size[s]))
					return 1;
				known = 1;
			}
		}
		if (!known) {
			fprintf(stderr, "gtsim urb-config: unknown option '%s'\n", opt);
			return 1;
		}
	}
	const struct gt_devinfo *dev = device ? devinfo_lookup(device) : devinfo_from_env();
	if (!dev) {
		fprintf(stderr, "gtsim urb-config: unknown device '%s' (known: bdw, skl)\n",
			device ? device : "");
		return 1;
	}
	if (!size[URB_VS]) {
		fprintf(stderr, "gtsim urb-config: --vs-size N (64-byte units) is required\n");
		return 1;
	}
	if (!size[URB_HS] != !size[URB_DS]) {
		fprintf(stderr, "gtsim urb-config: --hs-size and --ds-size go together\n");
		return 1;
	}
	struct urb_config cfg;
	if (urb_config_compute(dev, urb_kb, size, &cfg)) {
		fprintf(stderr, "gtsim urb-config: the URB (%u KB) cannot hold these stages "
			"(entry sizes 1..%d)\n", urb_kb ? urb_kb : (unsigned)dev->urb_size_kb,
			URB_MAX_ENTRY_SIZE);
		return 1;
	}
	printf("PUSH size_kb=%u start=0\n", cfg.push_constant_kb);
	for (int s = 0; s < URB_NUM_STAGES; s++)
		printf("%s entries=%u size=%u start=%u\n", urb_stage_name(s),
		       cfg.entries[s], cfg.size[s], cfg.start[s]);
	return 0;
}

const struct gtsim_command command_urb_config = {
	.name = "urb-config",
	.usage = "[--device bdw|skl] [--urb-kb K] --vs-size N [--gs-size M] "
		 "[--hs-size H --ds-size D]: URB partition (seed 003)",
	.run = urb_config_main,
};
