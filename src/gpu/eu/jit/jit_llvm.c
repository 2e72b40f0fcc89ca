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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "common/trace.h"
#include "gpu/eu/jit/jit.h"

/* What an inline instruction computes (the exec_fast.c handler it
 * stands for). */
enum kind {
	K_NONE, K_F_ADD, K_F_MUL, K_F_MAD, K_F_LRP, K_F_MIN, K_F_MAX,
	K_I_ADD, K_I_MUL, K_MOV, K_AND, K_OR, K_XOR, K_NOT, K_SHL, K_SHR, K_ASR,
	K_D2F, K_UD2F, K_F2D, K_CMP, K_SEL,
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
	default: return K_NONE;   /* pln, math: per-channel library calls */
	}
}

/* Whether the fast handler of this kind checks cr0's float mode. */
static bool checks_fpmode(enum kind k, const struct exec_op *op)
{
	switch (k) {
	case K_F_ADD: case K_F_MUL: case K_F_MAD: case K_F_LRP: case K_F_MIN:
	case K_F_MAX:
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
static bool init_done, init_ok;
static unsigned serial;

static bool fail_error(LLVMErrorRef err, const char *what)
{
	char *msg = LLVMGetErrorMessage(err);
	TRACE(TRACE_EU, "jit: %s: %s", what, msg);
	LLVMDisposeErrorMessage(msg);
	return false;
}

/* Measured with bench_eu (docs/eu-jit.md): this short pipeline and the
 * "less" code generator compile about a third faster than default<O2>
 * and LLVM's default level, for code as fast. */
#define CODEGEN_LEVEL LLVMCodeGenLevelLess
#define PASSES "function(sroa,early-cse<memssa>,instcombine,gvn,dse,simplifycfg)"
static bool init_llvm(void)
{
	if (init_done)
		return init_ok;
	init_done = true;
	if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
		return false;
	/* the host's CPU and features (AVX2, FMA...): one target machine for
	 * the optimisation passes, one for the JIT's code generation */
	char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName();
	char *feat = LLVMGetHostCPUFeatures(), *why = NULL;
	LLVMTargetRef target;
	LLVMTargetMachineRef cg = NULL;
	if (!LLVMGetTargetFromTriple(triple, &target, &why)) {
		tm = LLVMCreateTargetMachine(target, triple, cpu, feat, CODEGEN_LEVEL,
					     LLVMRelocDefault, LLVMCodeModelJITDefault);
		cg = LLVMCreateTargetMachine(target, triple, cpu, feat, CODEGEN_LEVEL,
					     LLVMRelocDefault, LLVMCodeModelJITDefault);
	}
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(feat);
	if (why)
		LLVMDisposeMessage(why);
	if (!tm || !cg)
		return false;
	LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
		b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(cg));
	LLVMErrorRef err;
	if ((err = LLVMOrcCreateLLJIT(&jit, b)))
		return fail_error(err, "LLJIT");
	/* fmaf and friends, when the host lacks the instruction */
	LLVMOrcDefinitionGeneratorRef gen;
	if ((err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
		     &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL)))
		return fail_error(err, "process symbols");
	LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), gen);
	init_ok = tm != NULL;
	return init_ok;
}

bool exec_jit_available(void)
{
	return true;
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
	return LLVMConstInt(e->i32, v, false);
}

static LLVMValueRef ci64(struct em *e, uint64_t v)
{
	return LLVMConstInt(e->i64, v, false);
}

/* t + byte offset */
static LLVMValueRef at(struct em *e, LLVMValueRef base, size_t off)
{
	LLVMValueRef idx = ci64(e, off);
	return LLVMBuildGEP2(e->b, e->i8, base, &idx, 1, "");
}

static LLVMValueRef load(struct em *e, LLVMTypeRef ty, LLVMValueRef base, size_t off)
{
	LLVMValueRef v = LLVMBuildLoad2(e->b, ty, at(e, base, off), "");
	LLVMSetAlignment(v, 4);
	return v;
}

