/* Private to the executor (exec_*.c): the translated instruction form. */
#ifndef GTSIM_EU_EXEC_INTERNAL_H
#define GTSIM_EU_EXEC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gpu/eu/exec.h"
#include "gpu/eu/inst.h"
#include "gpu/eu/thread.h"

#define EXEC_NO_TARGET UINT32_MAX

/* A value inside an instruction's computation: integers as 64-bit, F as
 * float, DF as double (the "execution type", PRM "Execution Data Type"). */
union exec_val { int64_t i; uint64_t u; float f; double d; };

enum exec_dom { DOM_INT, DOM_F, DOM_DF };

enum exec_src_kind { SRC_NONE, SRC_DIRECT, SRC_IMM, SRC_INDIRECT };
enum exec_dst_kind { DST_NULL, DST_DIRECT, DST_INDIRECT };

struct exec_src {
	uint8_t kind;            /* enum exec_src_kind */
	uint8_t type;            /* enum eu_type (V/UV/VF already expanded) */
	uint8_t size;            /* bytes per element */
	bool neg, abs;
	bool contiguous;         /* off[i] == off[0] + i*size */
	bool scalar;             /* off[i] == off[0] */
	bool reads_special;      /* ARF whose value is made on demand */
	uint16_t off[EU_MAX_CHANNELS];   /* direct: byte offset per channel */
	uint64_t imm[8];         /* imm: raw bits for channel i % 8 */
	/* indirect: a0.sub (UW) + offset, then the region */
	uint8_t a0_sub;
	int16_t ind_off;
	uint8_t vstride, width, hstride;
	bool vxh;
	uint8_t swz[4];          /* align16 */
	bool align16;
};

struct exec_dst {
	uint8_t kind;            /* enum exec_dst_kind */
	uint8_t type, size;
	bool is_acc;             /* destination is acc0/acc1 */
	bool is_cr0;             /* writes change the float mode */
	bool is_ip;              /* writes jump */
	bool contiguous;
	uint16_t off[EU_MAX_CHANNELS];
	uint32_t wmask;          /* align16 write mask over channels */
	uint8_t a0_sub;          /* indirect */
	int16_t ind_off;
	uint8_t hstride;
};

struct exec_op;
struct exec_jit_entry;
/* Executes op for the channels in `en` (bit i = channel i of the
 * instruction, predication already applied unless op->pred_is_operand);
 * returns the index of the next instruction. */
typedef uint32_t (*exec_fn)(struct eu_thread *t, const struct exec_op *op,
			    uint32_t en);

#define EXEC_RUN_PRED   1u    /* predication masks the channels */
#define EXEC_RUN_IP     2u    /* writes ip: a jump */

struct exec_op {
	exec_fn fn;
	uint8_t run;             /* EXEC_RUN_*: what the loop must do */
	const struct exec_prog *prog;
	struct eu_inst inst;     /* as decoded, for traces and slow paths */
	uint32_t index;          /* own instruction index */
	uint32_t offset;         /* own byte offset */
	uint8_t opcode, exec_size, group, nsrc, dom;
	uint32_t full;           /* (1 << exec_size) - 1 */
	bool no_mask;
	bool pred_is_operand;    /* sel/control flow read the predicate */
	bool writes_flag;        /* conditional modifier updates f0/f1 */
	bool logic;              /* negate means bitwise NOT */
	bool acc_implicit;       /* addc/subb/mach write acc themselves */
	bool uq_src;             /* a UQ source: integers compare and convert
				  * to float as unsigned 64-bit */
	bool reads_ce0, reads_ip;
	uint32_t target_jip, target_uip;   /* instruction indices */
	const char *illegal;     /* non-NULL: fault with this message */
	struct exec_dst dst;
	struct exec_src src[3];
};

struct exec_prog {
	int gen;
	size_t count;
	struct exec_op *ops;
	uint32_t *offsets;       /* byte offset per instruction */
	uint32_t end_offset;     /* byte offset just past the program */
	struct exec_jit_entry *jit;   /* its compiled form (jit/jit.h), or NULL */
};

/* exec_run.c: one turn of the interpreter loop at *ip (what exec_run does
 * per instruction); the compiled code calls it for what it leaves out. */
void exec_step(struct eu_thread *t, const struct exec_prog *p, uint32_t *ip,
	       uint64_t stop);

/* exec_translate.c */
void exec_translate(int gen, struct exec_prog *p, size_t i,
		    const struct eu_inst *in);
long exec_index_of(const struct exec_prog *p, int64_t byte_offset);

/* exec_operand.c: load a source for channels in en into the domain dom;
 * store results (already in the domain) into the destination. Return 0,
 * or -1 after faulting the thread (indirect access out of range). */
int exec_load(struct eu_thread *t, const struct exec_op *op, unsigned s,
	      enum exec_dom dom, uint32_t en, union exec_val *v);
