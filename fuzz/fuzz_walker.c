/* Target walker: libgtdrv's complete, valid compute dispatch
 * (drv/walker_setup.h: PIPELINE_SELECT GPGPU, STATE_BASE_ADDRESS,
 * MEDIA_VFE_STATE, MEDIA_CURBE_LOAD, MEDIA_INTERFACE_DESCRIPTOR_LOAD,
 * GPGPU_WALKER direct or indirect, MEDIA_STATE_FLUSH, and
 * MI_STORE_REGISTER_MEM of CS_INVOCATION_COUNT around it) with fields
 * mutated by the input, submitted and waited for. Two kernels: one that
 * ends at once, one whose group waits at a barrier forever (a hang the
 * hangcheck ends). Oracles beside the sanitizers: without mutations the
 * invocation count grows by groups x (16 + 8) (SIMD16 groups of two
 * threads, the last with Right Execution Mask 0xff: PRM vol. 2a
 * GPGPU_WALKER), and another file's object never changes
 * (fuzz_victim.h).
 *
 * Input:
 *   byte 0   bit 0 device (bdw/skl), bit 1 indirect dispatch, bit 2 the
 *            barrier kernel, bit 3 a new context, bits 4-7 mutations of
 *            the batch (0-15)
 *   byte 1   bits 0-1, 2-3, 4-5: thread groups in x, y, z - 1; bits 6-7
 *            mutations of the state (interface descriptors, CURBE,
 *            kernels) x 2
 *   then the batch's mutations, then the state's (fuzz_mutate.h).
 *
 * The mutated batch's dispatches are bounded (bound_command): a mutated
 * dimension or GPGPU_DISPATCHDIM value can ask for a legitimate walker of
 * billions of thread groups, which makes progress (no hang, on i915
 * neither) and runs for hours under the sanitizers (finding 8 of
 * docs/fuzzing.md). Each walker spans at most WALKER_SPAN groups per
 * dimension; what the fuzzer looks for (the walker's parsing, starts,
 * thread counts, masks, descriptors) is left as mutated. */
#include <errno.h>
#include <linux/sync_file.h>
#include <stdio.h>
#include <string.h>

#include "drv/walker_setup.h"
#include "fuzz_bound.h"
#include "fuzz_client.h"
#include "fuzz_dev.h"
#include "fuzz_mutate.h"
#include "fuzz_target.h"
#include "fuzz_victim.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"

static struct fuzz_device_slot devs[2];

static const char end_kernel[] =
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n";

/* each thread sends one barrier message, then waits twice: never released */
static const char barrier_kernel[] =
	"mov(8)          g126<1>UD       0x00000000UD                    { align1 WE_all 1Q };\n"
	"and(1)          g126.2<1>UD     g0.2<0,1,0>UD   0x8f000000UD    { align1 WE_all 1N };\n"
	"send(1)         null<1>UW       g126<0,1,0>UD   0x02000004\n"
	"                            gateway MsgDesc: (barrier msg) mlen 1 rlen 0 { align1 WE_all 1N };\n"
	"wait(1)         n0<1>UD                                         { align1 WE_all 1N };\n"
	"wait(1)         n0<1>UD                                         { align1 WE_all 1N };\n"
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(16)        null<1>UW       g127<8,8,1>UD   0x02000010\n"
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1H EOT };\n";

#define WALKER_SPAN 8u

static uint32_t bound_span(uint32_t start, uint32_t end)
{
	return end > start && end - start > WALKER_SPAN ? start + WALKER_SPAN : end;
}

/* Each GPGPU_WALKER spans at most WALKER_SPAN groups per dimension, each
 * MI_LOAD_REGISTER_IMM of GPGPU_DISPATCHDIMX/Y/Z writes at most
 * WALKER_SPAN (an indirect walker's ends: start 0 as built). */
static void bound_command(int gen, int id, uint32_t *cmd, uint32_t len)
{
	if (id == CMD_ID_GPGPU_WALKER) {
		struct cmd_GPGPU_WALKER v;
		cmd_GPGPU_WALKER_unpack(gen, cmd, len, &v);
		v.thread_group_id_x_dimension =
			bound_span(v.thread_group_id_starting_x, v.thread_group_id_x_dimension);
		v.thread_group_id_y_dimension =
			bound_span(v.thread_group_id_starting_y, v.thread_group_id_y_dimension);
		v.thread_group_id_z_dimension =
			bound_span(v.thread_group_id_starting_resume_z, v.thread_group_id_z_dimension);
		cmd_GPGPU_WALKER_pack(gen, cmd, len, &v);
	} else if (id == CMD_ID_MI_LOAD_REGISTER_IMM) {
		fuzz_bound_lri(cmd, len, REG_GPGPU_DISPATCHDIMX, REG_GPGPU_DISPATCHDIMZ, WALKER_SPAN);
	}
}