static void store(struct em *e, LLVMValueRef v, LLVMValueRef base, size_t off)
{
	LLVMValueRef s = LLVMBuildStore(e->b, v, at(e, base, off));
	LLVMSetAlignment(s, 4);
}

static LLVMTypeRef vec(LLVMTypeRef el, unsigned n)
{
	return LLVMVectorType(el, n);
}

static LLVMValueRef splat(struct em *e, LLVMValueRef x, unsigned n)
{
	LLVMValueRef v = LLVMBuildInsertElement(e->b, LLVMGetUndef(vec(LLVMTypeOf(x), n)),
						x, ci32(e, 0), "");
	LLVMValueRef zero = LLVMConstNull(vec(e->i32, n));
	return LLVMBuildShuffleVector(e->b, v, LLVMGetUndef(LLVMTypeOf(v)), zero, "");
}

static LLVMValueRef splat_u32(struct em *e, uint32_t x, unsigned n)
{
	LLVMValueRef el[16];
	for (unsigned i = 0; i < n; i++)
		el[i] = ci32(e, x);
	return LLVMConstVector(el, n);
}

static LLVMValueRef intrinsic(struct em *e, const char *name, LLVMTypeRef ty,
			      LLVMValueRef *args, unsigned nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(e->m, id, &ty, 1);
	return LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->c, id, &ty, 1), f, args,
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
		LLVMValueRef ops = LLVMBuildLoad2(e->b, e->ptr,
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
		x = LLVMBuildAnd(e->b, x, splat_u32(e, 0x7fffffffu, n), "");
	if (op->src[s].neg)
		x = LLVMBuildXor(e->b, x, splat_u32(e, 0x80000000u, n), "");
	return LLVMBuildBitCast(e->b, x, vec(e->f32, n), "");
}

/* Integer source with negate (two's complement). */
static LLVMValueRef src_i(struct em *e, const struct exec_op *op, unsigned s)
{
	LLVMValueRef x = src_bits(e, op, s, false);
	return op->src[s].neg ? LLVMBuildNeg(e->b, x, "") : x;
}

static LLVMValueRef as_bits(struct em *e, LLVMValueRef v, unsigned n)
{
	return LLVMBuildBitCast(e->b, v, vec(e->i32, n), "");
}

/* A float result whose exponent is zero keeps only its sign. */
static LLVMValueRef flush_bits(struct em *e, LLVMValueRef bits, unsigned n)
{
	LLVMValueRef ex = LLVMBuildAnd(e->b, bits, splat_u32(e, 0x7f800000u, n), "");
	LLVMValueRef z = LLVMBuildICmp(e->b, LLVMIntEQ, ex, LLVMConstNull(vec(e->i32, n)), "");
	LLVMValueRef sg = LLVMBuildAnd(e->b, bits, splat_u32(e, 0x80000000u, n), "");
	return LLVMBuildSelect(e->b, z, sg, bits, "");
}

static LLVMValueRef fconst(struct em *e, float f, unsigned n)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return LLVMBuildBitCast(e->b, splat_u32(e, u, n), vec(e->f32, n), "");
}

/* .sat: clamp to [0, 1], NaN to 0 */
static LLVMValueRef sat(struct em *e, LLVMValueRef v, unsigned n)
{
	LLVMValueRef zero = fconst(e, 0.0f, n), one = fconst(e, 1.0f, n);
	LLVMValueRef lt1 = LLVMBuildFCmp(e->b, LLVMRealOLT, v, one, "");
	LLVMValueRef gt0 = LLVMBuildFCmp(e->b, LLVMRealOGT, v, zero, "");
	return LLVMBuildSelect(e->b, gt0, LLVMBuildSelect(e->b, lt1, v, one, ""), zero, "");
}

/* Flags f0 (low) and f1 (high) as one i64 (eu_thread_flags). */
static size_t flag_off(unsigned which)
{
	return offsetof(struct eu_thread, regs) + EU_ARF_BASE +
	       (size_t)eu_arf_slot(which ? EU_ARF_F1 : EU_ARF_F0, NULL) * EU_REG_SIZE;
}

