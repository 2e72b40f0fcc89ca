/* The command handler tables: for each engine, the code that executes each
 * command, indexed by the description's command id (enum cmd_id). It lives
 * at the top of gpu/ because it wires every unit (cs's MI commands, render,
 * the blitter) into the engines, which receive their table when gpu.c
 * creates them; cs itself includes no unit above it. A
 * command of the engine's table (the description) that has no handler
 * here is not implemented by gtsim: it is a GPU fault (dispatch.c), unless
 * the description marks it a no-op on the hardware (CMD_F_HW_NOOP).
 * Handlers of other units are declared in their own headers
 * (gpu/render/render_cs.h, gpu/gpgpu/gpgpu.h). */
#include "gpu/engine_handlers.h"

#include "gpu/blt/blt.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/handlers.h"
#include "gpu/cs/mi.h"
#include "gpu/gpgpu/gpgpu.h"
#include "gpu/render/render_cs.h"

/* MI commands every engine executes (the description says on which
 * engines each is valid; cmd_find() rejects the others before dispatch). */
#define MI_COMMANDS \
	[CMD_ID_MI_NOOP] = mi_noop, \
	[CMD_ID_MI_BATCH_BUFFER_START] = cs_batch_start, \
	[CMD_ID_MI_BATCH_BUFFER_END] = mi_batch_buffer_end, \
	[CMD_ID_MI_CONDITIONAL_BATCH_BUFFER_END] = mi_conditional_batch_buffer_end, \
	[CMD_ID_MI_USER_INTERRUPT] = mi_user_interrupt, \
	[CMD_ID_MI_REPORT_HEAD] = mi_report_head, \
	[CMD_ID_MI_SEMAPHORE_WAIT] = mi_semaphore_wait, \
	[CMD_ID_MI_SEMAPHORE_SIGNAL] = mi_semaphore_signal, \
	[CMD_ID_MI_STORE_DATA_IMM] = mi_store_data_imm, \
	[CMD_ID_MI_STORE_DATA_INDEX] = mi_store_data_index, \
	[CMD_ID_MI_COPY_MEM_MEM] = mi_copy_mem_mem, \
	[CMD_ID_MI_ATOMIC] = mi_atomic, \
	[CMD_ID_MI_FLUSH_DW] = mi_flush_dw, \
	[CMD_ID_MI_LOAD_REGISTER_IMM] = mi_load_register_imm, \
	[CMD_ID_MI_LOAD_REGISTER_MEM] = mi_load_register_mem, \
	[CMD_ID_MI_LOAD_REGISTER_REG] = mi_load_register_reg, \
	[CMD_ID_MI_STORE_REGISTER_MEM] = mi_store_register_mem, \
	[CMD_ID_MI_MATH] = mi_math, \
	/* Arbitration points (cs/mi_arb.c): where the kernel may preempt. \
	 * Display flush suspension: gtsim has no display, nothing changes. */ \
	[CMD_ID_MI_ARB_CHECK] = mi_arb_check, \
	[CMD_ID_MI_ARB_ON_OFF] = mi_arb_on_off, \
	[CMD_ID_MI_SUSPEND_FLUSH] = cs_no_effect,

/* 3D state the render pipeline reads from the recorded state when it
 * draws (cs_state_get); nothing to do when the command arrives. */
