/* Register reads and writes of an engine: ring registers, TIMESTAMP and the
 * register file (regs.h). Called with the engine lock held. */
#include "gpu/cs/cs.h"

#include <time.h>

#include "common/trace.h"

uint64_t cs_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t cs_ring_size(const struct gt_engine *e)
{
	/* RING_CTL's Buffer Length: in 4 KiB pages, minus one. */
	uint32_t pages = (e->ring_ctl & REG_RING_CTL_BUFFER_LENGTH_MASK) >>
			 REG_RING_CTL_BUFFER_LENGTH_SHIFT;
	return (pages + 1) * 4096u;
}

uint64_t cs_acthd(const struct gt_engine *e)
{
	if (e->level != CS_RING)
		return e->bb[e->level].addr;
	return (uint64_t)e->ring_start + e->head;
}

uint64_t cs_ticks(const struct gt_engine *e, uint64_t ns)
{
	uint64_t hz = e->gpu && e->gpu->info ? e->gpu->info->timestamp_hz : 12500000;
	/* Split to keep ns * hz from overflowing. */
	return ns / 1000000000ull * hz + ns % 1000000000ull * hz / 1000000000ull;
}

static uint64_t timestamp(const struct gt_engine *e)
{
	return cs_ticks(e, cs_now_ns() - e->timestamp_t0_ns);
}

/* The generation whose register layouts apply. The fields interpreted here
 * are the same on gen8 and gen9; an engine built without a GPU (unit
 * tests) uses gen8's. */
static int reg_gen(const struct gt_engine *e)
{
	return e->gpu && e->gpu->info ? e->gpu->info->gen : 8;
}

/* RING_PDP0..3, 64 bits each: the PPGTT root. */
static bool is_pdp(uint32_t rel)
{
	return rel >= REG_RING_PDP0 && rel < REG_RING_PDP3 + 8;
}

static bool own_reg(const struct gt_engine *e, uint32_t reg)
{
	return engine_of_reg(reg) == e->id;
}

/* The engine's RING_FORCE_TO_NONPRIV slots (Gen9; the register does not
 * exist on Gen8, whose kernel whitelists nothing). */
static bool is_nonpriv_slot(const struct gt_engine *e, uint32_t rel)
{
	return reg_gen(e) >= 9 && rel >= REG_RING_FORCE_TO_NONPRIV &&
	       rel < REG_RING_FORCE_TO_NONPRIV + 4 * CS_NONPRIV_SLOTS;
}

/* Is reg named by one of the engine's slots. The slots' access bits
 * (29:28, read/write/both) and range bits are CFL's and Gen11's: SKL's
 * slots whitelist the one register for reads and writes. */
static bool whitelisted(const struct gt_engine *e, uint32_t reg)
{
	if (reg_gen(e) < 9)
		return false;
	for (unsigned i = 0; i < CS_NONPRIV_SLOTS; i++)
		if ((e->force_nonpriv[i] & CS_NONPRIV_ADDRESS_MASK) == reg)
			return true;
	return false;
}

/* Render registers the hardware keeps from non-privileged batches although
 * userspace needs them: i915 opens them through RING_FORCE_TO_NONPRIV on
 * Gen9 (whitelist), Gen8 not at all. IGT's gem_ctx_isolation lists them
 * as "Privileged (enabled by w/a + FORCE_TO_NONPRIV)" for Gen9 (0x2248
 * CTX_PREEMPT, 0x2580 CS_CHICKEN1, 0x7014 COMMON_SLICE_CHICKEN2, 0x7304
 * HDC_CHICKEN1, 0xb118 L3SQCREG4) and as non-privileged on no earlier
 * generation. */
static bool whitelist_only(uint32_t reg)
{
	return reg == 0x2248 || reg == 0x2580 || reg == 0x7014 || reg == 0x7304 ||
	       reg == 0xb118;
}

bool cs_reg_is_privileged(const struct gt_engine *e, uint32_t reg)
{
	reg &= ~3u;
	if (whitelisted(e, reg))
		return false;
	if (whitelist_only(reg))
		return true;
	if (!own_reg(e, reg))
		return true; /* global or another engine's register */
	uint32_t rel = reg - e->base;
	if (is_nonpriv_slot(e, rel))
		return true;  /* the whitelist itself */
	/* Ring control, status and error registers, the batch state and the
	 * PPGTT root: the kernel's alone. INSTPM (0xc0) and MI_MODE stay
	 * writable, as userspace drivers load them. */
	if (rel < REG_RING_INSTPM && rel != REG_RING_MI_MODE)
		return true;
	/* The batch state, except BB_OFFSET (0x158), which userspace loads
	 * for MI_BATCH_BUFFER_START's Add Offset and which the context
	 * keeps (IGT gem_ctx_isolation writes it from a user batch). */
	if (rel >= 0x100 && rel < 0x180 && rel != REG_RING_BB_OFFSET)
		return true;
	if (is_pdp(rel))
		return true;
	return rel == RING_TIMESTAMP || rel == RING_TIMESTAMP_UDW;
}

