/* The compute pipeline's state commands (PRM vol. 2a/2b): PIPELINE_SELECT,
 * STATE_BASE_ADDRESS, MEDIA_VFE_STATE, MEDIA_CURBE_LOAD,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD, MEDIA_STATE_FLUSH. The CURBE data and
 * the interface descriptors are read from memory when the command runs, as
 * the hardware loads them into the URB and its descriptor storage. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/gpgpu/gpgpu_internal.h"

struct gpgpu_state *gpgpu_state_create(const struct gt_devinfo *info)
{
	struct gpgpu_state *gs = calloc(1, sizeof(*gs));
	if (!gs)
		return NULL;
	gs->info = info;
	gs->gen = info->gen;
	return gs;
}

void gpgpu_state_destroy(struct gpgpu_state *gs)
{
	if (!gs)
		return;
	free(gs->curbe);
	free(gs);
}

int gpgpu_set_fault(struct gpgpu_state *gs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(gs->fault, sizeof(gs->fault), fmt, ap);
	va_end(ap);
	TRACE(TRACE_GPGPU, "fault: %s", gs->fault);
	return -1;
}

const char *gpgpu_fault(const struct gpgpu_state *gs)
{
	return gs->fault;
}

void gpgpu_set_thread_hook(struct gpgpu_state *gs, gpgpu_thread_hook hook, void *ctx)
{
	gs->hook = hook;
	gs->hook_ctx = ctx;
}

/* MEDIA_VFE_STATE (PRM vol. 2b): threads, CURBE, scratch. */
static int vfe_state(struct gpgpu_state *gs, const uint32_t *dw, uint32_t len)
{
	struct cmd_MEDIA_VFE_STATE v;
	cmd_MEDIA_VFE_STATE_unpack(gs->gen, dw, len, &v);
	if (v.scoreboard_enable)
		return gpgpu_set_fault(gs, "MEDIA_VFE_STATE: Scoreboard Enable is not implemented");
	if (v.stack_size)
		return gpgpu_set_fault(gs, "MEDIA_VFE_STATE: Stack Size %u (the GPGPU stack) is "
				       "not implemented", v.stack_size);
	/* Per Thread Scratch Space: 1 KB << n, n = 0..11 (2 MB) */
	if (v.per_thread_scratch_space > 11)
		return gpgpu_set_fault(gs, "MEDIA_VFE_STATE: reserved Per Thread Scratch Space %u",
				       v.per_thread_scratch_space);
	gs->vfe_valid = true;
	gs->max_threads = v.maximum_number_of_threads + 1;
	gs->curbe_alloc = v.curbe_allocation_size;
	gs->scratch_space = v.per_thread_scratch_space;
	gs->scratch_base = v.scratch_space_base_pointer;
	gs->scratch_per_thread = v.scratch_space_base_pointer ? 1024u << v.per_thread_scratch_space : 0;
	TRACE(TRACE_GPGPU, "MEDIA_VFE_STATE: max threads %u, URB entries %u of %u, CURBE %u "
	      "registers, scratch %u bytes/thread at 0x%llx", gs->max_threads,
	      v.number_of_urb_entries, v.urb_entry_allocation_size, gs->curbe_alloc,
	      gs->scratch_per_thread, (unsigned long long)gs->scratch_base);
	return 0;
}

/* MEDIA_CURBE_LOAD: CURBE Total Data Length bytes from Dynamic State Base
 * + CURBE Data Start Address (both 64-byte aligned, PRM vol. 2a). */
static int curbe_load(struct gpgpu_state *gs, const struct gpgpu_env *env,
		      const uint32_t *dw, uint32_t len)
{
	struct cmd_MEDIA_CURBE_LOAD v;
	cmd_MEDIA_CURBE_LOAD_unpack(gs->gen, dw, len, &v);
	uint32_t n = v.curbe_total_data_length;
	if ((n | v.curbe_data_start_address) & 63)
		return gpgpu_set_fault(gs, "MEDIA_CURBE_LOAD: length %u / start 0x%x not 64-byte "
				       "aligned", n, v.curbe_data_start_address);
	/* More than MEDIA_VFE_STATE allocated: only the allocation is kept.
	 * IGT's gpgpu_fill loads 64 bytes into a 1-register allocation and
	 * passes on Gen8/9 hardware (Intel CI); the threads read at most the
	 * allocation (the interface descriptor's constant lengths). */
	if (gs->vfe_valid && n > gs->curbe_alloc * 32u) {
		TRACE(TRACE_GPGPU, "MEDIA_CURBE_LOAD: %u bytes for a CURBE of %u registers: the "
		      "first %u kept", n, gs->curbe_alloc, gs->curbe_alloc * 32u);
		n = gs->curbe_alloc * 32u;
	}
	uint8_t *buf = n ? malloc(n) : NULL;
	if (n && !buf)
		return gpgpu_set_fault(gs, "MEDIA_CURBE_LOAD: out of memory");
	uint64_t addr = gs->sba.dynamic + v.curbe_data_start_address;
	if (n && vm_read(&env->vm, addr, buf, n)) {
		free(buf);
		return gpgpu_set_fault(gs, "MEDIA_CURBE_LOAD: page fault reading %u bytes at 0x%llx",
				       n, (unsigned long long)addr);
	}
	free(gs->curbe);
	gs->curbe = buf;
	gs->curbe_len = n;
	TRACE(TRACE_GPGPU, "MEDIA_CURBE_LOAD: %u bytes from 0x%llx", n, (unsigned long long)addr);
	return 0;
}