static LLVMValueRef flags(struct em *e)
{
	LLVMValueRef f0 = LLVMBuildZExt(e->b, load(e, e->i32, e->t, flag_off(0)), e->i64, "");
	LLVMValueRef f1 = LLVMBuildZExt(e->b, load(e, e->i32, e->t, flag_off(1)), e->i64, "");
	return LLVMBuildOr(e->b, f0, LLVMBuildShl(e->b, f1, ci64(e, 32), ""), "");
}

/* exec_pred_mask for the normal predicate */
static LLVMValueRef pred_mask(struct em *e, const struct exec_op *op)
{
	const struct eu_inst *in = &op->inst;
	unsigned base = in->flag_nr * 32u + in->flag_subnr * 16u;
	LLVMValueRef f = LLVMBuildLShr(e->b, flags(e), ci64(e, base), "");
	f = LLVMBuildAnd(e->b, f, ci64(e, 0xffffffffu), "");
	f = LLVMBuildLShr(e->b, f, ci64(e, op->group), "");
	LLVMValueRef m = LLVMBuildTrunc(e->b, f, e->i32, "");
	if (in->pred_inv)
		m = LLVMBuildNot(e->b, m, "");
	return LLVMBuildAnd(e->b, m, ci32(e, op->full), "");
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
	LLVMValueRef mask = LLVMBuildShl(e->b, LLVMBuildZExt(e->b, en, e->i64, ""), sh, "");
	LLVMValueRef val = LLVMBuildShl(e->b, LLVMBuildZExt(e->b, bits, e->i64, ""), sh, "");
	LLVMValueRef f = flags(e);
	f = LLVMBuildOr(e->b, LLVMBuildAnd(e->b, f, LLVMBuildNot(e->b, mask, ""), ""),
			LLVMBuildAnd(e->b, val, mask, ""), "");
	store(e, LLVMBuildTrunc(e->b, f, e->i32, ""), e->t, flag_off(0));
	store(e, LLVMBuildTrunc(e->b, LLVMBuildLShr(e->b, f, ci64(e, 32), ""), e->i32, ""),
	      e->t, flag_off(1));
}

/* i32 channel bits -> <N x i1> */
static LLVMValueRef lanes(struct em *e, LLVMValueRef bits, unsigned n)
{
	LLVMValueRef x = LLVMBuildTrunc(e->b, bits, LLVMIntTypeInContext(e->c, n), "");
	return LLVMBuildBitCast(e->b, x, vec(e->i1, n), "");
}

/* <N x i1> -> i32 channel bits */
static LLVMValueRef bits_of(struct em *e, LLVMValueRef l, unsigned n)
{
	LLVMValueRef x = LLVMBuildBitCast(e->b, l, LLVMIntTypeInContext(e->c, n), "");
	return LLVMBuildZExt(e->b, x, e->i32, "");
}