uint32_t cs_reg_read(struct gt_engine *e, uint32_t reg)
{
	reg &= ~3u;
	if (!own_reg(e, reg)) {
		enum gt_engine_id other = engine_of_reg(reg);
		if (other == GT_NUM_ENGINES || !e->gpu)
			return e->gpu ? cs_global_read(e->gpu->globals, reg) : 0;
		/* Another engine's TIMESTAMP: its clock's count, from a start
		 * fixed when that engine was made (no lock needed). Its other
		 * registers are under its lock, which must not be taken while
		 * holding ours: commands do not read them (cs_reg_readable
		 * faults first); anything else reads 0, traced. */
		uint32_t orel = reg - engine_mmio_base(other);
		const struct gt_engine *o = e->gpu->engines[other];
		if (o && (orel == RING_TIMESTAMP || orel == RING_TIMESTAMP_UDW))
			return orel == RING_TIMESTAMP ? (uint32_t)timestamp(o) : (uint32_t)(timestamp(o) >> 32);
		TRACE(TRACE_REG, "%s: read of %s register 0x%05x gives 0",
		      e->name, engine_name(other), reg);
		return 0;
	}
	uint32_t rel = reg - e->base;
	switch (rel) {
	case RING_TAIL: return e->tail;
	case RING_HEAD: return cs_ring_head_reg(e);
	case RING_START: return e->ring_start;
	case RING_CTL: return e->ring_ctl;
	case RING_ACTHD: return (uint32_t)cs_acthd(e);
	case RING_ACTHD_UDW: return (uint32_t)(cs_acthd(e) >> 32);
	case RING_HWS_PGA: return e->hws_pga;
	case RING_BBADDR:
		return e->level ? (uint32_t)e->bb[e->level].start | e->bb[e->level].ppgtt << 5 : 0;
	case RING_BBADDR_UDW:
		return e->level ? (uint32_t)(e->bb[e->level].start >> 32) : 0;
	case REG_RING_BBSTATE: {
		uint32_t v = 0;
		cmd_RING_BBSTATE_pack(reg_gen(e), &v, 1, &(struct cmd_RING_BBSTATE){
			.ppgtt = e->level && e->bb[e->level].ppgtt });
		return v;
	}
	case RING_TIMESTAMP: return (uint32_t)timestamp(e);
	case RING_TIMESTAMP_UDW: return (uint32_t)(timestamp(e) >> 32);
	case REG_RING_CTX_TIMESTAMP: return cs_ctx_timestamp(e);
	case REG_RING_INSTDONE:
		/* Every unit done, unless the engine is stopped on a fault. */
		return e->stopped ? 0xfffffffeu : 0xffffffffu;
	case REG_RING_MI_MODE: {
		/* Mode Idle: a register is read between commands, so a ring
		 * stopped by Stop Ring is idle by then. */
		uint32_t v = regs_get(&e->regs, reg) & ~REG_RING_MI_MODE_MODE_IDLE_MASK;
		return v | (e->stop_ring ? REG_RING_MI_MODE_MODE_IDLE_MASK : 0);
	}
	default:
		break;
	}
	if (is_pdp(rel)) {
		uint64_t pdp = e->pdp[(rel - REG_RING_PDP0) / 8];
		return (rel & 4) ? (uint32_t)(pdp >> 32) : (uint32_t)pdp;
	}
	if (is_nonpriv_slot(e, rel))
		return e->force_nonpriv[(rel - REG_RING_FORCE_TO_NONPRIV) / 4];
	return regs_get(&e->regs, reg);
}