/* MEDIA_INTERFACE_DESCRIPTOR_LOAD: Interface Descriptor Total Length bytes
 * of 32-byte INTERFACE_DESCRIPTOR_DATA from Dynamic State Base + start. */
static int id_load(struct gpgpu_state *gs, const struct gpgpu_env *env,
		   const uint32_t *dw, uint32_t len)
{
	struct cmd_MEDIA_INTERFACE_DESCRIPTOR_LOAD v;
	cmd_MEDIA_INTERFACE_DESCRIPTOR_LOAD_unpack(gs->gen, dw, len, &v);
	uint32_t n = v.interface_descriptor_total_length;
	if (n % 32 || n / 32 > GPGPU_MAX_IDS || (v.interface_descriptor_data_start_address & 63))
		return gpgpu_set_fault(gs, "MEDIA_INTERFACE_DESCRIPTOR_LOAD: length %u (a multiple "
				       "of 32, at most %u) or start 0x%x (64-byte aligned) invalid",
				       n, GPGPU_MAX_IDS * 32, v.interface_descriptor_data_start_address);
	uint64_t addr = gs->sba.dynamic + v.interface_descriptor_data_start_address;
	if (n && vm_read(&env->vm, addr, gs->idd, n)) {
		gs->idd_count = 0;
		return gpgpu_set_fault(gs, "MEDIA_INTERFACE_DESCRIPTOR_LOAD: page fault reading "
				       "%u bytes at 0x%llx", n, (unsigned long long)addr);
	}
	gs->idd_count = n / 32;
	TRACE(TRACE_GPGPU, "MEDIA_INTERFACE_DESCRIPTOR_LOAD: %u descriptors from 0x%llx",
	      gs->idd_count, (unsigned long long)addr);
	return 0;
}

int gpgpu_state_command(struct gpgpu_state *gs, const struct gpgpu_env *env,
			const struct cmd_desc *d, const uint32_t *dw, uint32_t len)
{
	switch ((enum cmd_id)d->id) {
	case CMD_ID_PIPELINE_SELECT: {
		struct cmd_PIPELINE_SELECT v;
		cmd_PIPELINE_SELECT_unpack(gs->gen, dw, len, &v);
		/* gen9: the selection only changes when Mask Bits 9:8 say so */
		if (gs->gen < 9 || (v.mask_bits & 3))
			gs->pipeline = (int)v.pipeline_selection;
		return 0;
	}
	case CMD_ID_STATE_BASE_ADDRESS:
		cs_base_address_apply(&gs->sba, gs->gen, dw, len);
		return 0;
	case CMD_ID_MEDIA_STATE_FLUSH:
		/* waits until the walkers before it are done with the state:
		 * gtsim's walkers have finished when the next command runs */
		return 0;
	default:
		break;
	}
	/* The media state commands belong to the media/GPGPU pipeline; the PRM
	 * (vol. 2a PIPELINE_SELECT) calls the other pipeline's commands
	 * undefined. anv (Mesa 22.3, SKL) emits MEDIA_VFE_STATE with the 3D
	 * pipeline selected and runs on the hardware, so the state is stored
	 * as if GPGPU were selected, with a trace line; GPGPU_WALKER, which
	 * would run threads, still faults (walker.c). */
	if (gs->pipeline == PIPE_3D)
		TRACE(TRACE_GPGPU, "%s with the 3D pipeline selected: stored", d->name);
	switch ((enum cmd_id)d->id) {
	case CMD_ID_MEDIA_VFE_STATE:
		return vfe_state(gs, dw, len);
	case CMD_ID_MEDIA_CURBE_LOAD:
		return curbe_load(gs, env, dw, len);
	case CMD_ID_MEDIA_INTERFACE_DESCRIPTOR_LOAD:
		return id_load(gs, env, dw, len);
	default:
		return gpgpu_set_fault(gs, "%s is not a command of the GPGPU pipeline", d->name);
	}
}

int gpgpu_command(struct gpgpu_state *gs, const struct gpgpu_env *env,
		  const struct cmd_desc *d, const uint32_t *dw, uint32_t len)
{
	gs->fault[0] = 0;
	if (d->id == CMD_ID_GPGPU_WALKER)
		return gpgpu_walker(gs, env, dw, len);
	if (d->id == CMD_ID_MEDIA_OBJECT)
		return gpgpu_media_object(gs, env, dw, len);
	return gpgpu_state_command(gs, env, d, dw, len);
}
