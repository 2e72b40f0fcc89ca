/* Helpers for the executor tests: build struct eu_inst values directly,
 * run them on a thread, read registers back. */
#ifndef TEST_EXEC_UTIL_H
#define TEST_EXEC_UTIL_H

#include <math.h>
#include <string.h>

#include "gpu/eu/exec.h"
#include "gpu/eu/inst.h"
#include "gpu/eu/thread.h"
#include "test.h"

static inline struct eu_operand op_reg(unsigned file, unsigned nr,
				       unsigned sub, unsigned type,
				       unsigned vs, unsigned w, unsigned hs)
{
	struct eu_operand o;
	memset(&o, 0, sizeof(o));
	o.file = (uint8_t)file;
	o.nr = (uint8_t)nr;
	o.subnr = (uint8_t)sub;
	o.type = (uint8_t)type;
	o.vstride = (uint8_t)vs;
	o.width = (uint8_t)w;
	o.hstride = (uint8_t)hs;
	o.swizzle[0] = 0; o.swizzle[1] = 1; o.swizzle[2] = 2; o.swizzle[3] = 3;
	o.writemask = 0xf;
	return o;
}
/* g<nr><8;8,1> (or <16;16,1> when used by a SIMD16 instruction) */
static inline struct eu_operand g(unsigned nr, unsigned type)
{
	return op_reg(EU_FILE_GRF, nr, 0, type, 8, 8, 1);
}
static inline struct eu_operand g16(unsigned nr, unsigned type)
{
	return op_reg(EU_FILE_GRF, nr, 0, type, 16, 16, 1);
}
/* g<nr>.<sub elements><0;1,0> */
static inline struct eu_operand gs(unsigned nr, unsigned sub, unsigned type)
{
	struct eu_operand o = op_reg(EU_FILE_GRF, nr, 0, type, 0, 1, 0);
	o.subnr = (uint8_t)(sub * (type == EU_TYPE_DF || type == EU_TYPE_Q ||
				   type == EU_TYPE_UQ ? 8 : type == EU_TYPE_W ||
				   type == EU_TYPE_UW || type == EU_TYPE_HF ? 2 :
				   type == EU_TYPE_B || type == EU_TYPE_UB ? 1 : 4));
	return o;
}
static inline struct eu_operand gd(unsigned nr, unsigned type)
{
	return op_reg(EU_FILE_GRF, nr, 0, type, 0, 0, 1);
}
static inline struct eu_operand arf(unsigned nr, unsigned type)
{
	return op_reg(EU_FILE_ARF, nr, 0, type, 0, 1, 0);
}
static inline struct eu_operand null_dst(unsigned type)
{
	struct eu_operand o = op_reg(EU_FILE_ARF, EU_ARF_NULL, 0, type, 0, 0, 1);
	return o;
}
static inline struct eu_operand imm(unsigned type, uint64_t bits)
{
	struct eu_operand o;
	memset(&o, 0, sizeof(o));
	o.file = EU_FILE_IMM;
	o.type = (uint8_t)type;
	o.imm = bits;
	return o;
}
static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline struct eu_operand immf(float f) { return imm(EU_TYPE_F, fbits(f)); }
static inline struct eu_operand immd(int32_t d) { return imm(EU_TYPE_D, (uint32_t)d); }
static inline struct eu_operand immud(uint32_t d) { return imm(EU_TYPE_UD, d); }
static inline struct eu_operand neg(struct eu_operand o) { o.negate = true; return o; }
static inline struct eu_operand absm(struct eu_operand o) { o.abs = true; return o; }

static inline struct eu_inst inst(unsigned opc, unsigned n, struct eu_operand d,
				  unsigned nsrc, const struct eu_operand *s)
{
	struct eu_inst in;
	memset(&in, 0, sizeof(in));
	in.opcode = (uint8_t)opc;
	in.exec_size = (uint8_t)n;
	in.dst = d;
	in.num_srcs = (uint8_t)nsrc;
	for (unsigned i = 0; i < nsrc && i < 3; i++)
		in.src[i] = s[i];
	return in;
}
static inline struct eu_inst i1(unsigned opc, unsigned n, struct eu_operand d,
				struct eu_operand a)
{
	return inst(opc, n, d, 1, &a);
}
static inline struct eu_inst i2(unsigned opc, unsigned n, struct eu_operand d,
				struct eu_operand a, struct eu_operand b)
{
	struct eu_operand s[2] = { a, b };
	return inst(opc, n, d, 2, s);
}
static inline struct eu_inst i3(unsigned opc, unsigned n, struct eu_operand d,
				struct eu_operand a, struct eu_operand b,
				struct eu_operand c)
{
	struct eu_operand s[3] = { a, b, c };
	return inst(opc, n, d, 3, s);
}
/* A branch with byte offsets. */
static inline struct eu_inst br(unsigned opc, unsigned n, int32_t jip, int32_t uip)
{
	struct eu_inst in;
	memset(&in, 0, sizeof(in));
	in.opcode = (uint8_t)opc;
	in.exec_size = (uint8_t)n;
	in.dst = null_dst(EU_TYPE_D);
	in.jip = jip;
	in.uip = uip;
	return in;
}
static inline struct eu_inst eot_send(void)
{
	/* send(8) null g127 with no shared function behind it is a fault;
	 * tests end programs with "nop" and run to the end instead. */
	struct eu_inst in = br(EU_OP_NOP, 1, 0, 0);
	return in;
}

/* Run n instructions on t (already set up) until it falls off the end:
 * returns the state, EU_THREAD_FAULT for "past the end" faults too. */
static inline enum eu_thread_state run_prog_gen(int gen, struct eu_thread *t,
						const struct eu_inst *insts, size_t n)
{
	struct exec_prog *p = exec_prog_build(gen, insts, NULL, n);
	enum eu_thread_state st = exec_run(t, p, 100000);
	exec_prog_free(p);
	return st;
}
static inline enum eu_thread_state run_prog(struct eu_thread *t,
					    const struct eu_inst *insts, size_t n)
{
	return run_prog_gen(8, t, insts, n);
}
/* True when the program ran to its end (the only fault is "past the end"). */
static inline bool ran_to_end(const struct eu_thread *t)
{
	return t->state == EU_THREAD_FAULT && strstr(t->fault, "past the end");
}

static inline float rf(struct eu_thread *t, unsigned nr, unsigned i)
{
	return bitsf(eu_grf_ud(t, nr + i / 8, i % 8));
}
static inline uint32_t rud(struct eu_thread *t, unsigned nr, unsigned i)
{
	return eu_grf_ud(t, nr + i / 8, i % 8);
}
static inline void setf(struct eu_thread *t, unsigned nr, unsigned i, float f)
{
	eu_grf_set_ud(t, nr + i / 8, i % 8, fbits(f));
}
static inline void setud(struct eu_thread *t, unsigned nr, unsigned i, uint32_t v)
{
	eu_grf_set_ud(t, nr + i / 8, i % 8, v);
}

#endif