void cs_reg_write(struct gt_engine *e, uint32_t reg, uint32_t val)
{
	reg &= ~3u;
	TRACE(TRACE_REG, "%s: 0x%05x <- 0x%08x", e->name, reg, val);
	if (!own_reg(e, reg)) {
		if (engine_of_reg(reg) == GT_NUM_ENGINES && e->gpu) {
			if (cs_reg_masked(e, reg))   /* as below */
				val = (cs_global_read(e->gpu->globals, reg) & ~(val >> 16) & 0xffffu) |
				      (val & (val >> 16));
			cs_global_write(e->gpu->globals, reg, val);
		}
		else
			TRACE(TRACE_REG, "%s: write to another engine's register "
			      "0x%05x ignored", e->name, reg);
		return;
	}
	uint32_t rel = reg - e->base;
	int gen = reg_gen(e);
	if (rel == RING_HEAD || rel == RING_START || rel == RING_CTL)
		cs_ring_prefetch_drop(e);
	switch (rel) {
	case RING_TAIL: {
		struct cmd_RING_TAIL t;
		cmd_RING_TAIL_unpack(gen, &val, 1, &t);
		e->tail = t.tail_offset % cs_ring_size(e);
		TRACE(TRACE_CS, "%s: TAIL 0x%x (HEAD 0x%x)", e->name, e->tail, e->head);
		return;
	}
	case RING_HEAD: {
		struct cmd_RING_HEAD h;
		cmd_RING_HEAD_unpack(gen, &val, 1, &h);
		e->head = h.head_offset % cs_ring_size(e);
		e->head_wraps = h.wrap_count;
		TRACE(TRACE_CS, "%s: HEAD 0x%x", e->name, e->head);
		return;
	}
	case RING_START: {
		struct cmd_RING_START s;
		cmd_RING_START_unpack(gen, &val, 1, &s);
		e->ring_start = (uint32_t)s.starting_address;
		return;
	}
	case RING_CTL: {
		struct cmd_RING_CTL c;
		cmd_RING_CTL_unpack(gen, &val, 1, &c);
		e->ring_ctl = val;
		e->head %= cs_ring_size(e);
		e->tail %= cs_ring_size(e);
		TRACE(TRACE_CS, "%s: ring at 0x%x, %u bytes, %s", e->name,
		      e->ring_start, cs_ring_size(e),
		      c.ring_buffer_enable ? "enabled" : "disabled");
		return;
	}
	case RING_HWS_PGA: {
		struct cmd_RING_HWS_PGA p;
		cmd_RING_HWS_PGA_unpack(gen, &val, 1, &p);
		e->hws_pga = (uint32_t)p.address;
		return;
	}
	case REG_RING_CTX_TIMESTAMP:
		cs_ctx_timestamp_load(e, val);
		return;
	case RING_ACTHD: case RING_ACTHD_UDW: case RING_BBADDR:
	case RING_BBADDR_UDW: case RING_TIMESTAMP: case RING_TIMESTAMP_UDW:
	case REG_RING_INSTDONE:
		return; /* read-only */
	default:
		break;
	}
	if (is_pdp(rel)) {
		uint64_t *pdp = &e->pdp[(rel - REG_RING_PDP0) / 8];
		if (rel & 4)
			*pdp = (*pdp & 0xffffffffull) | (uint64_t)val << 32;
		else
			*pdp = (*pdp & ~0xffffffffull) | val;
		return;
	}
	if (is_nonpriv_slot(e, rel)) {
		e->force_nonpriv[(rel - REG_RING_FORCE_TO_NONPRIV) / 4] = val;
		return;
	}
	if (cs_reg_masked(e, reg)) {
		/* The upper half enables the writes of the lower half and reads
		 * back as 0. */
		uint32_t enable = val >> 16;
		val = (regs_get(&e->regs, reg) & ~enable & 0xffffu) | (val & enable);
	}
	if (!regs_set(&e->regs, reg, val))
		TRACE(TRACE_REG, "%s: register file full, 0x%05x dropped", e->name, reg);
	if (rel == REG_RING_MI_MODE) {
		e->stop_ring = val & REG_RING_MI_MODE_STOP_RING_MASK;
		TRACE(TRACE_CS, "%s: MI_MODE Stop Ring %s", e->name, e->stop_ring ? "set: the engine stops" : "clear");
	} else if (rel == REG_RING_INSTPM) {
		e->instpm_disables = val & (REG_RING_INSTPM_3D_STATE_INSTRUCTION_DISABLE_MASK |
					    REG_RING_INSTPM_3D_RENDERING_INSTRUCTION_DISABLE_MASK |
					    REG_RING_INSTPM_MEDIA_INSTRUCTION_DISABLE_MASK);
	}
}

uint64_t cs_reg_read64(struct gt_engine *e, uint32_t reg)
{
	return cs_reg_read(e, reg) | (uint64_t)cs_reg_read(e, reg + 4) << 32;
}

void cs_reg_write64(struct gt_engine *e, uint32_t reg, uint64_t val)
{
	cs_reg_write(e, reg, (uint32_t)val);
	cs_reg_write(e, reg + 4, (uint32_t)(val >> 32));
}
