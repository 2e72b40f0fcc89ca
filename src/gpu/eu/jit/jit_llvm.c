/* The code generator: a program's exec_ops as one LLVM function (jit.h).
 *
 * Shape of the function, fn(t, p, stop, stretch):
 *   dispatch: switch on the instruction index -> the block of an inline
 *             instruction, or `interp` for any other
 *   interp:   exec_jit_step (the interpreter's own step), then dispatch
 *             on the index it returns, or return
 *   I<i>:     instruction i inline. First the checks the interpreter
 *             makes before every instruction: budget (instructions <
 *             stop), no channel rejoins here (wake_at != i), and for
 *             float operations cr0 in its reset mode (what exec_fast.c's
 *             handlers check); a failed check goes to interp for i. Then
 *             the channel mask as exec_run computes it, the operation on
 *             host vectors, a store of the enabled channels, and the
 *             counters. Falls through to I<i+1> or interp.
 * Float immediates are loaded from the exec_op at run time, so that LLVM
 * cannot fold x*1.0 or x+-0.0, which the host's denormal flushing (DAZ,
 * FTZ: cr0's reset state, exec_internal.h) would not leave unchanged. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/jit/jit.h"
#include "gpu/eu/jit/jit_llvm_api.h"

/* What an inline instruction computes (the exec_fast.c handler it
 * stands for). */
enum kind {
	K_NONE, K_F_ADD, K_F_MUL, K_F_MAD, K_F_LRP, K_F_MIN, K_F_MAX,
	K_I_ADD, K_I_MUL, K_MOV, K_AND, K_OR, K_XOR, K_NOT, K_SHL, K_SHR, K_ASR,
	K_D2F, K_UD2F, K_F2D, K_CMP, K_SEL, K_PLN,
};

/* The kind of op, or K_NONE when it is left to the interpreter. Only ops
 * whose handler is exec_fast.c's are taken: that handler's selection has
 * checked the shapes (rows or scalars of 4-byte elements, destination a
 * row, no accumulator, no ip/cr0 write) and the choice below follows it. */
static enum kind classify(const struct exec_op *op)
{
	if (op->illegal || !op->fn || op->fn != exec_fast_select(op))
		return K_NONE;
	const struct eu_inst *in = &op->inst;
	if (in->pred != EU_PRED_NONE && in->pred != EU_PRED_NORMAL)
		return K_NONE;
	if (op->exec_size != 8 && op->exec_size != 16)
		return K_NONE;
	unsigned ty = op->src[0].type;
	bool flt = ty == EU_TYPE_F;
	switch (op->opcode) {
	case EU_OP_CMP:
		return K_CMP;
	case EU_OP_SEL:
		if (in->pred != EU_PRED_NONE && in->cond == EU_COND_NONE)
			return K_SEL;
		return in->cond == EU_COND_L ? K_F_MIN : K_F_MAX;
	case EU_OP_MOV:
		if (op->dst.type != ty && (flt || op->dst.type == EU_TYPE_F))
			return flt ? K_F2D : ty == EU_TYPE_D ? K_D2F : K_UD2F;
		return K_MOV;
	case EU_OP_ADD: return flt ? K_F_ADD : K_I_ADD;
	case EU_OP_MUL: return flt ? K_F_MUL : K_I_MUL;
	case EU_OP_MAD: return K_F_MAD;
	case EU_OP_LRP: return K_F_LRP;
	case EU_OP_AND: return K_AND;
	case EU_OP_OR: return K_OR;
	case EU_OP_XOR: return K_XOR;
	case EU_OP_NOT: return K_NOT;
	case EU_OP_SHL: return K_SHL;
	case EU_OP_SHR: return K_SHR;
	case EU_OP_ASR: return K_ASR;
	case EU_OP_PLN: return K_PLN;
	default: return K_NONE;   /* math: per-channel library calls */
	}
}

/* Whether the fast handler of this kind checks cr0's float mode. */
static bool checks_fpmode(enum kind k, const struct exec_op *op)
{
	switch (k) {
	case K_F_ADD: case K_F_MUL: case K_F_MAD: case K_F_LRP: case K_F_MIN:
	case K_F_MAX: case K_PLN:
	case K_D2F: case K_UD2F:   /* cr0's rounding mode */
		return true;
	case K_CMP: case K_SEL:
		return op->src[0].type == EU_TYPE_F;
	default:
		return false;
	}
}

/* The JIT: made once, kept for the process. */
static LLVMOrcLLJITRef jit;
static LLVMTargetMachineRef tm;
static bool init_ok;
static unsigned serial;

static bool fail_error(LLVMErrorRef err, const char *what)
{
	char *msg = llvm.GetErrorMessage(err);
	TRACE(TRACE_JIT, "%s: %s", what, msg);
	llvm.DisposeErrorMessage(msg);
	return false;
}

/* Measured with bench_eu (docs/eu-jit.md): this short pipeline and the
 * "less" code generator compile about a third faster than default<O2>
 * and LLVM's default level, for code as fast. */