/* Store the enabled channels of r (N x i32) to the destination row. */
static void store_dst(struct em *e, const struct exec_op *op, LLVMValueRef r,
		      LLVMValueRef en)
{
	unsigned n = op->exec_size;
	size_t off = offsetof(struct eu_thread, regs) + op->dst.off[0];
	LLVMValueRef old = load(e, vec(e->i32, n), e->t, off);
	store(e, LLVMBuildSelect(e->b, lanes(e, en, n), r, old, ""), e->t, off);
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

/* min/max as exec_fast.c: a NaN operand loses, the result flushed */
static LLVMValueRef minmax(struct em *e, LLVMValueRef x, LLVMValueRef y, bool max,
			   unsigned n)
{
	LLVMValueRef xn = LLVMBuildFCmp(e->b, LLVMRealUNO, x, x, "");
	LLVMValueRef yn = LLVMBuildFCmp(e->b, LLVMRealUNO, y, y, "");
	LLVMValueRef c = LLVMBuildFCmp(e->b, max ? LLVMRealOGE : LLVMRealOLT, x, y, "");
	LLVMValueRef v = LLVMBuildSelect(e->b, c, x, y, "");
	v = LLVMBuildSelect(e->b, yn, x, v, "");
	v = LLVMBuildSelect(e->b, xn, y, v, "");
	return flush_bits(e, as_bits(e, v, n), n);
}

/* F to D: toward zero, clamped, NaN -> 0 */
static LLVMValueRef f2d(struct em *e, LLVMValueRef f, unsigned n)
{
	LLVMValueRef r = LLVMBuildFPToSI(e->b, f, vec(e->i32, n), "");
	LLVMValueRef hi = LLVMBuildFCmp(e->b, LLVMRealOGE, f, fconst(e, 2147483647.0f, n), "");
	LLVMValueRef lo = LLVMBuildFCmp(e->b, LLVMRealOLE, f, fconst(e, -2147483648.0f, n), "");
	LLVMValueRef nan = LLVMBuildFCmp(e->b, LLVMRealUNO, f, f, "");
	r = LLVMBuildSelect(e->b, lo, splat_u32(e, 0x80000000u, n), r, "");
	r = LLVMBuildSelect(e->b, hi, splat_u32(e, 0x7fffffffu, n), r, "");
	return LLVMBuildSelect(e->b, nan, LLVMConstNull(vec(e->i32, n)), r, "");
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
			v = LLVMBuildFAdd(e->b, a, b, "");
		} else if (k == K_F_MUL) {
			v = LLVMBuildFMul(e->b, a, b, "");
		} else if (k == K_F_MAD) {
			LLVMValueRef args[3] = { b, c, a };
			v = intrinsic(e, "llvm.fma", vec(e->f32, n), args, 3);
		} else {
			/* y * x + z * (1 - x), each step rounded */
			LLVMValueRef omx = LLVMBuildFSub(e->b, fconst(e, 1.0f, n), a, "");
			v = LLVMBuildFAdd(e->b, LLVMBuildFMul(e->b, b, a, ""),
					  LLVMBuildFMul(e->b, c, omx, ""), "");
		}
		if (op->inst.saturate)
			v = sat(e, v, n);
		r = as_bits(e, v, n);
		if (k == K_F_ADD && e->corrupt)
			r = LLVMBuildAdd(e->b, r, splat_u32(e, 1, n), "");
		break;
	}
	case K_F_MIN: case K_F_MAX:
		r = minmax(e, src_f(e, op, 0), src_f(e, op, 1), k == K_F_MAX, n);
		break;
	case K_F2D:
		r = f2d(e, src_f(e, op, 0), n);
		break;
	case K_D2F:
		r = as_bits(e, LLVMBuildSIToFP(e->b, src_i(e, op, 0), vec(e->f32, n), ""), n);
		break;
	case K_UD2F:
		r = as_bits(e, LLVMBuildUIToFP(e->b, src_i(e, op, 0), vec(e->f32, n), ""), n);
		break;
	case K_CMP: {
		bool flt = op->src[0].type == EU_TYPE_F;
		LLVMValueRef l;
		if (flt)
			l = LLVMBuildFCmp(e->b, fpred(op->inst.cond), src_f(e, op, 0),
					  src_f(e, op, 1), "");
		else
			l = LLVMBuildICmp(e->b, ipred(op->inst.cond), src_i(e, op, 0),
					  src_i(e, op, 1), "");
		set_flag_bits(e, op, en, bits_of(e, l, n));
		if (op->dst.kind == DST_DIRECT)
			store_dst(e, op, LLVMBuildSExt(e->b, l, vi, ""), en);
		return;
	}
	case K_SEL: {
		LLVMValueRef m = lanes(e, pred_mask(e, op), n);
		bool flt = op->src[0].type == EU_TYPE_F;
		r = LLVMBuildSelect(e->b, m, src_bits(e, op, 0, false),
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
			r = LLVMBuildAdd(e->b, a, b, "");
			if (e->corrupt)
				r = LLVMBuildAdd(e->b, r, splat_u32(e, 1, n), "");
			break;
		case K_I_MUL: r = LLVMBuildMul(e->b, a, b, ""); break;
		case K_AND: r = LLVMBuildAnd(e->b, a, b, ""); break;
		case K_OR: r = LLVMBuildOr(e->b, a, b, ""); break;
		case K_XOR: r = LLVMBuildXor(e->b, a, b, ""); break;
		case K_NOT: r = LLVMBuildNot(e->b, a, ""); break;
		case K_SHL: r = LLVMBuildShl(e->b, a, LLVMBuildAnd(e->b, b, m31, ""), ""); break;
		case K_SHR: r = LLVMBuildLShr(e->b, a, LLVMBuildAnd(e->b, b, m31, ""), ""); break;
		case K_ASR: r = LLVMBuildAShr(e->b, a, LLVMBuildAnd(e->b, b, m31, ""), ""); break;
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
	LLVMValueRef ok = LLVMBuildICmp(e->b, LLVMIntULT, *ins, e->stop, "");
	LLVMValueRef room = LLVMBuildSub(e->b, e->stop, *ins, "");
	ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntUGE, room, ci64(e, len), ""), "");
	LLVMValueRef wake = load(e, e->i32, e->t, OFF(wake_at));
	/* wake_at - first >= len (unsigned): not in [first, last) */
	LLVMValueRef rel = LLVMBuildSub(e->b, wake, ci32(e, first), "");
	ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntUGE, rel, ci32(e, len), ""), "");
	bool fp = false;
	for (uint32_t i = first; i < last; i++)
		fp |= checks_fpmode(kinds[i], &p->ops[i]);
	if (fp) {
		LLVMValueRef cr0 = load(e, e->i32, e->t, OFF(regs) + EU_ARF_BASE +
					EXEC_CR0_SLOT * EU_REG_SIZE);
		uint32_t mask = CR0_ALT | 3u << CR0_ROUND_SHIFT | CR0_F32_DENORM;
		LLVMValueRef m = LLVMBuildAnd(e->b, cr0, ci32(e, mask), "");
		ok = LLVMBuildAnd(e->b, ok, LLVMBuildICmp(e->b, LLVMIntEQ, m, ci32(e, 0), ""), "");
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
		LLVMValueRef al = LLVMBuildAnd(e->b, load(e, e->i32, e->t, OFF(active)),
					       load(e, e->i32, e->t, OFF(live)), "");
		en = LLVMBuildAnd(e->b, LLVMBuildLShr(e->b, al, ci32(e, op->group), ""),
				  ci32(e, op->full), "");
	}
	if (op->run & EXEC_RUN_PRED)
		en = LLVMBuildAnd(e->b, en, pred_mask(e, op), "");
	emit_op(e, op, k, en);
	return LLVMBuildZExt(e->b, intrinsic(e, "llvm.ctpop", e->i32, &en, 1), e->i64, "");
}

