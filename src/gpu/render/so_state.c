/* Stream output state (so.h): 3DSTATE_SO_BUFFER with its write offset
 * register, and a draw's 3DSTATE_STREAMOUT and 3DSTATE_SO_DECL_LIST. */
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cs/regs.h"
#include "gpu/render/recorded.h"
#include "gpu/render/render_state.h"
#include "gpu/render/so_draw.h"

RENDER_RECORDED(3DSTATE_STREAMOUT)

/* Stream Offset 0xFFFFFFFF: "load the offset from Stream Output Buffer
 * Offset Address" (BDW PRM vol. 2a, 3DSTATE_SO_BUFFER DWord 7). */
#define SO_OFFSET_FROM_MEMORY 0xffffffffu

int so_buffer_command(struct render_state *rs, const struct render_env *env,
		      const uint32_t *dw, uint32_t len)
{
	struct cmd_3DSTATE_SO_BUFFER v;
	cmd_3DSTATE_SO_BUFFER_unpack(rs->info->gen, dw, len, &v);
	struct so_buffer *b = &rs->so_buf[v.so_buffer_index];
	*b = (struct so_buffer){
		.enable = v.so_buffer_enable,
		.offset_addr_enable = v.stream_output_buffer_offset_address_enable,
		.base = v.surface_base_address,
		.offset_addr = v.stream_output_buffer_offset_address,
		.size = ((uint64_t)v.surface_size + 1) * 4,
	};
	if (!v.stream_offset_write_enable)
		return 0;
	if (!env->regs)
		return render_set_fault(rs, "3DSTATE_SO_BUFFER: Stream Offset Write Enable "
					"without registers");
	uint32_t off = v.stream_offset;
	if (off == SO_OFFSET_FROM_MEMORY) {
		if (!b->offset_addr_enable)
			return render_set_fault(rs, "3DSTATE_SO_BUFFER %u: Stream Offset "
						"0xFFFFFFFF without Stream Output Buffer "
						"Offset Address Enable", v.so_buffer_index);
		if (vm_read(&env->vm, b->offset_addr, &off, 4))
			return render_set_fault(rs, "3DSTATE_SO_BUFFER %u: page fault reading "
						"the stream offset at 0x%llx", v.so_buffer_index,
						(unsigned long long)b->offset_addr);
	}
	regs_set(env->regs, SO_WRITE_OFFSET(v.so_buffer_index), off & ~3u);
	TRACE(TRACE_SO, "buffer %u: %s base 0x%llx size %llu, write offset %u", v.so_buffer_index,
	      b->enable ? "enabled" : "disabled", (unsigned long long)b->base,
	      (unsigned long long)b->size, off & ~3u);
	return 0;
}

static int decls(struct so_draw *so, int gen, const struct cs_state *st)
{
	uint32_t len;
	const uint32_t *dw = render_recorded(st, gen, CMD_ID_3DSTATE_SO_DECL_LIST, &len);
	struct cmd_3DSTATE_SO_DECL_LIST v;
	cmd_3DSTATE_SO_DECL_LIST_unpack(gen, dw, len, &v);
	so->select[0] = v.stream_to_buffer_selects_0;
	so->select[1] = v.stream_to_buffer_selects_1;
	so->select[2] = v.stream_to_buffer_selects_2;
	so->select[3] = v.stream_to_buffer_selects_3;
	uint32_t num[SO_STREAMS] = { v.num_entries_0, v.num_entries_1, v.num_entries_2,
				     v.num_entries_3 };
	uint32_t have = cmd_3DSTATE_SO_DECL_LIST_entry_count(gen, len);
	for (unsigned s = 0; s < SO_STREAMS; s++) {
		if (num[s] > have || num[s] > SO_MAX_DECLS)
			return render_set_fault(so->rs, "3DSTATE_SO_DECL_LIST: stream %u has "
						"%u entries, the list %u", s, num[s], have);
		so->ndecl[s] = num[s];
		for (uint32_t i = 0; i < num[s]; i++) {
			struct cmd_SO_DECL_ENTRY e;
			cmd_3DSTATE_SO_DECL_LIST_entry_at(gen, dw, len, i, &e);
			const struct cmd_SO_DECL *d = s == 0 ? &e.stream_0_decl :
						      s == 1 ? &e.stream_1_decl :
						      s == 2 ? &e.stream_2_decl : &e.stream_3_decl;
			so->decl[s][i] = (struct so_decl){
				.buffer = (uint8_t)d->output_buffer_slot,
				.reg = (uint8_t)d->register_index,
				.mask = (uint8_t)d->component_mask,
				.hole = d->hole_flag,
			};
			if (!d->hole_flag && d->register_index >= so->read_rows[s])
				return render_set_fault(so->rs, "3DSTATE_SO_DECL_LIST: stream %u "
							"decl %u reads VUE row %u past the "
							"Vertex Read Length (%u rows)", s, i,
							d->register_index, so->read_rows[s]);
		}
	}
	return 0;
}

