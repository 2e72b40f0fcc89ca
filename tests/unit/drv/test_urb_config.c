/* The URB partition of seed 003, generalised to VS/HS/DS/GS, against tables
 * computed by hand from the seed's rules:
 *   chunks = 8 KB; push constants 32 KB = 4 chunks first;
 *   granularity 8 entries when the entry size < 9 (64-byte units), else 1;
 *   min entries: VS 64 (192 on BDW with tessellation), HS 1, DS 34, GS 2,
 *     rounded up to the granularity;
 *   need  = ceil(min * bytes / 8192); want = ceil(max * bytes / 8192) - need;
 *   left  = min(urb_chunks - needs, total wants), shared VS, HS, DS in turn:
 *     share = round(want * left / total_wants), then left -= share and
 *     total_wants -= want; GS takes what is left;
 *   entries = min(chunks * 8192 / bytes, max) rounded down to granularity;
 *   starts in pipeline order after the push constants.
 * Device limits (max entries VS/HS/DS/GS): BDW GT2 2560/504/1536/960,
 * SKL GT2 1856/672/1120/640; both have a 384 KB URB = 48 chunks. */
#include <errno.h>

#include "drv/urb_config.h"
#include "test.h"

struct expect {
	unsigned entries, start, chunks;
};

static void check_cfg(const char *dev_name, unsigned urb_kb, unsigned vs, unsigned hs,
		      unsigned ds, unsigned gs, const struct expect want[4], bool constrained)
{
	const unsigned sizes[4] = { vs, hs, ds, gs };
	struct urb_config cfg;
	CHECK_EQ(urb_config_compute(devinfo_lookup(dev_name), urb_kb, sizes, &cfg), 0);
	CHECK_EQ(cfg.push_constant_kb, 32);
	CHECK_EQ(cfg.constrained, constrained);
	for (int s = 0; s < 4; s++) {
		if (cfg.entries[s] != want[s].entries || cfg.start[s] != want[s].start ||
		    cfg.chunks[s] != want[s].chunks)
			fprintf(stderr, "%s vs=%u hs=%u ds=%u gs=%u: %s got entries=%u "
				"start=%u chunks=%u\n", dev_name, vs, hs, ds, gs,
				urb_stage_name(s), cfg.entries[s], cfg.start[s], cfg.chunks[s]);
		CHECK_EQ(cfg.entries[s], want[s].entries);
		CHECK_EQ(cfg.start[s], want[s].start);
		CHECK_EQ(cfg.chunks[s], want[s].chunks);
		CHECK_EQ(cfg.size[s], sizes[s] ? sizes[s] : 1);
	}
}