static void add_counters(struct em *e, LLVMValueRef ins, uint32_t n, LLVMValueRef cnt)
{
	store(e, LLVMBuildAdd(e->b, load(e, e->i64, e->t, OFF(channel_ops)), cnt, ""),
	      e->t, OFF(channel_ops));
	store(e, LLVMBuildAdd(e->b, ins, ci64(e, n), ""), e->t, OFF(instructions));
}

/* Go to the interpreter for instruction ip (ip_phi collects the ways). */
static void to_interp(struct em *e, LLVMBasicBlockRef interp, LLVMValueRef ip_phi, uint32_t ip)
{
	LLVMValueRef v = ci32(e, ip);
	LLVMBasicBlockRef here = LLVMGetInsertBlock(e->b);
	LLVMBuildBr(e->b, interp);
	LLVMAddIncoming(ip_phi, &v, &here, 1);
}

/* Instruction i alone (entered in the middle of a run, or when the run's
 * checks failed): its own checks, body, counters, then i+1. */
static void emit_single(struct em *e, const struct exec_prog *p, const enum kind *kinds,
			uint32_t i, LLVMBasicBlockRef *single, LLVMBasicBlockRef interp,
			LLVMValueRef ip_phi)
{
	LLVMPositionBuilderAtEnd(e->b, single[i]);
	LLVMValueRef ins;
	LLVMValueRef ok = emit_checks(e, p, kinds, i, i + 1, &ins);
	LLVMBasicBlockRef here = LLVMGetInsertBlock(e->b);
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(e->c, e->fn, "");
	LLVMBuildCondBr(e->b, ok, body, interp);
	LLVMValueRef vi = ci32(e, i);
	LLVMAddIncoming(ip_phi, &vi, &here, 1);
	LLVMPositionBuilderAtEnd(e->b, body);
	add_counters(e, ins, 1, emit_body(e, &p->ops[i], kinds[i]));
	if (single[i + 1])
		LLVMBuildBr(e->b, single[i + 1]);
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
	LLVMPositionBuilderAtEnd(e->b, run[first]);
	LLVMValueRef ins;
	LLVMValueRef ok = emit_checks(e, p, kinds, first, last, &ins);
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(e->c, e->fn, "");
	LLVMBuildCondBr(e->b, ok, body, single[first]);
	LLVMPositionBuilderAtEnd(e->b, body);
	LLVMValueRef cnt = ci64(e, 0);
	for (uint32_t i = first; i < last; i++)
		cnt = LLVMBuildAdd(e->b, cnt, emit_body(e, &p->ops[i], kinds[i]), "");
	add_counters(e, ins, last - first, cnt);
	if (run[last])
		LLVMBuildBr(e->b, run[last]);
	else
		to_interp(e, interp, ip_phi, last);
}