#define CODEGEN_LEVEL LLVMCodeGenLevelLess
#define PASSES "function(sroa,early-cse<memssa>,instcombine,gvn,dse,simplifycfg)"
static void init_llvm_once(void)
{
	/* LLVM itself is loaded here, on the first compile (jit_llvm_api.h) */
	if (!llvm_api_load())
		return;
	llvm.target_info();
	llvm.target();
	llvm.target_mc();
	llvm.asm_printer();
	/* the host's CPU and features (AVX2, FMA...): one target machine for
	 * the optimisation passes, one for the JIT's code generation */
	char *triple = llvm.GetDefaultTargetTriple(), *cpu = llvm.GetHostCPUName();
	char *feat = llvm.GetHostCPUFeatures(), *why = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef cg = NULL;
	if (!llvm.GetTargetFromTriple(triple, &target, &why)) {
		tm = llvm.CreateTargetMachine(target, triple, cpu, feat, CODEGEN_LEVEL,
					     LLVMRelocDefault, LLVMCodeModelJITDefault);
		cg = llvm.CreateTargetMachine(target, triple, cpu, feat, CODEGEN_LEVEL,
					     LLVMRelocDefault, LLVMCodeModelJITDefault);
	}
	llvm.DisposeMessage(triple);
	llvm.DisposeMessage(cpu);
	llvm.DisposeMessage(feat);
	if (why)
		llvm.DisposeMessage(why);
	if (!tm || !cg)
		return;
	LLVMOrcLLJITBuilderRef b = llvm.OrcCreateLLJITBuilder();
	llvm.OrcLLJITBuilderSetJITTargetMachineBuilder(
		b, llvm.OrcJITTargetMachineBuilderCreateFromTargetMachine(cg));
	LLVMErrorRef err;
	if ((err = llvm.OrcCreateLLJIT(&jit, b))) {
		fail_error(err, "LLJIT");
		return;
	}
	/* fmaf and friends, when the host lacks the instruction */
	LLVMOrcDefinitionGeneratorRef gen;
	if ((err = llvm.OrcCreateDynamicLibrarySearchGeneratorForProcess(
		     &gen, llvm.OrcLLJITGetGlobalPrefix(jit), NULL, NULL))) {
		fail_error(err, "process symbols");
		return;
	}
	llvm.OrcJITDylibAddGenerator(llvm.OrcLLJITGetMainJITDylib(jit), gen);
	init_ok = tm != NULL;
}

static bool init_llvm(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, init_llvm_once);
	return init_ok;
}

/* Loads LLVM if it is not yet (tests and benchmarks ask before they
 * compile; the cache never asks before its first compile). */
bool exec_jit_available(void)
{
	return init_llvm();
}

/* Emission state. */
struct em {
	LLVMContextRef c;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	LLVMValueRef fn, t, p, stop, stretch;
	LLVMTypeRef i1, i8, i32, i64, f32, ptr;
	const struct exec_prog *prog;
	bool corrupt;
};

static LLVMValueRef ci32(struct em *e, uint32_t v)
{
	return llvm.ConstInt(e->i32, v, false);
}

static LLVMValueRef ci64(struct em *e, uint64_t v)
{
	return llvm.ConstInt(e->i64, v, false);
}

/* t + byte offset */
static LLVMValueRef at(struct em *e, LLVMValueRef base, size_t off)
{
	LLVMValueRef idx = ci64(e, off);
	return llvm.BuildGEP2(e->b, e->i8, base, &idx, 1, "");
}

static LLVMValueRef load(struct em *e, LLVMTypeRef ty, LLVMValueRef base, size_t off)
{
	LLVMValueRef v = llvm.BuildLoad2(e->b, ty, at(e, base, off), "");
	llvm.SetAlignment(v, 4);
	return v;
}

static void store(struct em *e, LLVMValueRef v, LLVMValueRef base, size_t off)
{
	LLVMValueRef s = llvm.BuildStore(e->b, v, at(e, base, off));
	llvm.SetAlignment(s, 4);
}

static LLVMTypeRef vec(LLVMTypeRef el, unsigned n)
{
	return llvm.VectorType(el, n);
}

static LLVMValueRef splat(struct em *e, LLVMValueRef x, unsigned n)
{
	LLVMValueRef v = llvm.BuildInsertElement(e->b, llvm.GetUndef(vec(llvm.TypeOf(x), n)),
						x, ci32(e, 0), "");
	LLVMValueRef zero = llvm.ConstNull(vec(e->i32, n));
	return llvm.BuildShuffleVector(e->b, v, llvm.GetUndef(llvm.TypeOf(v)), zero, "");
}

static LLVMValueRef splat_u32(struct em *e, uint32_t x, unsigned n)
{
	LLVMValueRef el[16];
	for (unsigned i = 0; i < n; i++)
		el[i] = ci32(e, x);
	return llvm.ConstVector(el, n);
}

static LLVMValueRef intrinsic(struct em *e, const char *name, LLVMTypeRef ty,
			      LLVMValueRef *args, unsigned nargs)
{
	unsigned id = llvm.LookupIntrinsicID(name, strlen(name));
	LLVMValueRef f = llvm.GetIntrinsicDeclaration(e->m, id, &ty, 1);
	return llvm.BuildCall2(e->b, llvm.IntrinsicGetType(e->c, id, &ty, 1), f, args,
			      nargs, "");
}

/* Source s of op as N 32-bit lanes (exec_fast.c's src32): a row loaded in
 * place, a scalar broadcast, an immediate broadcast (from the op at run
 * time when `opaque_imm`). */
static LLVMValueRef src_bits(struct em *e, const struct exec_op *op, unsigned s,
			     bool opaque_imm)
{
	const struct exec_src *src = &op->src[s];
	unsigned n = op->exec_size;
	if (src->kind == SRC_IMM) {
		if (!opaque_imm)
			return splat_u32(e, (uint32_t)src->imm[0], n);
		LLVMValueRef ops = llvm.BuildLoad2(e->b, e->ptr,
						  at(e, e->p, offsetof(struct exec_prog, ops)), "");
		size_t off = op->index * sizeof(struct exec_op) +
			     offsetof(struct exec_op, src) + s * sizeof(struct exec_src) +
			     offsetof(struct exec_src, imm);
		return splat(e, load(e, e->i32, ops, off), n);
	}
	size_t off = offsetof(struct eu_thread, regs) + src->off[0];
	if (src->scalar)
		return splat(e, load(e, e->i32, e->t, off), n);
	return load(e, vec(e->i32, n), e->t, off);
}