static void mutate_state(struct fuzz_input *in, struct gtdrv_walker_setup *s)
{
	/* the descriptors and the CURBE in the dynamic state, or the kernels */
	bool kernels = fuzz_u8(in) & 1;
	struct gtdrv_bo *bo = kernels ? &s->kernel : &s->dyn;
	uint32_t words[2 * GTDRV_WALKER_KERNEL_STRIDE / 4];
	uint32_t bytes = kernels ? sizeof(words) : GTDRV_WALKER_DYN_CURBE + s->curbe_bytes;
	if (gtdrv_bo_read(s->drv, bo, 0, words, bytes))
		return;
	fuzz_mutate_dword(in, &words[fuzz_pick(in, bytes / 4)]);
	gtdrv_bo_write(s->drv, bo, 0, words, bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = fuzz_input(data, size);
	uint8_t how = fuzz_u8(&in), how2 = fuzz_u8(&in);
	unsigned skl = how & 1;
	unsigned batch_mutations = how >> 4, state_mutations = (how2 >> 6) * 2;
	const uint32_t groups[3] = { 1 + (how2 & 3), 1 + ((how2 >> 2) & 3), 1 + ((how2 >> 4) & 3) };
	struct fuzz_device_slot *d = &devs[skl];
	struct gtdrv drv;
	struct gtsim_file *f = fuzz_client(d, skl, how & 8, &drv);
	const struct gtdrv_walker_kernel kernels[2] = {
		{ .text = end_kernel, .curbe_read_length = 1, .threads_per_group = 2 },
		{ .text = barrier_kernel, .barrier = true, .curbe_read_length = 1,
		  .threads_per_group = 2 },
	};
	/* iris's per-thread CURBE: each thread's subgroup number */
	const uint32_t curbe[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	struct gtdrv_walker_setup s;
	if (gtdrv_walker_setup_init(&s, &drv, kernels, 2, curbe, sizeof(curbe)))
		abort();
	for (unsigned i = 0; i < state_mutations; i++)
		mutate_state(&in, &s);

	struct gtdrv_batch b;
	if (gtdrv_batch_init(&b, &drv))
		abort();
	int r = gtdrv_walker_emit_state(&b, &s);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT, &s.out, 0);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT + 4, &s.out, 4);
	r = r ? r : gtdrv_walker_emit_dispatch(&b, &s, &(const struct gtdrv_walker){
		.kernel = (how >> 2) & 1, .groups = { groups[0], groups[1], groups[2] },
		.indirect = how & 2, .simd_size = 1, .threads = 2, .right_mask = 0xff });
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT, &s.out, 8);
	r = r ? r : gtdrv_emit_srm(&b, REG_CS_INVOCATION_COUNT + 4, &s.out, 12);
	if (r)
		abort();   /* the valid dispatch must build */
	fuzz_mutate_dwords(&in, b.dw, b.used, batch_mutations);
	fuzz_walk_batch(skl ? 9 : 8, b.dw, b.used, bound_command);
	bool unmutated = !batch_mutations && !state_mutations && !(how & 4);
	int fence = -1;
	if (unmutated)
		b.fence_out = &fence;
	r = gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	if (unmutated) {
		uint64_t v[2] = { 0, 0 };
		uint64_t want = (uint64_t)groups[0] * groups[1] * groups[2] * (16 + 8);
		if (r || gtdrv_bo_read(&drv, &s.out, 0, v, sizeof(v)) || v[1] - v[0] != want) {
			struct sync_file_info info = { 0 };
			gtsim_sync_file_ioctl(fence, SYNC_IOC_FILE_INFO, &info);
			fprintf(stderr, "the unmutated dispatch: %d, %lld invocations, not %llu; "
				"out-fence status %d\n", r, (long long)(v[1] - v[0]),
				(unsigned long long)want, info.status);
			/* reported reset: the open finding of docs/fuzzing.md */
			if (r || info.status != -EIO)
				abort();
		}
		close(fence);
	}
	gtdrv_walker_setup_fini(&s);
	gtsim_close(f);
	victim_check(&d->victim);
	return 0;
}