#define RECORDED_3D_STATE \
	[CMD_ID_3DSTATE_AA_LINE_PARAMETERS] = cs_record_state, \
	[CMD_ID_3DSTATE_BLEND_STATE_POINTERS] = cs_record_state, \
	[CMD_ID_3DSTATE_CC_STATE_POINTERS] = cs_record_state, \
	[CMD_ID_3DSTATE_CHROMA_KEY] = cs_record_state, \
	[CMD_ID_3DSTATE_CLEAR_PARAMS] = cs_record_state, \
	[CMD_ID_3DSTATE_CLIP] = cs_record_state, \
	[CMD_ID_3DSTATE_CONSTANT_GS] = cs_record_state, \
	[CMD_ID_3DSTATE_CONSTANT_PS] = cs_record_state, \
	[CMD_ID_3DSTATE_DEPTH_BUFFER] = cs_record_state, \
	[CMD_ID_3DSTATE_DRAWING_RECTANGLE] = cs_record_state, \
	[CMD_ID_3DSTATE_HIER_DEPTH_BUFFER] = cs_record_state, \
	[CMD_ID_3DSTATE_LINE_STIPPLE] = cs_record_state, \
	[CMD_ID_3DSTATE_MONOFILTER_SIZE] = cs_record_state, \
	[CMD_ID_3DSTATE_MULTISAMPLE] = cs_record_state, \
	[CMD_ID_3DSTATE_POLY_STIPPLE_OFFSET] = cs_record_state, \
	[CMD_ID_3DSTATE_POLY_STIPPLE_PATTERN] = cs_record_state, \
	[CMD_ID_3DSTATE_PS] = cs_record_state, \
	[CMD_ID_3DSTATE_PS_BLEND] = cs_record_state, \
	[CMD_ID_3DSTATE_PS_EXTRA] = cs_record_state, \
	[CMD_ID_3DSTATE_RASTER] = cs_record_state, \
	[CMD_ID_3DSTATE_SAMPLE_MASK] = cs_record_state, \
	[CMD_ID_3DSTATE_SAMPLE_PATTERN] = cs_record_state, \
	[CMD_ID_3DSTATE_SBE] = cs_record_state, \
	[CMD_ID_3DSTATE_SBE_SWIZ] = cs_record_state, \
	[CMD_ID_3DSTATE_SCISSOR_STATE_POINTERS] = cs_record_state, \
	[CMD_ID_3DSTATE_SF] = cs_record_state, \
	[CMD_ID_3DSTATE_SO_DECL_LIST] = cs_record_state, \
	[CMD_ID_3DSTATE_STENCIL_BUFFER] = cs_record_state, \
	[CMD_ID_3DSTATE_VF_COMPONENT_PACKING] = cs_record_state, \
	[CMD_ID_3DSTATE_VIEWPORT_STATE_POINTERS_CC] = cs_record_state, \
	[CMD_ID_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP] = cs_record_state, \
	[CMD_ID_3DSTATE_WM] = cs_record_state, \
	[CMD_ID_3DSTATE_WM_CHROMAKEY] = cs_record_state, \
	[CMD_ID_3DSTATE_WM_DEPTH_STENCIL] = cs_record_state, \
	[CMD_ID_STATE_SIP] = cs_record_state, \
	[CMD_ID_SWTESS_BASE_ADDRESS] = cs_record_state,

/* The GPGPU pipeline (gpu/gpgpu): its state and walkers. */
#define GPGPU_COMMANDS \
	[CMD_ID_MEDIA_VFE_STATE] = gpgpu_cs_command, \
	[CMD_ID_MEDIA_CURBE_LOAD] = gpgpu_cs_command, \
	[CMD_ID_MEDIA_INTERFACE_DESCRIPTOR_LOAD] = gpgpu_cs_command, \
	[CMD_ID_MEDIA_STATE_FLUSH] = gpgpu_cs_command, \
	[CMD_ID_GPGPU_WALKER] = gpgpu_cs_command, \
	[CMD_ID_MEDIA_OBJECT] = gpgpu_cs_command, \
	[CMD_ID_GPGPU_CSR_BASE_ADDRESS] = cs_record_state,

/* PIPELINE_SELECT and STATE_BASE_ADDRESS are state of both pipelines. */
static enum cs_result both_pipelines(struct gt_engine *e, const struct cmd_desc *d,
				     const uint32_t *dw, uint32_t len)
{
	enum cs_result r = render_cs_command(e, d, dw, len);
	return r == CS_NEXT ? gpgpu_cs_command(e, d, dw, len) : r;
}

/* The 3D front end and back end (gpu/render). */
#define RENDER_COMMANDS \
	[CMD_ID_PIPELINE_SELECT] = both_pipelines, \
	[CMD_ID_STATE_BASE_ADDRESS] = both_pipelines, \
	[CMD_ID_3DSTATE_VERTEX_BUFFERS] = render_cs_command, \
	[CMD_ID_3DSTATE_VERTEX_ELEMENTS] = render_cs_command, \
	[CMD_ID_3DSTATE_VF] = render_cs_command, \
	[CMD_ID_3DSTATE_VF_INSTANCING] = render_cs_command, \
	[CMD_ID_3DSTATE_VF_SGVS] = render_cs_command, \
	[CMD_ID_3DSTATE_VF_TOPOLOGY] = render_cs_command, \
	[CMD_ID_3DSTATE_VF_STATISTICS] = render_cs_command, \
	[CMD_ID_3DSTATE_INDEX_BUFFER] = render_cs_command, \
	[CMD_ID_3DSTATE_URB_VS] = render_cs_command, \
	[CMD_ID_3DSTATE_URB_HS] = render_cs_command, \
	[CMD_ID_3DSTATE_URB_DS] = render_cs_command, \
	[CMD_ID_3DSTATE_URB_GS] = render_cs_command, \
	[CMD_ID_3DSTATE_PUSH_CONSTANT_ALLOC_VS] = render_cs_command, \
	[CMD_ID_3DSTATE_PUSH_CONSTANT_ALLOC_HS] = render_cs_command, \
	[CMD_ID_3DSTATE_PUSH_CONSTANT_ALLOC_DS] = render_cs_command, \
	[CMD_ID_3DSTATE_PUSH_CONSTANT_ALLOC_GS] = render_cs_command, \
	[CMD_ID_3DSTATE_PUSH_CONSTANT_ALLOC_PS] = render_cs_command, \
	[CMD_ID_3DSTATE_CONSTANT_VS] = render_cs_command, \
	[CMD_ID_3DSTATE_CONSTANT_HS] = render_cs_command, \
	[CMD_ID_3DSTATE_CONSTANT_DS] = render_cs_command, \
	[CMD_ID_3DSTATE_BINDING_TABLE_POINTERS_VS] = render_cs_command, \
	[CMD_ID_3DSTATE_BINDING_TABLE_POINTERS_HS] = render_cs_command, \
	[CMD_ID_3DSTATE_BINDING_TABLE_POINTERS_DS] = render_cs_command, \
	[CMD_ID_3DSTATE_BINDING_TABLE_POINTERS_GS] = render_cs_command, \
	[CMD_ID_3DSTATE_BINDING_TABLE_POINTERS_PS] = render_cs_command, \
	[CMD_ID_3DSTATE_SAMPLER_STATE_POINTERS_VS] = render_cs_command, \
	[CMD_ID_3DSTATE_SAMPLER_STATE_POINTERS_HS] = render_cs_command, \
	[CMD_ID_3DSTATE_SAMPLER_STATE_POINTERS_DS] = render_cs_command, \
	[CMD_ID_3DSTATE_SAMPLER_STATE_POINTERS_GS] = render_cs_command, \
	[CMD_ID_3DSTATE_SAMPLER_STATE_POINTERS_PS] = render_cs_command, \
	[CMD_ID_3DSTATE_VS] = render_cs_command, \
	[CMD_ID_3DSTATE_HS] = render_cs_command, \
	[CMD_ID_3DSTATE_DS] = render_cs_command, \
	[CMD_ID_3DSTATE_GS] = render_cs_command, \
	[CMD_ID_3DSTATE_TE] = render_cs_command, \
	[CMD_ID_3DSTATE_STREAMOUT] = render_cs_command, \
	[CMD_ID_3DSTATE_SO_BUFFER] = render_cs_command, \
	[CMD_ID_3DPRIMITIVE] = render_cs_command, \
	[CMD_ID_3DSTATE_WM_HZ_OP] = render_cs_hz_op,

