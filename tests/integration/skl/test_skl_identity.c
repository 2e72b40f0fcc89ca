/* The device identity a client sees with GTSIM_DEVICE=skl, against what
 * i915 (Linux 6.1) reports on a Skylake GT2 (HD Graphics 530, PCI 0x1912):
 * PCI revision 6, 24 EUs in 3 subslices of one slice, gen9's sseu limits 3 slices x 4
 * subslices x 8 EUs (intel_sseu_set_info for non-LP gen9), a 12 MHz
 * command streamer timestamp (i915's gen9 non-LP crystal), and the render
 * TIMESTAMP register ticking at that rate. */
#include <errno.h>
#include <time.h>
#include <i915_drm.h>

#include "gtsim/gtsim.h"
#include "test.h"

static int getparam(struct gtsim_file *f, int param)
{
	int v = -12345;
	drm_i915_getparam_t gp = { .param = param, .value = &v };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GETPARAM, &gp), 0);
	return v;
}

static void params(struct gtsim_file *f)
{
	CHECK_EQ(getparam(f, I915_PARAM_CHIPSET_ID), 0x1912);
	CHECK_EQ(getparam(f, I915_PARAM_REVISION), 0x06);      /* lspci: "rev 06" */
	CHECK_EQ(getparam(f, I915_PARAM_EU_TOTAL), 24);
	CHECK_EQ(getparam(f, I915_PARAM_SUBSLICE_TOTAL), 3);
	CHECK_EQ(getparam(f, I915_PARAM_SLICE_MASK), 0x1);
	CHECK_EQ(getparam(f, I915_PARAM_SUBSLICE_MASK), 0x7);
	CHECK_EQ(getparam(f, I915_PARAM_CS_TIMESTAMP_FREQUENCY), 12000000);
	CHECK_EQ(getparam(f, I915_PARAM_HAS_BSD2), 0);        /* GT2: one VCS */
	CHECK_EQ(getparam(f, I915_PARAM_HAS_POOLED_EU), 0);   /* Broxton only */
	CHECK_EQ(getparam(f, I915_PARAM_MIN_EU_IN_POOL), 0);
}

static void topology(struct gtsim_file *f)
{
	union { struct drm_i915_query_topology_info t; unsigned char b[64]; } topo;
	memset(&topo, 0xaa, sizeof(topo));
	struct drm_i915_query_item item = { .query_id = DRM_I915_QUERY_TOPOLOGY_INFO };
	struct drm_i915_query q = { .num_items = 1, .items_ptr = (uintptr_t)&item };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_QUERY, &q), 0);
	/* header + slice mask + 3 slices' subslice bytes + 3 x 4 EU bytes */
	CHECK_EQ(item.length, 16 + 1 + 3 + 12);
	item.data_ptr = (uintptr_t)&topo;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_QUERY, &q), 0);
	CHECK_EQ(topo.t.max_slices, 3);
	CHECK_EQ(topo.t.max_subslices, 4);
	CHECK_EQ(topo.t.max_eus_per_subslice, 8);
	CHECK_EQ(topo.t.subslice_offset, 1);
	CHECK_EQ(topo.t.subslice_stride, 1);
	CHECK_EQ(topo.t.eu_offset, 4);
	CHECK_EQ(topo.t.eu_stride, 1);
	static const unsigned char want[16] = {
		0x1,                     /* slice 0 */
		0x7, 0, 0,               /* subslices 0-2 of slice 0 */
		0xff, 0xff, 0xff, 0,     /* slice 0: 8 EUs in subslices 0-2, none in 3 */
		0, 0, 0, 0, 0, 0, 0, 0,  /* slices 1 and 2 */
	};
	for (int i = 0; i < 16; i++)
		CHECK_EQ(topo.t.data[i], want[i]);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The render TIMESTAMP (0x2358) advances 12 ticks a microsecond between
 * two REG_READs, within the time the reads took. */
static void timestamp_rate(struct gtsim_file *f)
{
	struct drm_i915_reg_read r = { .offset = 0x2358 };
	uint64_t h0 = now_ns();
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_REG_READ, &r), 0);
	uint64_t h1 = now_ns(), t0 = r.val;
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	nanosleep(&pause, NULL);
	uint64_t h2 = now_ns();
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_REG_READ, &r), 0);
	uint64_t h3 = now_ns(), t1 = r.val;
	double lo = (double)(h2 - h1) * 0.012, hi = (double)(h3 - h0) * 0.012;
	double ticks = (double)(uint32_t)(t1 - t0);
	if (ticks < lo - 2 || ticks > hi + 2)
		fprintf(stderr, "TIMESTAMP advanced %.0f ticks, want %.0f..%.0f\n", ticks, lo, hi);
	CHECK(ticks >= lo - 2 && ticks <= hi + 2);
}

int main(void)
{
	struct gtsim_config cfg = { .device = "skl" };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	struct gtsim_file *f = dev ? gtsim_open(dev) : NULL;
	CHECK(f != NULL);
	if (f) {
		params(f);
		topology(f);
		timestamp_rate(f);
		gtsim_close(f);
	}
	if (dev)
		gtsim_device_destroy(dev);
	return test_exit();
}
