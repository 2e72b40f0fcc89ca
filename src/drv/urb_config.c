#include "drv/urb_config.h"

#include <errno.h>
#include <string.h>

#define CHUNK_BYTES (URB_CHUNK_KB * 1024u)

const char *urb_stage_name(enum urb_stage stage)
{
	static const char *const names[URB_NUM_STAGES] = { "VS", "HS", "DS", "GS" };
	return (unsigned)stage < URB_NUM_STAGES ? names[stage] : "?";
}

static unsigned div_round_up(unsigned a, unsigned b) { return (a + b - 1) / b; }
static unsigned align_up(unsigned a, unsigned b) { return div_round_up(a, b) * b; }

/* Fewest entries a stage may be given (3DSTATE_URB_* and seed 003). */
static unsigned min_entries(const struct gt_devinfo *dev, enum urb_stage s, bool tess)
{
	switch (s) {
	case URB_VS: return tess ? dev->urb_min_vs_entries_tess : dev->urb_min_vs_entries;
	case URB_HS: return 1;
	case URB_DS: return dev->urb_min_ds_entries;
	case URB_GS: return 2; /* DUAL_OBJECT dispatch needs two entries */
	default: return 0;
	}
}

int urb_config_compute(const struct gt_devinfo *dev, unsigned urb_kb,
		       const unsigned entry_size[URB_NUM_STAGES],
		       struct urb_config *out)
{
	bool active[URB_NUM_STAGES];
	unsigned gran[URB_NUM_STAGES], minimum[URB_NUM_STAGES];
	unsigned entry_bytes[URB_NUM_STAGES], wants[URB_NUM_STAGES];

	memset(out, 0, sizeof(*out));
	if (!urb_kb)
		urb_kb = (unsigned)dev->urb_size_kb;
	for (int s = 0; s < URB_NUM_STAGES; s++) {
		if (entry_size[s] > URB_MAX_ENTRY_SIZE)
			return -EINVAL;
		active[s] = entry_size[s] != 0;
	}
	if (!active[URB_VS] || active[URB_HS] != active[URB_DS])
		return -EINVAL;
	bool tess = active[URB_HS];

	const unsigned urb_chunks = urb_kb / URB_CHUNK_KB;
	const unsigned push_chunks = (unsigned)dev->push_constant_kb / URB_CHUNK_KB;
	unsigned needs = push_chunks, total_wants = 0;

	for (int s = 0; s < URB_NUM_STAGES; s++) {
		out->size[s] = active[s] ? entry_size[s] : 1;
		entry_bytes[s] = out->size[s] * URB_ENTRY_UNIT_BYTES;
		/* "Number of URB Entries must be divisible by 8 if the URB Entry
		 * Allocation Size is less than 9 512-bit URB entries." */
		gran[s] = out->size[s] < 9 ? 8 : 1;
		if (!active[s]) {
			minimum[s] = wants[s] = 0;
			continue;
		}
		minimum[s] = align_up(min_entries(dev, s, tess), gran[s]);
		out->chunks[s] = div_round_up(minimum[s] * entry_bytes[s], CHUNK_BYTES);
		wants[s] = div_round_up((unsigned)dev->urb_max_entries[s] * entry_bytes[s],
					CHUNK_BYTES) - out->chunks[s];
		needs += out->chunks[s];
		total_wants += wants[s];
	}
	if (needs > urb_chunks)
		return -EINVAL;
	out->constrained = needs + total_wants > urb_chunks;

	/* Share what is left in proportion to the wants, rounding each share
	 * to the nearest chunk (halves up); GS takes whatever remains. */
	unsigned remaining = urb_chunks - needs;
	if (remaining > total_wants)
		remaining = total_wants;
	for (int s = URB_VS; s < URB_GS && total_wants > 0; s++) {
		unsigned share = (unsigned)(((unsigned long long)wants[s] * remaining * 2 +
					     total_wants) / (2ull * total_wants));
		out->chunks[s] += share;
		remaining -= share;
		total_wants -= wants[s];
	}
	out->chunks[URB_GS] += remaining;

	unsigned next = push_chunks;
	for (int s = 0; s < URB_NUM_STAGES; s++) {
		if (!active[s])
			continue;
		unsigned n = out->chunks[s] * CHUNK_BYTES / entry_bytes[s];
		if (n > (unsigned)dev->urb_max_entries[s])
			n = (unsigned)dev->urb_max_entries[s];
		n -= n % gran[s];
		if (n < minimum[s])
			return -EINVAL;
		out->entries[s] = n;
		out->start[s] = next;
		next += out->chunks[s];
	}
	out->push_constant_kb = (unsigned)dev->push_constant_kb;
	return 0;
}