static void build(struct em *e, const struct exec_prog *p, const char *name,
		  size_t *inlined)
{
	LLVMTypeRef params[4] = { e->ptr, e->ptr, e->i64, e->i32 };
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(e->c), params, 4, false);
	e->fn = LLVMAddFunction(e->m, name, fty);
	e->t = LLVMGetParam(e->fn, 0);
	e->p = LLVMGetParam(e->fn, 1);
	e->stop = LLVMGetParam(e->fn, 2);
	e->stretch = LLVMGetParam(e->fn, 3);
	/* the thread and the program do not overlap */
	unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
	LLVMAddAttributeAtIndex(e->fn, 1, LLVMCreateEnumAttribute(e->c, noalias, 0));

	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(e->c, e->fn, "entry");
	LLVMBasicBlockRef dispatch = LLVMAppendBasicBlockInContext(e->c, e->fn, "dispatch");
	LLVMBasicBlockRef interp = LLVMAppendBasicBlockInContext(e->c, e->fn, "interp");
	LLVMBasicBlockRef ret = LLVMAppendBasicBlockInContext(e->c, e->fn, "ret");
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
			single[i] = LLVMAppendBasicBlockInContext(e->c, e->fn, "");
			if (!i || kinds[i - 1] == K_NONE || target[i])
				run[i] = LLVMAppendBasicBlockInContext(e->c, e->fn, "");
			(*inlined)++;
		}
	}
	free(target);

	LLVMPositionBuilderAtEnd(e->b, entry);
	LLVMValueRef ip0 = load(e, e->i32, e->t, OFF(ip));
	LLVMBuildBr(e->b, dispatch);

	LLVMPositionBuilderAtEnd(e->b, interp);
	LLVMValueRef ip_phi = LLVMBuildPhi(e->b, e->i32, "ip");
	LLVMTypeRef sargs[5] = { e->ptr, e->ptr, e->i32, e->i64, e->i32 };
	LLVMTypeRef sty = LLVMFunctionType(e->i32, sargs, 5, false);
	LLVMValueRef sfn = LLVMConstIntToPtr(ci64(e, (uint64_t)(uintptr_t)exec_jit_step), e->ptr);
	LLVMValueRef cargs[5] = { e->t, e->p, ip_phi, e->stop, e->stretch };
	LLVMValueRef next = LLVMBuildCall2(e->b, sty, sfn, cargs, 5, "");
	LLVMValueRef done = LLVMBuildICmp(e->b, LLVMIntEQ, next, ci32(e, EXEC_JIT_EXIT), "");
	LLVMBuildCondBr(e->b, done, ret, dispatch);

	LLVMPositionBuilderAtEnd(e->b, dispatch);
	LLVMValueRef d_phi = LLVMBuildPhi(e->b, e->i32, "to");
	LLVMValueRef in_v[2] = { ip0, next };
	LLVMBasicBlockRef in_b[2] = { entry, interp };
	LLVMAddIncoming(d_phi, in_v, in_b, 2);
	LLVMValueRef sw = LLVMBuildSwitch(e->b, d_phi, interp, (unsigned)*inlined);
	LLVMAddIncoming(ip_phi, &d_phi, &dispatch, 1);
	for (size_t i = 0; i < n; i++)
		if (single[i])
			LLVMAddCase(sw, ci32(e, (uint32_t)i), run[i] ? run[i] : single[i]);

	LLVMPositionBuilderAtEnd(e->b, ret);
	LLVMBuildRetVoid(e->b);

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