/* Float source with its modifiers: (bits & keep) ^ sign (exec_fast.c). */
static LLVMValueRef src_f(struct em *e, const struct exec_op *op, unsigned s)
{
	unsigned n = op->exec_size;
	LLVMValueRef x = src_bits(e, op, s, true);
	if (op->src[s].abs)
		x = llvm.BuildAnd(e->b, x, splat_u32(e, 0x7fffffffu, n), "");
	if (op->src[s].neg)
		x = llvm.BuildXor(e->b, x, splat_u32(e, 0x80000000u, n), "");
	return llvm.BuildBitCast(e->b, x, vec(e->f32, n), "");
}

/* Integer source with negate (two's complement). */
static LLVMValueRef src_i(struct em *e, const struct exec_op *op, unsigned s)
{
	LLVMValueRef x = src_bits(e, op, s, false);
	return op->src[s].neg ? llvm.BuildNeg(e->b, x, "") : x;
}

static LLVMValueRef as_bits(struct em *e, LLVMValueRef v, unsigned n)
{
	return llvm.BuildBitCast(e->b, v, vec(e->i32, n), "");
}

/* A float result whose exponent is zero keeps only its sign. */
static LLVMValueRef flush_bits(struct em *e, LLVMValueRef bits, unsigned n)
{
	LLVMValueRef ex = llvm.BuildAnd(e->b, bits, splat_u32(e, 0x7f800000u, n), "");
	LLVMValueRef z = llvm.BuildICmp(e->b, LLVMIntEQ, ex, llvm.ConstNull(vec(e->i32, n)), "");
	LLVMValueRef sg = llvm.BuildAnd(e->b, bits, splat_u32(e, 0x80000000u, n), "");
	return llvm.BuildSelect(e->b, z, sg, bits, "");
}

static LLVMValueRef fconst(struct em *e, float f, unsigned n)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return llvm.BuildBitCast(e->b, splat_u32(e, u, n), vec(e->f32, n), "");
}

/* .sat: clamp to [0, 1], NaN to 0 */
static LLVMValueRef sat(struct em *e, LLVMValueRef v, unsigned n)
{
	LLVMValueRef zero = fconst(e, 0.0f, n), one = fconst(e, 1.0f, n);
	LLVMValueRef lt1 = llvm.BuildFCmp(e->b, LLVMRealOLT, v, one, "");
	LLVMValueRef gt0 = llvm.BuildFCmp(e->b, LLVMRealOGT, v, zero, "");
	return llvm.BuildSelect(e->b, gt0, llvm.BuildSelect(e->b, lt1, v, one, ""), zero, "");
}

/* Flags f0 (low) and f1 (high) as one i64 (eu_thread_flags). */
static size_t flag_off(unsigned which)
{
	return offsetof(struct eu_thread, regs) + EU_ARF_BASE +
	       (size_t)eu_arf_slot(which ? EU_ARF_F1 : EU_ARF_F0, NULL) * EU_REG_SIZE;
}

static LLVMValueRef flags(struct em *e)
{
	LLVMValueRef f0 = llvm.BuildZExt(e->b, load(e, e->i32, e->t, flag_off(0)), e->i64, "");
	LLVMValueRef f1 = llvm.BuildZExt(e->b, load(e, e->i32, e->t, flag_off(1)), e->i64, "");
	return llvm.BuildOr(e->b, f0, llvm.BuildShl(e->b, f1, ci64(e, 32), ""), "");
}

/* exec_pred_mask for the normal predicate */
static LLVMValueRef pred_mask(struct em *e, const struct exec_op *op)
{
	const struct eu_inst *in = &op->inst;
	unsigned base = in->flag_nr * 32u + in->flag_subnr * 16u;
	LLVMValueRef f = llvm.BuildLShr(e->b, flags(e), ci64(e, base), "");
	f = llvm.BuildAnd(e->b, f, ci64(e, 0xffffffffu), "");
	f = llvm.BuildLShr(e->b, f, ci64(e, op->group), "");
	LLVMValueRef m = llvm.BuildTrunc(e->b, f, e->i32, "");
	if (in->pred_inv)
		m = llvm.BuildNot(e->b, m, "");
	return llvm.BuildAnd(e->b, m, ci32(e, op->full), "");
}

/* exec_set_flag_bits */
static void set_flag_bits(struct em *e, const struct exec_op *op, LLVMValueRef en,
			  LLVMValueRef bits)
{
	const struct eu_inst *in = &op->inst;
	unsigned base = in->flag_nr * 32u + in->flag_subnr * 16u + op->group;
	if (base >= 64)
		return;
	LLVMValueRef sh = ci64(e, base);
	LLVMValueRef mask = llvm.BuildShl(e->b, llvm.BuildZExt(e->b, en, e->i64, ""), sh, "");
	LLVMValueRef val = llvm.BuildShl(e->b, llvm.BuildZExt(e->b, bits, e->i64, ""), sh, "");
	LLVMValueRef f = flags(e);
	f = llvm.BuildOr(e->b, llvm.BuildAnd(e->b, f, llvm.BuildNot(e->b, mask, ""), ""),
			llvm.BuildAnd(e->b, val, mask, ""), "");
	store(e, llvm.BuildTrunc(e->b, f, e->i32, ""), e->t, flag_off(0));
	store(e, llvm.BuildTrunc(e->b, llvm.BuildLShr(e->b, f, ci64(e, 32), ""), e->i32, ""),
	      e->t, flag_off(1));
}