static const cs_handler rcs_handlers[CMD_ID_COUNT] = {
	MI_COMMANDS
	[CMD_ID_PIPE_CONTROL] = mi_pipe_control,
	[CMD_ID_MI_PREDICATE] = mi_predicate,
	[CMD_ID_MI_SET_CONTEXT] = mi_set_context,
	[CMD_ID_MI_REPORT_PERF_COUNT] = mi_report_perf_count,
	[CMD_ID_MI_LOAD_URB_MEM] = render_cs_load_urb_mem,
	[CMD_ID_MI_STORE_URB_MEM] = render_cs_store_urb_mem,
	RENDER_COMMANDS
	RECORDED_3D_STATE
	GPGPU_COMMANDS
};

static const cs_handler bcs_handlers[CMD_ID_COUNT] = {
	MI_COMMANDS
	[CMD_ID_XY_SRC_COPY_BLT] = blt_xy_src_copy,
	[CMD_ID_XY_COLOR_BLT] = blt_xy_color,
	[CMD_ID_XY_FAST_COPY_BLT] = blt_xy_fast_copy,
	[CMD_ID_XY_SETUP_CLIP_BLT] = blt_xy_setup_clip,
	[CMD_ID_XY_SETUP_BLT] = blt_xy_setup,
	[CMD_ID_XY_SETUP_MONO_PATTERN_SL_BLT] = blt_xy_setup_mono_pattern_sl,
	[CMD_ID_XY_SCANLINES_BLT] = blt_xy_scanlines,
	[CMD_ID_XY_PIXEL_BLT] = blt_xy_pixel,
	[CMD_ID_XY_TEXT_IMMEDIATE_BLT] = blt_xy_text_immediate,
	[CMD_ID_XY_PAT_BLT] = blt_xy_pat,
	[CMD_ID_XY_PAT_BLT_IMMEDIATE] = blt_xy_pat_immediate,
	[CMD_ID_XY_MONO_PAT_BLT] = blt_xy_mono_pat,
	[CMD_ID_XY_MONO_SRC_COPY_BLT] = blt_xy_mono_src_copy,
	[CMD_ID_XY_MONO_SRC_COPY_IMMEDIATE_BLT] = blt_xy_mono_src_copy_immediate,
	[CMD_ID_XY_FULL_MONO_PATTERN_MONO_SRC_BLT] = blt_xy_full_mono_pattern_mono_src,
};

static const cs_handler vcs_handlers[CMD_ID_COUNT] = {
	MI_COMMANDS
};

static const cs_handler vecs_handlers[CMD_ID_COUNT] = {
	MI_COMMANDS
};

const cs_handler *gpu_engine_handlers(enum gt_engine_id engine)
{
	switch (engine) {
	case ENGINE_RCS: return rcs_handlers;
	case ENGINE_BCS: return bcs_handlers;
	case ENGINE_VCS: return vcs_handlers;
	case ENGINE_VECS: return vecs_handlers;
	default: return NULL;
	}
}
