/* Target draw: libgtdrv's complete, valid draw (drv/draw_setup.h: seed
 * 000's square, every 3D state command, a VS and a FS, a vertex buffer,
 * a render target) with fields mutated by the input, submitted and waited
 * for. Every batch ends: completed, faulted or hung and ended by the
 * hangcheck (FUZZ_HANGCHECK_MS). Two oracles beside the sanitizers:
 * without mutations the square is drawn (every pixel green, the colour
 * seed 001's VS writes), and another file's object on the same device
 * never changes (fuzz_victim.h).
 *
 * Input:
 *   byte 0   bit 0 device (bdw/skl), bit 1 the gradient variant (a second
 *            vertex element, VertexID from 3DSTATE_VF_SGVS), bit 2 a new
 *            context (else the file's default), bits 3-7 the number of
 *            mutations of the batch's dwords (0-31)
 *   byte 1   bits 0-3 mutations of the state (dynamic state, surface
 *            state and binding table, vertex buffer, kernels), bits 4-5
 *            binding table entries - 1, bit 6 a render target of 64 x 64
 *            pixels (else 16 x 16: the pixel shading of 64 x 64 was a
 *            third of the target's time)
 *   then the batch's mutations, then the state's (a byte choosing the
 *   buffer before each): each a dword index and an operation
 *   (fuzz_mutate.h).
 *
 * The mutated batch's draws are bounded (bound_command, fuzz_bound.h):
 * each 3DPRIMITIVE and each MI_LOAD_REGISTER_IMM of 3DPRIM_VERTEX_COUNT
 * or 3DPRIM_INSTANCE_COUNT asks for at most DRAW_VERTICES vertices and
 * DRAW_INSTANCES instances; a mutated count of 3.4 million vertices drew
 * for 88 s (finding 11 of docs/fuzzing.md). */
#include <errno.h>
#include <linux/sync_file.h>
#include <stdio.h>
#include <string.h>

#include "drv/draw_setup.h"
#include "drv/seed_shaders.h"
#include "fuzz_bound.h"
#include "fuzz_client.h"
#include "fuzz_dev.h"
#include "fuzz_mutate.h"
#include "fuzz_target.h"
#include "fuzz_victim.h"

static struct fuzz_device_slot devs[2];

#define DRAW_VERTICES 256u
#define DRAW_INSTANCES 4u

static void bound_command(int gen, int id, uint32_t *cmd, uint32_t len)
{
	if (id == CMD_ID_3DPRIMITIVE) {
		struct cmd_3DPRIMITIVE v;
		cmd_3DPRIMITIVE_unpack(gen, cmd, len, &v);
		if (v.vertex_count_per_instance > DRAW_VERTICES)
			v.vertex_count_per_instance = DRAW_VERTICES;
		if (v.instance_count > DRAW_INSTANCES)
			v.instance_count = DRAW_INSTANCES;
		cmd_3DPRIMITIVE_pack(gen, cmd, len, &v);
	} else if (id == CMD_ID_MI_LOAD_REGISTER_IMM) {
		fuzz_bound_lri(cmd, len, REG_GPR_3DPRIM_VERTEX_COUNT, REG_GPR_3DPRIM_VERTEX_COUNT,
			       DRAW_VERTICES);
		fuzz_bound_lri(cmd, len, REG_GPR_3DPRIM_INSTANCE_COUNT,
			       REG_GPR_3DPRIM_INSTANCE_COUNT, DRAW_INSTANCES);
	}
}

/* One state mutation in the buffer the input names: read, mutate, write. */
static void mutate_state(struct fuzz_input *in, struct gtdrv_draw_setup *s)
{
	struct gtdrv_bo *bos[4] = { &s->dyn, &s->surf, &s->vbo, &s->kernel };
	static const uint32_t bytes[4] = { GTDRV_DRAW_DYN_FREE, 128, 64, 4096 };
	unsigned which = fuzz_u8(in) % 4;
	uint32_t words[1024];
	if (gtdrv_bo_read(s->drv, bos[which], 0, words, bytes[which]))
		return;
	fuzz_mutate_dword(in, &words[fuzz_pick(in, bytes[which] / 4)]);
	gtdrv_bo_write(s->drv, bos[which], 0, words, bytes[which]);
}

/* SYNC_IOC_FILE_INFO's status of the out-fence: 1 signaled, < 0 its error. */
static int fence_status(int fence)
{
	struct sync_file_info info = { 0 };
	gtsim_sync_file_ioctl(fence, SYNC_IOC_FILE_INFO, &info);
	return info.status;
}

