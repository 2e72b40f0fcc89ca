/* LLVM 15's C API as a table of function pointers, filled from
 * libLLVM-15.so.1 by dlopen/dlsym on the first compile (jit_llvm_load.c),
 * so that a process that never compiles never loads LLVM (its relocations
 * and static initialisers cost each process about 70 ms of CPU).
 *
 * Only LLVM's headers are needed at build time: nothing links libLLVM.
 * jit_llvm.c calls `llvm.BuildAdd(...)` where the API says LLVMBuildAdd;
 * each entry has the type of the function the header declares. */
#ifndef GTSIM_EU_JIT_LLVM_API_H
#define GTSIM_EU_JIT_LLVM_API_H

#include <stdbool.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* The library, by its soname (Debian's libllvm15, also what Mesa's
 * llvmpipe depends on). GTSIM_JIT_LIBLLVM overrides it (tests). */
#define LLVM_API_LIBRARY "libLLVM-15.so.1"

/* Every function jit_llvm.c uses, without the LLVM prefix. */
#define LLVM_API_FUNCTIONS(X) \
	X(AddAttributeAtIndex) X(AddCase) X(AddFunction) X(AddIncoming) \
	X(AppendBasicBlockInContext) X(BuildAShr) X(BuildAdd) X(BuildAnd) \
	X(BuildBitCast) X(BuildBr) X(BuildCall2) X(BuildCondBr) X(BuildFAdd) \
	X(BuildFCmp) X(BuildFMul) X(BuildFPToSI) X(BuildFSub) X(BuildGEP2) \
	X(BuildICmp) X(BuildInsertElement) X(BuildLShr) X(BuildLoad2) X(BuildMul) \
	X(BuildNeg) X(BuildNot) X(BuildOr) X(BuildPhi) X(BuildRetVoid) X(BuildSExt) \
	X(BuildSIToFP) X(BuildSelect) X(BuildShl) X(BuildShuffleVector) \
	X(BuildStore) X(BuildSub) X(BuildSwitch) X(BuildTrunc) X(BuildUIToFP) \
	X(BuildXor) X(BuildZExt) X(ConstInt) X(ConstIntToPtr) X(ConstNull) \
	X(ConstVector) X(CreateBuilderInContext) X(CreateEnumAttribute) \
	X(CreatePassBuilderOptions) X(CreateTargetMachine) X(DisposeBuilder) \
	X(DisposeErrorMessage) X(DisposeMessage) X(DisposeModule) \
	X(DisposePassBuilderOptions) X(FloatTypeInContext) X(FunctionType) \
	X(GetDefaultTargetTriple) X(GetEnumAttributeKindForName) \
	X(GetErrorMessage) X(GetHostCPUFeatures) X(GetHostCPUName) \
	X(GetInsertBlock) X(GetIntrinsicDeclaration) X(GetParam) \
	X(GetTargetFromTriple) X(GetUndef) X(Int1TypeInContext) \
	X(Int32TypeInContext) X(Int64TypeInContext) X(Int8TypeInContext) \
	X(IntTypeInContext) X(IntrinsicGetType) X(LookupIntrinsicID) \
	X(ModuleCreateWithNameInContext) \
	X(OrcCreateDynamicLibrarySearchGeneratorForProcess) X(OrcCreateLLJIT) \
	X(OrcCreateLLJITBuilder) X(OrcCreateNewThreadSafeContext) \
	X(OrcCreateNewThreadSafeModule) X(OrcDisposeThreadSafeContext) \
	X(OrcDisposeThreadSafeModule) X(OrcJITDylibAddGenerator) \
	X(OrcJITTargetMachineBuilderCreateFromTargetMachine) \
	X(OrcLLJITAddLLVMIRModule) X(OrcLLJITBuilderSetJITTargetMachineBuilder) \
	X(OrcLLJITGetDataLayoutStr) X(OrcLLJITGetGlobalPrefix) \
	X(OrcLLJITGetMainJITDylib) X(OrcLLJITGetTripleString) X(OrcLLJITLookup) \
	X(OrcThreadSafeContextGetContext) X(PointerType) X(PositionBuilderAtEnd) \
	X(RunPasses) X(SetAlignment) X(SetDataLayout) X(SetTarget) X(TypeOf) \
	X(VectorType) X(VerifyModule) X(VoidTypeInContext)

/* The host target's initialisers (what the header's inline
 * LLVMInitializeNativeTarget and LLVMInitializeNativeAsmPrinter call),
 * named by llvm-config.h's LLVM_NATIVE_* for the host LLVM was built for. */
#define LLVM_API_NATIVE(X) \
	X(target_info, LLVM_NATIVE_TARGETINFO) X(target, LLVM_NATIVE_TARGET) \
	X(target_mc, LLVM_NATIVE_TARGETMC) X(asm_printer, LLVM_NATIVE_ASMPRINTER)

struct llvm_api {
#define LLVM_API_ENTRY(name) __typeof__(LLVM##name) *name;
	LLVM_API_FUNCTIONS(LLVM_API_ENTRY)
#undef LLVM_API_ENTRY
#define LLVM_API_NATIVE_ENTRY(field, sym) void (*field)(void);
	LLVM_API_NATIVE(LLVM_API_NATIVE_ENTRY)
#undef LLVM_API_NATIVE_ENTRY
};

/* The table, valid once llvm_api_load() has returned true. */
extern struct llvm_api llvm;

/* Loads the library and every entry, once per process; false (traced
 * once under `jit`) when the library or a symbol is missing, and then on
 * every later call without trying again. */
bool llvm_api_load(void);

#endif