exec_jit_fn exec_jit_compile(const struct exec_prog *p, bool corrupt, size_t *inlined)
{
	*inlined = 0;
	/* nothing to inline: the interpreter alone is as fast */
	size_t any = 0;
	for (size_t i = 0; i < p->count && !any; i++)
		any = classify(&p->ops[i]) != K_NONE;
	if (!any || !init_llvm())
		return NULL;
	char name[32];
	snprintf(name, sizeof(name), "eu_prog_%u", serial++);
	LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
	struct em e = { .prog = p, .corrupt = corrupt };
	e.c = LLVMOrcThreadSafeContextGetContext(tsc);
	e.m = LLVMModuleCreateWithNameInContext(name, e.c);
	LLVMSetTarget(e.m, LLVMOrcLLJITGetTripleString(jit));
	LLVMSetDataLayout(e.m, LLVMOrcLLJITGetDataLayoutStr(jit));
	e.b = LLVMCreateBuilderInContext(e.c);
	e.i1 = LLVMInt1TypeInContext(e.c);
	e.i8 = LLVMInt8TypeInContext(e.c);
	e.i32 = LLVMInt32TypeInContext(e.c);
	e.i64 = LLVMInt64TypeInContext(e.c);
	e.f32 = LLVMFloatTypeInContext(e.c);
	e.ptr = LLVMPointerType(e.i8, 0);
	build(&e, p, name, inlined);
	LLVMDisposeBuilder(e.b);
	char *msg = NULL;
	if (LLVMVerifyModule(e.m, LLVMReturnStatusAction, &msg)) {
		TRACE(TRACE_EU, "jit: generated code does not verify: %s", msg);
		fprintf(stderr, "gtsim jit: generated code does not verify: %s\n", msg);
		LLVMDisposeMessage(msg);
		LLVMDisposeModule(e.m);
		LLVMOrcDisposeThreadSafeContext(tsc);
		return NULL;
	}
	LLVMDisposeMessage(msg);
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef err = LLVMRunPasses(e.m, PASSES, tm, po);
	LLVMDisposePassBuilderOptions(po);
	if (err) {
		fail_error(err, "passes");
		LLVMDisposeModule(e.m);
		LLVMOrcDisposeThreadSafeContext(tsc);
		return NULL;
	}
	LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(e.m, tsc);
	LLVMOrcDisposeThreadSafeContext(tsc);
	if ((err = LLVMOrcLLJITAddLLVMIRModule(jit, LLVMOrcLLJITGetMainJITDylib(jit), tsm))) {
		LLVMOrcDisposeThreadSafeModule(tsm);
		fail_error(err, "add module");
		return NULL;
	}
	LLVMOrcExecutorAddress addr = 0;
	if ((err = LLVMOrcLLJITLookup(jit, &addr, name))) {
		fail_error(err, "lookup");
		return NULL;
	}
	exec_jit_fn fn;
	uintptr_t a = (uintptr_t)addr;
	memcpy(&fn, &a, sizeof(fn));
	return fn;
}