/* i32 channel bits -> <N x i1> */
static LLVMValueRef lanes(struct em *e, LLVMValueRef bits, unsigned n)
{
	LLVMValueRef x = llvm.BuildTrunc(e->b, bits, llvm.IntTypeInContext(e->c, n), "");
	return llvm.BuildBitCast(e->b, x, vec(e->i1, n), "");
}

/* <N x i1> -> i32 channel bits */
static LLVMValueRef bits_of(struct em *e, LLVMValueRef l, unsigned n)
{
	LLVMValueRef x = llvm.BuildBitCast(e->b, l, llvm.IntTypeInContext(e->c, n), "");
	return llvm.BuildZExt(e->b, x, e->i32, "");
}

/* Store the enabled channels of r (N x i32) to the destination row. */
static void store_dst(struct em *e, const struct exec_op *op, LLVMValueRef r,
		      LLVMValueRef en)
{
	unsigned n = op->exec_size;
	size_t off = offsetof(struct eu_thread, regs) + op->dst.off[0];
	LLVMValueRef old = load(e, vec(e->i32, n), e->t, off);
	store(e, llvm.BuildSelect(e->b, lanes(e, en, n), r, old, ""), e->t, off);
}

static LLVMRealPredicate fpred(unsigned cond)
{
	switch (cond) {
	case EU_COND_Z: return LLVMRealOEQ;
	case EU_COND_NZ: return LLVMRealUNE;
	case EU_COND_G: return LLVMRealOGT;
	case EU_COND_GE: return LLVMRealOGE;
	case EU_COND_L: return LLVMRealOLT;
	default: return LLVMRealOLE;
	}
}

static LLVMIntPredicate ipred(unsigned cond)
{
	switch (cond) {
	case EU_COND_Z: return LLVMIntEQ;
	case EU_COND_NZ: return LLVMIntNE;
	case EU_COND_G: return LLVMIntSGT;
	case EU_COND_GE: return LLVMIntSGE;
	case EU_COND_L: return LLVMIntSLT;
	default: return LLVMIntSLE;
	}
}

/* exec_fast.c's nan_first: a NaN result becomes the first NaN of the
 * sources a, b, c (instruction order), quieted. */
static LLVMValueRef nan_first(struct em *e, LLVMValueRef v, LLVMValueRef a, LLVMValueRef b,
			      LLVMValueRef c, unsigned n)
{
	LLVMValueRef pick = v;
	LLVMValueRef src[3] = { c, b, a };   /* innermost select: the last */
	for (unsigned i = 0; i < 3; i++)
		pick = llvm.BuildSelect(e->b, llvm.BuildFCmp(e->b, LLVMRealUNO, src[i], src[i], ""),
					src[i], pick, "");
	LLVMValueRef q = llvm.BuildOr(e->b, as_bits(e, pick, n), splat_u32(e, 0x00400000u, n), "");
	LLVMTypeRef vf = vec(e->f32, n);
	return llvm.BuildSelect(e->b, llvm.BuildFCmp(e->b, LLVMRealUNO, v, v, ""),
				llvm.BuildBitCast(e->b, q, vf, ""), v, "");
}

/* min/max as exec_fast.c: a NaN operand loses, the result flushed */
static LLVMValueRef minmax(struct em *e, LLVMValueRef x, LLVMValueRef y, bool max,
			   unsigned n)
{
	LLVMValueRef xn = llvm.BuildFCmp(e->b, LLVMRealUNO, x, x, "");
	LLVMValueRef yn = llvm.BuildFCmp(e->b, LLVMRealUNO, y, y, "");
	LLVMValueRef c = llvm.BuildFCmp(e->b, max ? LLVMRealOGE : LLVMRealOLT, x, y, "");
	LLVMValueRef v = llvm.BuildSelect(e->b, c, x, y, "");
	v = llvm.BuildSelect(e->b, yn, x, v, "");
	v = llvm.BuildSelect(e->b, xn, y, v, "");
	v = nan_first(e, v, x, y, y, n);   /* two NaNs: src0's, quieted */
	return flush_bits(e, as_bits(e, v, n), n);
}

/* F to D: toward zero, clamped, NaN -> 0 */
static LLVMValueRef f2d(struct em *e, LLVMValueRef f, unsigned n)
{
	LLVMValueRef r = llvm.BuildFPToSI(e->b, f, vec(e->i32, n), "");
	LLVMValueRef hi = llvm.BuildFCmp(e->b, LLVMRealOGE, f, fconst(e, 2147483647.0f, n), "");
	LLVMValueRef lo = llvm.BuildFCmp(e->b, LLVMRealOLE, f, fconst(e, -2147483648.0f, n), "");
	LLVMValueRef nan = llvm.BuildFCmp(e->b, LLVMRealUNO, f, f, "");
	r = llvm.BuildSelect(e->b, lo, splat_u32(e, 0x80000000u, n), r, "");
	r = llvm.BuildSelect(e->b, hi, splat_u32(e, 0x7fffffffu, n), r, "");
	return llvm.BuildSelect(e->b, nan, llvm.ConstNull(vec(e->i32, n)), r, "");
}

/* pln (exec_fast.c's f_pln): p * x + q * y + c, fused twice as
 * fma(q, y, fma(p, x, c)), with p, q, c src0's elements 0, 1, 3 (negated
 * together) and x, y interleaved per 8 channels in src1: x of channels
 * 0-7, their y, x of 8-15, their y. */