int main(void)
{
	/* BDW, VS only, size 1 (64 B): need ceil(64*64/8192) = 1,
	 * want ceil(2560*64/8192) - 1 = 20 - 1 = 19; left = min(48-5, 19) = 19,
	 * all to VS: 20 chunks -> 20*8192/64 = 2560 entries (= max). */
	check_cfg("bdw", 0, 1, 0, 0, 0, (const struct expect[4]){
		{ 2560, 4, 20 }, { 0 }, { 0 }, { 0 } }, false);

	/* BDW, VS size 4 (256 B): need ceil(64*256/8192) = 2, want 80 - 2 = 78;
	 * left = min(42, 78) = 42 -> 44 chunks -> 44*8192/256 = 1408. */
	check_cfg("bdw", 0, 4, 0, 0, 0, (const struct expect[4]){
		{ 1408, 4, 44 }, { 0 }, { 0 }, { 0 } }, true);

	/* BDW, VS size 9 (576 B, granularity 1): need ceil(64*576/8192) =
	 * ceil(4.5) = 5, want 180 - 5 = 175; left = min(39, 175) = 39 -> 44
	 * chunks -> floor(360448/576) = 625 entries (not a multiple of 8). */
	check_cfg("bdw", 0, 9, 0, 0, 0, (const struct expect[4]){
		{ 625, 4, 44 }, { 0 }, { 0 }, { 0 } }, true);

	/* BDW, --urb-kb 128 (16 chunks), VS size 1: left = min(16-5, 19) = 11
	 * -> 12 chunks -> 12*128 = 1536 entries. */
	check_cfg("bdw", 128, 1, 0, 0, 0, (const struct expect[4]){
		{ 1536, 4, 12 }, { 0 }, { 0 }, { 0 } }, true);

	/* BDW, VS 2 + GS 4: VS need 1, want 40-1 = 39; GS min align(2,8) = 8,
	 * need ceil(8*256/8192) = 1, want ceil(960*256/8192) - 1 = 29;
	 * left = min(48-6, 68) = 42; VS share round(39*42/68) = round(24.09) =
	 * 24 -> 25 chunks; GS gets 1 + 18 = 19.
	 * VS 25*8192/128 = 1600, GS 19*8192/256 = 608; GS starts at 4+25. */
	check_cfg("bdw", 0, 2, 0, 0, 4, (const struct expect[4]){
		{ 1600, 4, 25 }, { 0 }, { 0 }, { 608, 29, 19 } }, true);

	/* BDW with tessellation, VS 2, HS 1, DS 2: VS min 192, need
	 * ceil(192*128/8192) = 3, want 40-3 = 37; HS min 8, need 1, want
	 * ceil(504*64/8192)-1 = 4-1 = 3; DS min align(34,8) = 40, need 1, want
	 * 24-1 = 23. needs 4+5 = 9, left min(39, 63) = 39.
	 * VS round(37*39/63) = round(22.90) = 23 -> 26 (left 16, wants 26);
	 * HS round(3*16/26) = round(1.85) = 2 -> 3 (left 14, wants 23);
	 * DS round(23*14/23) = 14 -> 15.
	 * Entries: VS 26*64 = 1664, HS 3*128 = 384, DS 15*64 = 960.
	 * Starts: 4, 4+26 = 30, 30+3 = 33. */
	check_cfg("bdw", 0, 2, 1, 2, 0, (const struct expect[4]){
		{ 1664, 4, 26 }, { 384, 30, 3 }, { 960, 33, 15 }, { 0 } }, true);

	/* SKL, VS only, size 1: need 1, want ceil(1856*64/8192) - 1 =
	 * ceil(14.5) - 1 = 14 -> 15 chunks -> 1920 entries, clamped to 1856. */
	check_cfg("skl", 0, 1, 0, 0, 0, (const struct expect[4]){
		{ 1856, 4, 15 }, { 0 }, { 0 }, { 0 } }, false);

	/* SKL, VS 2 + GS 4: VS need 1, want 29-1 = 28; GS need 1, want
	 * 20-1 = 19; left min(42, 47) = 42; VS round(28*42/47) = round(25.02)
	 * = 25 -> 26; GS 1 + 17 = 18. VS 26*64 = 1664, GS 18*32 = 576. */
	check_cfg("skl", 0, 2, 0, 0, 4, (const struct expect[4]){
		{ 1664, 4, 26 }, { 0 }, { 0 }, { 576, 30, 18 } }, true);

	/* SKL, all four: VS 2 (min 64 on gen9), HS 1, DS 2, GS 4.
	 * needs: VS 1, HS 1, DS 1, GS 1 -> 8 with push; wants 28, 5
	 * (ceil(672*64/8192) = 6, -1), 17 (ceil(1120*128/8192) = 18, -1), 19;
	 * total 69, left min(40, 69) = 40.
	 * VS round(28*40/69) = round(16.23) = 16 -> 17 (left 24, wants 41);
	 * HS round(5*24/41) = round(2.93) = 3 -> 4 (left 21, wants 36);
	 * DS round(17*21/36) = round(9.92) = 10 -> 11 (left 11); GS 1+11 = 12.
	 * Entries: VS 17*64 = 1088, HS 4*128 = 512, DS 11*64 = 704,
	 * GS 12*32 = 384. Starts 4, 21, 25, 36. */
	check_cfg("skl", 0, 2, 1, 2, 4, (const struct expect[4]){
		{ 1088, 4, 17 }, { 512, 21, 4 }, { 704, 25, 11 }, { 384, 36, 12 } }, true);

	/* Refusals: no VS, HS without DS, size 513, and a URB (32 KB = 4
	 * chunks) with no room beyond the push constants. */
	struct urb_config cfg;
	const struct gt_devinfo *bdw = devinfo_lookup("bdw");
	CHECK_EQ(urb_config_compute(bdw, 0, (const unsigned[4]){ 0, 0, 0, 1 }, &cfg), -EINVAL);
	CHECK_EQ(urb_config_compute(bdw, 0, (const unsigned[4]){ 1, 1, 0, 0 }, &cfg), -EINVAL);
	CHECK_EQ(urb_config_compute(bdw, 0, (const unsigned[4]){ 513, 0, 0, 0 }, &cfg), -EINVAL);
	CHECK_EQ(urb_config_compute(bdw, 32, (const unsigned[4]){ 1, 0, 0, 0 }, &cfg), -EINVAL);
	return test_exit();
}