int exec_load_raw(struct eu_thread *t, const struct exec_op *op, unsigned s,
		  uint32_t en, uint64_t *raw);
int exec_store(struct eu_thread *t, const struct exec_op *op,
	       enum exec_dom dom, uint32_t en, const union exec_val *v);
int exec_store_raw(struct eu_thread *t, const struct exec_op *op,
		   uint32_t en, const uint64_t *raw);
bool exec_type_is_float(unsigned type);
bool exec_type_is_signed(unsigned type);
unsigned exec_type_bytes(unsigned type);
/* Byte offset of channel i of an indirect source/destination, or -1. */
long exec_src_indirect_off(struct eu_thread *t, const struct exec_src *s,
			   unsigned i);
/* Flags: the predicate mask of op over its channels (pred/any/all). */
uint32_t exec_pred_mask(const struct eu_thread *t, const struct exec_op *op);
void exec_set_flag_bits(struct eu_thread *t, const struct exec_op *op,
			uint32_t en, uint32_t bits);

/* exec_float.c: float mode from cr0 and conversions. */
struct exec_fpmode {
	bool alt;                /* ALT (non-IEEE) single precision mode */
	bool f32_denorm, f64_denorm, f16_denorm;  /* preserve */
	unsigned round;          /* 0 RNE, 1 RU, 2 RD, 3 RZ */
};
#define EXEC_CR0_SLOT    20   /* eu_arf_slot(EU_ARF_CR0) */
#define CR0_ALT          (1u << 0)
#define CR0_ROUND_SHIFT  4
#define CR0_F64_DENORM   (1u << 6)
#define CR0_F32_DENORM   (1u << 7)
#define CR0_F16_DENORM   (1u << 10)
struct exec_fpmode exec_fpmode(const struct eu_thread *t);

/* On x86 hosts the executor runs with the SSE control bits DAZ and FTZ
 * set, which is exactly cr0's reset state (single and double denormals
 * flushed, sign kept): the fast paths then need no flushing of their own.
 * Code that must see denormals (a thread that keeps them, shared-function
 * handlers) clears them for its duration. */
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
#define EXEC_HOST_DAZ 1
#else
#define EXEC_HOST_DAZ 0
#endif
/* Set (on) or clear (off) DAZ+FTZ; returns the previous control word. */
unsigned exec_host_daz(bool on);
void exec_host_restore(unsigned saved);
/* The same around exec_run without reading the control word back: enter
 * (the host's word read once, the EU's loaded), ieee (the handlers'
 * plain IEEE), eu (back to the EU's), leave (the host's again). */
void exec_fp_enter(struct eu_thread *t);
void exec_fp_ieee(struct eu_thread *t);
void exec_fp_eu(struct eu_thread *t);
void exec_fp_leave(struct eu_thread *t);
/* IEEE mode, round to nearest even, denormals flushed: the reset state,
 * which is what the fast paths implement. */
static inline bool exec_fpmode_is_default(const struct eu_thread *t)
{
	uint32_t c;
	memcpy(&c, t->regs + EU_ARF_BASE + EXEC_CR0_SLOT * EU_REG_SIZE, 4);
	return (c & (CR0_ALT | 3u << CR0_ROUND_SHIFT | CR0_F32_DENORM)) == 0;
}
float exec_flush_f(float f);
double exec_flush_df(double d);
float exec_df_to_f(double d);
float exec_half_to_float(uint16_t h);
uint16_t exec_float_to_half(float f, unsigned round);
int exec_set_host_round(unsigned mode);   /* returns the previous host mode */
void exec_restore_host_round(int saved);

/* exec_alu.c: generic ALU handler (every ALU opcode, every form). */
uint32_t exec_alu_generic(struct eu_thread *t, const struct exec_op *op,
			  uint32_t en);
/* exec_alu_math.c: math function for one channel (float domains). */
union exec_val exec_math_float(unsigned fn, enum exec_dom dom, bool alt,
			       union exec_val a, union exec_val b);
/* exec_fast.c: a specialised handler for op, or NULL. */
exec_fn exec_fast_select(const struct exec_op *op);

/* exec_flow.c: control flow and other non-ALU handlers. */
uint32_t exec_flow(struct eu_thread *t, const struct exec_op *op, uint32_t en);
void exec_wake(struct eu_thread *t, uint32_t ip);
/* exec_send.c */
uint32_t exec_send(struct eu_thread *t, const struct exec_op *op, uint32_t en);
uint32_t exec_illegal(struct eu_thread *t, const struct exec_op *op, uint32_t en);

/* exec_trace.c: the "eu" trace line of an executed instruction (opcode
 * names: eu_opcode_name, opcodes.h). */
void exec_trace_op(struct eu_thread *t, const struct exec_op *op, uint32_t en);

#endif