static LLVMValueRef pln(struct em *e, const struct exec_op *op)
{
	unsigned n = op->exec_size;
	size_t c0 = offsetof(struct eu_thread, regs) + op->src[0].off[0];
	size_t xy = offsetof(struct eu_thread, regs) + op->src[1].off[0];
	LLVMValueRef k[3];
	static const unsigned elem[3] = { 0, 1, 3 };
	for (unsigned i = 0; i < 3; i++) {
		LLVMValueRef b = load(e, e->i32, e->t, c0 + 4 * elem[i]);
		if (op->src[0].neg)
			b = llvm.BuildXor(e->b, b, ci32(e, 0x80000000u), "");
		k[i] = splat(e, llvm.BuildBitCast(e->b, b, e->f32, ""), n);
	}
	LLVMTypeRef v8 = vec(e->i32, 8);
	LLVMValueRef x = load(e, v8, e->t, xy), y = load(e, v8, e->t, xy + 32);
	if (n == 16) {
		LLVMValueRef idx[16];
		for (unsigned i = 0; i < 16; i++)
			idx[i] = ci32(e, i);
		LLVMValueRef cat = llvm.ConstVector(idx, 16);
		x = llvm.BuildShuffleVector(e->b, x, load(e, v8, e->t, xy + 64), cat, "");
		y = llvm.BuildShuffleVector(e->b, y, load(e, v8, e->t, xy + 96), cat, "");
	}
	LLVMTypeRef vf = vec(e->f32, n);
	x = llvm.BuildBitCast(e->b, x, vf, "");
	y = llvm.BuildBitCast(e->b, y, vf, "");
	LLVMValueRef in[3] = { k[0], x, k[2] };
	LLVMValueRef v = intrinsic(e, "llvm.fma", vf, in, 3);
	LLVMValueRef out[3] = { k[1], y, v };
	v = intrinsic(e, "llvm.fma", vf, out, 3);
	/* a NaN: the first of p, q, c, x, y (src0's, then src1's) */
	v = nan_first(e, nan_first(e, v, x, y, y, n), k[0], k[1], k[2], n);
	return op->inst.saturate ? sat(e, v, n) : v;
}

/* The operation of op for the channels in en. */
static void emit_op(struct em *e, const struct exec_op *op, enum kind k, LLVMValueRef en)
{
	unsigned n = op->exec_size;
	LLVMTypeRef vi = vec(e->i32, n);
	LLVMValueRef r = NULL, a, b, c;
	switch (k) {
	case K_F_ADD: case K_F_MUL: case K_F_MAD: case K_F_LRP: {
		a = src_f(e, op, 0);
		b = op->nsrc > 1 ? src_f(e, op, 1) : a;
		c = op->nsrc > 2 ? src_f(e, op, 2) : a;
		LLVMValueRef v;
		if (k == K_F_ADD) {
			v = llvm.BuildFAdd(e->b, a, b, "");
		} else if (k == K_F_MUL) {
			v = llvm.BuildFMul(e->b, a, b, "");
		} else if (k == K_F_MAD) {
			LLVMValueRef args[3] = { b, c, a };
			v = intrinsic(e, "llvm.fma", vec(e->f32, n), args, 3);
		} else {
			/* y * x + z * (1 - x), each step rounded */
			LLVMValueRef omx = llvm.BuildFSub(e->b, fconst(e, 1.0f, n), a, "");
			v = llvm.BuildFAdd(e->b, llvm.BuildFMul(e->b, b, a, ""),
					  llvm.BuildFMul(e->b, c, omx, ""), "");
		}
		v = nan_first(e, v, a, b, c, n);
		if (op->inst.saturate)
			v = sat(e, v, n);
		r = as_bits(e, v, n);
		if (k == K_F_ADD && e->corrupt)
			r = llvm.BuildAdd(e->b, r, splat_u32(e, 1, n), "");
		break;
	}
	case K_PLN:
		r = as_bits(e, pln(e, op), n);
		break;
	case K_F_MIN: case K_F_MAX:
		r = minmax(e, src_f(e, op, 0), src_f(e, op, 1), k == K_F_MAX, n);
		break;
	case K_F2D:
		r = f2d(e, src_f(e, op, 0), n);
		break;
	case K_D2F:
		r = as_bits(e, llvm.BuildSIToFP(e->b, src_i(e, op, 0), vec(e->f32, n), ""), n);
		break;
	case K_UD2F:
		r = as_bits(e, llvm.BuildUIToFP(e->b, src_i(e, op, 0), vec(e->f32, n), ""), n);
		break;
	case K_CMP: {
		bool flt = op->src[0].type == EU_TYPE_F;
		LLVMValueRef l;
		if (flt)
			l = llvm.BuildFCmp(e->b, fpred(op->inst.cond), src_f(e, op, 0),
					  src_f(e, op, 1), "");
		else
			l = llvm.BuildICmp(e->b, ipred(op->inst.cond), src_i(e, op, 0),
					  src_i(e, op, 1), "");
		set_flag_bits(e, op, en, bits_of(e, l, n));
		if (op->dst.kind == DST_DIRECT)
			store_dst(e, op, llvm.BuildSExt(e->b, l, vi, ""), en);
		return;
	}
	case K_SEL: {
		LLVMValueRef m = lanes(e, pred_mask(e, op), n);
		bool flt = op->src[0].type == EU_TYPE_F;
		r = llvm.BuildSelect(e->b, m, src_bits(e, op, 0, false),
				    src_bits(e, op, 1, false), "");
		if (flt)
			r = flush_bits(e, r, n);
		break;
	}
	default: {
		a = src_i(e, op, 0);
		b = op->nsrc > 1 ? src_i(e, op, 1) : a;
		LLVMValueRef m31 = splat_u32(e, 31, n);
		switch (k) {
		case K_I_ADD:
			r = llvm.BuildAdd(e->b, a, b, "");
			if (e->corrupt)
				r = llvm.BuildAdd(e->b, r, splat_u32(e, 1, n), "");
			break;
		case K_I_MUL: r = llvm.BuildMul(e->b, a, b, ""); break;
		case K_AND: r = llvm.BuildAnd(e->b, a, b, ""); break;
		case K_OR: r = llvm.BuildOr(e->b, a, b, ""); break;
		case K_XOR: r = llvm.BuildXor(e->b, a, b, ""); break;
		case K_NOT: r = llvm.BuildNot(e->b, a, ""); break;
		case K_SHL: r = llvm.BuildShl(e->b, a, llvm.BuildAnd(e->b, b, m31, ""), ""); break;
		case K_SHR: r = llvm.BuildLShr(e->b, a, llvm.BuildAnd(e->b, b, m31, ""), ""); break;
		case K_ASR: r = llvm.BuildAShr(e->b, a, llvm.BuildAnd(e->b, b, m31, ""), ""); break;
		default: r = a; break;   /* K_MOV: a raw copy */
		}
	}
	}
	store_dst(e, op, r, en);
}