/* Without mutations: every pixel green (seed 001's colour). A request the
 * kernel reports reset (its out-fence -EIO) is the open finding of
 * docs/fuzzing.md (an innocent request blamed for an earlier input's
 * hang): reported, not a crash; a wrong picture from a request reported
 * good is. */
static unsigned unmutated_draws, unmutated_resets;

static void check_green(struct gtsim_device *dev, struct gtdrv_draw_setup *s, int fence)
{
	static uint8_t px[64 * 64 * 4];
	uint32_t bytes = s->width * s->height * 4;   /* the pitch is width x 4 */
	if (gtdrv_bo_read(s->drv, &s->rt, 0, px, bytes))
		abort();
	for (unsigned i = 0; i < bytes; i += 4)
		if (px[i] != 0 || px[i + 1] != 255 || px[i + 2] != 0 || px[i + 3] != 255) {
			int status = fence_status(fence);
			struct drm_i915_reset_stats rs = { .ctx_id = s->drv->ctx_id };
			gtsim_ioctl(s->drv->file, DRM_IOCTL_I915_GET_RESET_STATS, &rs);
			fprintf(stderr, "the unmutated draw left pixel %u at %02x%02x%02x%02x; "
				"out-fence status %d, context %u: %u resets, %u guilty, %u pending\n",
				i / 4, px[i], px[i + 1], px[i + 2], px[i + 3], status,
				s->drv->ctx_id, rs.reset_count, rs.batch_active, rs.batch_pending);
			if (status == -EIO) {
				unmutated_resets++;
				return;   /* the open finding */
			}
			char *err = gtsim_error_state(dev);
			fprintf(stderr, "%.1500s\n", err ? err : "(no error state)");
			free(err);
			abort();
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = fuzz_input(data, size);
	uint8_t how = fuzz_u8(&in), how2 = fuzz_u8(&in);
	unsigned skl = how & 1;
	bool gradient = how & 2;
	unsigned batch_mutations = how >> 3, state_mutations = how2 & 15;
	struct fuzz_device_slot *d = &devs[skl];
	struct gtdrv drv;
	struct gtsim_file *f = fuzz_client(d, skl, how & 4, &drv);
	/* 64 x 64: the pitch (256 bytes) a multiple of 64, the target 4
	 * pages; 16 x 16: the pitch 64 bytes, one page */
	uint32_t side = how2 & 0x40 ? 64 : 16;
	struct gtdrv_draw_setup s;
	if (gtdrv_draw_setup_init(&s, &drv, side, side) ||
	    gtdrv_draw_setup_shaders(&s, gradient ? gtdrv_gradient_vs : gtdrv_green_vs,
				     gtdrv_color_fs))
		abort();
	for (unsigned i = 0; i < state_mutations; i++)
		mutate_state(&in, &s);

	struct gtdrv_batch b;
	if (gtdrv_batch_init(&b, &drv))
		abort();
	static const struct gtdrv_vertex_attrib attribs[2] = {
		{ .buffer = 0, .format = 0 /* R32G32B32A32_FLOAT */, .size = 4 },
		{ .buffer = 0, .format = 0, .size = 0 },
	};
	int r = gtdrv_draw_emit(&b, &s, &(const struct gtdrv_draw_options){
		.attribs = attribs, .nattribs = gradient ? 2 : 1, .vertex_id = gradient,
		.binding_table_entries = 1 + ((how2 >> 4) & 3) });
	if (r)
		abort();   /* the valid draw must build */
	fuzz_mutate_dwords(&in, b.dw, b.used, batch_mutations);
	fuzz_walk_batch(skl ? 9 : 8, b.dw, b.used, bound_command);
	bool unmutated = !batch_mutations && !state_mutations && !gradient;
	int fence = -1;
	if (unmutated)
		b.fence_out = &fence;
	r = gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	if (unmutated) {
		if (r) {
			fprintf(stderr, "the unmutated draw failed: %d\n", r);
			abort();
		}
		check_green(d->dev, &s, fence);
		/* how often the open finding shows, in the run's log */
		if (++unmutated_draws % 500 == 0)
			fprintf(stderr, "unmutated draws: %u, reported reset: %u\n",
				unmutated_draws, unmutated_resets);
		close(fence);
	}
	gtdrv_draw_setup_fini(&s);
	gtsim_close(f);
	victim_check(&d->victim);
	return 0;
}