int so_draw_begin(struct render_state *rs, const struct render_env *env)
{
	rs->so = NULL;
	if (!env->state)
		return 0;
	int gen = rs->info->gen;
	struct cmd_3DSTATE_STREAMOUT v;
	recorded_3DSTATE_STREAMOUT(gen, env->state, &v);
	/* Force Rendering (BDW PRM vol. 2a): 2 forces it off, 3 on, whatever
	 * Rendering Disable says */
	bool render = v.force_rendering == 3 ? true : v.force_rendering == 2 ? false
						      : !v.rendering_disable;
	if (v.force_rendering == 1)
		return render_set_fault(rs, "3DSTATE_STREAMOUT: reserved Force Rendering 1");
	if (!v.so_function_enable && render)
		return 0;
	struct so_draw *so = calloc(1, sizeof(*so));
	if (!so)
		return render_set_fault(rs, "stream output: out of memory");
	*so = (struct so_draw){
		.rs = rs, .env = env, .function = v.so_function_enable,
		.stats = v.so_statistics_enable, .render = render,
		.trailing = v.reorder_mode == 1, .render_stream = v.render_stream_select,
		.pitch = { v.buffer_0_surface_pitch, v.buffer_1_surface_pitch,
			   v.buffer_2_surface_pitch, v.buffer_3_surface_pitch },
		/* Vertex Read Offset/Length in 256-bit units, the length minus one */
		.read_row = { v.stream_0_vertex_read_offset * 2, v.stream_1_vertex_read_offset * 2,
			      v.stream_2_vertex_read_offset * 2, v.stream_3_vertex_read_offset * 2 },
		.read_rows = { (v.stream_0_vertex_read_length + 1) * 2,
			       (v.stream_1_vertex_read_length + 1) * 2,
			       (v.stream_2_vertex_read_length + 1) * 2,
			       (v.stream_3_vertex_read_length + 1) * 2 },
	};
	if (so->function) {
		if (!env->regs) {
			free(so);
			return render_set_fault(rs, "stream output without registers");
		}
		if (decls(so, gen, env->state)) {
			free(so);
			return -1;
		}
		for (unsigned b = 0; b < SO_BUFFERS; b++)
			so->offset[b] = regs_get(env->regs, SO_WRITE_OFFSET(b));
	}
	rs->so = so;
	return 0;
}

static void add(struct cs_regs *r, uint32_t reg, uint64_t n)
{
	if (n)
		regs_set64(r, reg, regs_get64(r, reg) + n);
}

int so_draw_end(struct render_state *rs)
{
	struct so_draw *so = rs->so;
	if (!so)
		return 0;
	rs->so = NULL;
	int ret = so->fault ? -1 : 0;
	const struct render_env *env = so->env;
	if (so->function && !ret) {
		for (unsigned b = 0; b < SO_BUFFERS; b++) {
			uint32_t off = (uint32_t)so->offset[b];
			regs_set(env->regs, SO_WRITE_OFFSET(b), off);
			/* the write offset goes back to memory for the next
			 * 0xFFFFFFFF load (DrawTransformFeedback, resume) */
			const struct so_buffer *sb = &rs->so_buf[b];
			if (sb->enable && sb->offset_addr_enable &&
			    vm_write(&env->vm, sb->offset_addr, &off, 4)) {
				ret = render_set_fault(rs, "stream output: page fault writing "
						       "buffer %u's offset at 0x%llx", b,
						       (unsigned long long)sb->offset_addr);
				break;
			}
		}
		/* SO_NUM_PRIMS_WRITTEN / SO_PRIM_STORAGE_NEEDED count with SO
		 * Statistics Enable (BDW PRM vol. 2a, 3DSTATE_STREAMOUT) */
		for (unsigned s = 0; so->stats && s < SO_STREAMS; s++) {
			add(env->regs, SO_NUM_PRIMS_WRITTEN(s), so->written[s]);
			add(env->regs, SO_PRIM_STORAGE_NEEDED(s), so->needed[s]);
		}
	}
	free(so);
	return ret;
}