#define OFF(field) offsetof(struct eu_thread, field)

/* The checks exec_run makes before instructions first..last-1 (all
 * inline, so none of them changes what is checked): the budget allows
 * them all, no channel rejoins at any of them, and cr0 is in its reset
 * float mode if one of them needs it. An i1. */
static LLVMValueRef emit_checks(struct em *e, const struct exec_prog *p, const enum kind *kinds,
				uint32_t first, uint32_t last, LLVMValueRef *ins)
{
	uint32_t len = last - first;
	*ins = load(e, e->i64, e->t, OFF(instructions));
	/* ins + len <= stop, without overflow: ins < stop && stop - ins >= len */
	LLVMValueRef ok = llvm.BuildICmp(e->b, LLVMIntULT, *ins, e->stop, "");
	LLVMValueRef room = llvm.BuildSub(e->b, e->stop, *ins, "");
	ok = llvm.BuildAnd(e->b, ok, llvm.BuildICmp(e->b, LLVMIntUGE, room, ci64(e, len), ""), "");
	LLVMValueRef wake = load(e, e->i32, e->t, OFF(wake_at));
	/* wake_at - first >= len (unsigned): not in [first, last) */
	LLVMValueRef rel = llvm.BuildSub(e->b, wake, ci32(e, first), "");
	ok = llvm.BuildAnd(e->b, ok, llvm.BuildICmp(e->b, LLVMIntUGE, rel, ci32(e, len), ""), "");
	bool fp = false;
	for (uint32_t i = first; i < last; i++)
		fp |= checks_fpmode(kinds[i], &p->ops[i]);
	if (fp) {
		LLVMValueRef cr0 = load(e, e->i32, e->t, OFF(regs) + EU_ARF_BASE +
					EXEC_CR0_SLOT * EU_REG_SIZE);
		uint32_t mask = CR0_ALT | 3u << CR0_ROUND_SHIFT | CR0_F32_DENORM;
		LLVMValueRef m = llvm.BuildAnd(e->b, cr0, ci32(e, mask), "");
		ok = llvm.BuildAnd(e->b, ok, llvm.BuildICmp(e->b, LLVMIntEQ, m, ci32(e, 0), ""), "");
	}
	return ok;
}

/* The channel mask of op as exec_run computes it, the operation, and the
 * number of enabled channels (an i64, for channel_ops). */
static LLVMValueRef emit_body(struct em *e, const struct exec_op *op, enum kind k)
{
	LLVMValueRef en;
	if (op->no_mask) {
		en = ci32(e, op->full);
	} else {
		LLVMValueRef al = llvm.BuildAnd(e->b, load(e, e->i32, e->t, OFF(active)),
					       load(e, e->i32, e->t, OFF(live)), "");
		en = llvm.BuildAnd(e->b, llvm.BuildLShr(e->b, al, ci32(e, op->group), ""),
				  ci32(e, op->full), "");
	}
	if (op->run & EXEC_RUN_PRED)
		en = llvm.BuildAnd(e->b, en, pred_mask(e, op), "");
	emit_op(e, op, k, en);
	return llvm.BuildZExt(e->b, intrinsic(e, "llvm.ctpop", e->i32, &en, 1), e->i64, "");
}

static void add_counters(struct em *e, LLVMValueRef ins, uint32_t n, LLVMValueRef cnt)
{
	store(e, llvm.BuildAdd(e->b, load(e, e->i64, e->t, OFF(channel_ops)), cnt, ""),
	      e->t, OFF(channel_ops));
	store(e, llvm.BuildAdd(e->b, ins, ci64(e, n), ""), e->t, OFF(instructions));
}

/* Go to the interpreter for instruction ip (ip_phi collects the ways). */
static void to_interp(struct em *e, LLVMBasicBlockRef interp, LLVMValueRef ip_phi, uint32_t ip)
{
	LLVMValueRef v = ci32(e, ip);
	LLVMBasicBlockRef here = llvm.GetInsertBlock(e->b);
	llvm.BuildBr(e->b, interp);
	llvm.AddIncoming(ip_phi, &v, &here, 1);
}

/* Instruction i alone (entered in the middle of a run, or when the run's
 * checks failed): its own checks, body, counters, then i+1. */
static void emit_single(struct em *e, const struct exec_prog *p, const enum kind *kinds,
			uint32_t i, LLVMBasicBlockRef *single, LLVMBasicBlockRef interp,
			LLVMValueRef ip_phi)
{
	llvm.PositionBuilderAtEnd(e->b, single[i]);
	LLVMValueRef ins;
	LLVMValueRef ok = emit_checks(e, p, kinds, i, i + 1, &ins);
	LLVMBasicBlockRef here = llvm.GetInsertBlock(e->b);
	LLVMBasicBlockRef body = llvm.AppendBasicBlockInContext(e->c, e->fn, "");
	llvm.BuildCondBr(e->b, ok, body, interp);
	LLVMValueRef vi = ci32(e, i);
	llvm.AddIncoming(ip_phi, &vi, &here, 1);
	llvm.PositionBuilderAtEnd(e->b, body);
	add_counters(e, ins, 1, emit_body(e, &p->ops[i], kinds[i]));
	if (single[i + 1])
		llvm.BuildBr(e->b, single[i + 1]);
	else
		to_interp(e, interp, ip_phi, i + 1);
}

/* A run of inline instructions [first, last): one set of checks for all,
 * then all of them with nothing in between (so LLVM keeps registers in
 * host registers across them), the counters once; on a failed check,
 * instruction by instruction. */
static void emit_run(struct em *e, const struct exec_prog *p, const enum kind *kinds,
		     uint32_t first, uint32_t last, LLVMBasicBlockRef *run,
		     LLVMBasicBlockRef *single, LLVMBasicBlockRef interp, LLVMValueRef ip_phi)
{
	llvm.PositionBuilderAtEnd(e->b, run[first]);
	LLVMValueRef ins;
	LLVMValueRef ok = emit_checks(e, p, kinds, first, last, &ins);
	LLVMBasicBlockRef body = llvm.AppendBasicBlockInContext(e->c, e->fn, "");
	llvm.BuildCondBr(e->b, ok, body, single[first]);
	llvm.PositionBuilderAtEnd(e->b, body);
	LLVMValueRef cnt = ci64(e, 0);
	for (uint32_t i = first; i < last; i++)
		cnt = llvm.BuildAdd(e->b, cnt, emit_body(e, &p->ops[i], kinds[i]), "");
	add_counters(e, ins, last - first, cnt);
	if (run[last])
		llvm.BuildBr(e->b, run[last]);
	else
		to_interp(e, interp, ip_phi, last);
}

static void build(struct em *e, const struct exec_prog *p, const char *name,
		  size_t *inlined)
{
	LLVMTypeRef params[4] = { e->ptr, e->ptr, e->i64, e->i32 };
	LLVMTypeRef fty = llvm.FunctionType(llvm.VoidTypeInContext(e->c), params, 4, false);
	e->fn = llvm.AddFunction(e->m, name, fty);
	e->t = llvm.GetParam(e->fn, 0);
	e->p = llvm.GetParam(e->fn, 1);
	e->stop = llvm.GetParam(e->fn, 2);
	e->stretch = llvm.GetParam(e->fn, 3);
	/* the thread and the program do not overlap */
	unsigned noalias = llvm.GetEnumAttributeKindForName("noalias", 7);
	llvm.AddAttributeAtIndex(e->fn, 1, llvm.CreateEnumAttribute(e->c, noalias, 0));

	LLVMBasicBlockRef entry = llvm.AppendBasicBlockInContext(e->c, e->fn, "entry");
	LLVMBasicBlockRef dispatch = llvm.AppendBasicBlockInContext(e->c, e->fn, "dispatch");
	LLVMBasicBlockRef interp = llvm.AppendBasicBlockInContext(e->c, e->fn, "interp");
	LLVMBasicBlockRef ret = llvm.AppendBasicBlockInContext(e->c, e->fn, "ret");
	size_t n = p->count;
	/* single[i]: instruction i alone; run[i]: the run starting at i */
	LLVMBasicBlockRef *single = calloc(n + 1, sizeof(*single));
	LLVMBasicBlockRef *run = calloc(n + 1, sizeof(*run));
	enum kind *kinds = calloc(n + 1, sizeof(*kinds));
	/* runs start after an instruction left to the interpreter and where
	 * branches land (their targets and the instruction after: a loop's
	 * start, the code after an endif or while) */
	bool *target = calloc(n + 2, sizeof(*target));
	for (size_t i = 0; i < n; i++) {
		const struct exec_op *op = &p->ops[i];
		uint32_t tg[2] = { op->target_jip, op->target_uip };
		for (unsigned k = 0; k < 2; k++)
			if (tg[k] < n)
				target[tg[k]] = target[tg[k] + 1] = true;
	}
	for (size_t i = 0; i < n; i++) {
		kinds[i] = classify(&p->ops[i]);
		if (kinds[i] != K_NONE) {
			single[i] = llvm.AppendBasicBlockInContext(e->c, e->fn, "");
			if (!i || kinds[i - 1] == K_NONE || target[i])
				run[i] = llvm.AppendBasicBlockInContext(e->c, e->fn, "");
			(*inlined)++;
		}
	}
	free(target);

	llvm.PositionBuilderAtEnd(e->b, entry);
	LLVMValueRef ip0 = load(e, e->i32, e->t, OFF(ip));
	llvm.BuildBr(e->b, dispatch);

	llvm.PositionBuilderAtEnd(e->b, interp);
	LLVMValueRef ip_phi = llvm.BuildPhi(e->b, e->i32, "ip");
	LLVMTypeRef sargs[5] = { e->ptr, e->ptr, e->i32, e->i64, e->i32 };
	LLVMTypeRef sty = llvm.FunctionType(e->i32, sargs, 5, false);
	LLVMValueRef sfn = llvm.ConstIntToPtr(ci64(e, (uint64_t)(uintptr_t)exec_jit_step), e->ptr);
	LLVMValueRef cargs[5] = { e->t, e->p, ip_phi, e->stop, e->stretch };
	LLVMValueRef next = llvm.BuildCall2(e->b, sty, sfn, cargs, 5, "");
	LLVMValueRef done = llvm.BuildICmp(e->b, LLVMIntEQ, next, ci32(e, EXEC_JIT_EXIT), "");
	llvm.BuildCondBr(e->b, done, ret, dispatch);

	llvm.PositionBuilderAtEnd(e->b, dispatch);
	LLVMValueRef d_phi = llvm.BuildPhi(e->b, e->i32, "to");
	LLVMValueRef in_v[2] = { ip0, next };
	LLVMBasicBlockRef in_b[2] = { entry, interp };
	llvm.AddIncoming(d_phi, in_v, in_b, 2);
	LLVMValueRef sw = llvm.BuildSwitch(e->b, d_phi, interp, (unsigned)*inlined);
	llvm.AddIncoming(ip_phi, &d_phi, &dispatch, 1);
	for (size_t i = 0; i < n; i++)
		if (single[i])
			llvm.AddCase(sw, ci32(e, (uint32_t)i), run[i] ? run[i] : single[i]);

	llvm.PositionBuilderAtEnd(e->b, ret);
	llvm.BuildRetVoid(e->b);

	for (uint32_t i = 0; i < n; i++) {
		if (!single[i])
			continue;
		emit_single(e, p, kinds, i, single, interp, ip_phi);
		if (run[i]) {
			uint32_t last = i + 1;
			while (last < n && single[last] && !run[last])
				last++;
			emit_run(e, p, kinds, i, last, run, single, interp, ip_phi);
		}
	}
	free(single);
	free(run);
	free(kinds);
}

exec_jit_fn exec_jit_compile(const struct exec_prog *p, bool corrupt, size_t *inlined,
			     bool *no_generator)
{
	*inlined = 0;
	*no_generator = false;
	/* nothing to inline: the interpreter alone is as fast */
	size_t any = 0;
	for (size_t i = 0; i < p->count && !any; i++)
		any = classify(&p->ops[i]) != K_NONE;
	if (!any)
		return NULL;
	if (!init_llvm()) {
		*no_generator = true;
		return NULL;
	}
	char name[32];
	snprintf(name, sizeof(name), "eu_prog_%u", serial++);
	LLVMOrcThreadSafeContextRef tsc = llvm.OrcCreateNewThreadSafeContext();
	struct em e = { .prog = p, .corrupt = corrupt };
	e.c = llvm.OrcThreadSafeContextGetContext(tsc);
	e.m = llvm.ModuleCreateWithNameInContext(name, e.c);
	llvm.SetTarget(e.m, llvm.OrcLLJITGetTripleString(jit));
	llvm.SetDataLayout(e.m, llvm.OrcLLJITGetDataLayoutStr(jit));
	e.b = llvm.CreateBuilderInContext(e.c);
	e.i1 = llvm.Int1TypeInContext(e.c);
	e.i8 = llvm.Int8TypeInContext(e.c);
	e.i32 = llvm.Int32TypeInContext(e.c);
	e.i64 = llvm.Int64TypeInContext(e.c);
	e.f32 = llvm.FloatTypeInContext(e.c);
	e.ptr = llvm.PointerType(e.i8, 0);
	build(&e, p, name, inlined);
	llvm.DisposeBuilder(e.b);
	char *msg = NULL;
	if (llvm.VerifyModule(e.m, LLVMReturnStatusAction, &msg)) {
		TRACE(TRACE_JIT, "generated code does not verify: %s", msg);
		fprintf(stderr, "gtsim jit: generated code does not verify: %s\n", msg);
		llvm.DisposeMessage(msg);
		llvm.DisposeModule(e.m);
		llvm.OrcDisposeThreadSafeContext(tsc);
		return NULL;
	}
	llvm.DisposeMessage(msg);
	LLVMPassBuilderOptionsRef po = llvm.CreatePassBuilderOptions();
	LLVMErrorRef err = llvm.RunPasses(e.m, PASSES, tm, po);
	llvm.DisposePassBuilderOptions(po);
	if (err) {
		fail_error(err, "passes");
		llvm.DisposeModule(e.m);
		llvm.OrcDisposeThreadSafeContext(tsc);
		return NULL;
	}
	LLVMOrcThreadSafeModuleRef tsm = llvm.OrcCreateNewThreadSafeModule(e.m, tsc);
	llvm.OrcDisposeThreadSafeContext(tsc);
	if ((err = llvm.OrcLLJITAddLLVMIRModule(jit, llvm.OrcLLJITGetMainJITDylib(jit), tsm))) {
		llvm.OrcDisposeThreadSafeModule(tsm);
		fail_error(err, "add module");
		return NULL;
	}
	LLVMOrcExecutorAddress addr = 0;
	if ((err = llvm.OrcLLJITLookup(jit, &addr, name))) {
		fail_error(err, "lookup");
		return NULL;
	}
	exec_jit_fn fn;
	uintptr_t a = (uintptr_t)addr;
	memcpy(&fn, &a, sizeof(fn));
	return fn;
}
