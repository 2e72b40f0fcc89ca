/* The x86-64 memory-access decoder on hand-assembled instructions. Each
 * expected length and operand was worked out from the Intel SDM vol. 2
 * encoding rules (REX 0100WRXB, ModRM mod/reg/rm, SIB scale/index/base,
 * disp8/disp32) and agrees with `objdump -D -b binary -mi386:x86-64`,
 * whose text is quoted beside each case. */
#include "shim/x86_decode.h"

#include "test.h"

#define NONE X86_NO_REG

struct vec {
	const char *text;            /* objdump's disassembly */
	uint8_t bytes[15];
	size_t n;
	unsigned len, size, dest_size;
	enum x86_access_kind kind;
	int reg, base, index;
	unsigned scale;
	int64_t disp;
	uint64_t imm;
};

static const struct vec good[] = {
	{ "mov (%rax),%ebx", { 0x8b, 0x18 }, 2,
	  2, 4, 4, X86_LOAD, X86_RBX, X86_RAX, NONE, 1, 0, 0 },
	{ "mov 0x37a9(%rip),%rax", { 0x48, 0x8b, 0x05, 0xa9, 0x37, 0x00, 0x00 }, 7,
	  7, 8, 8, X86_LOAD, X86_RAX, X86_RIP, NONE, 1, 0x37a9, 0 },
	{ "mov 0x10(%rsi,%rcx,4),%r8d", { 0x44, 0x8b, 0x44, 0x8e, 0x10 }, 5,
	  5, 4, 4, X86_LOAD, X86_R8, X86_RSI, X86_RCX, 4, 0x10, 0 },
	{ "mov %eax,0x100(%rbp,%r12,4)", { 0x42, 0x89, 0x84, 0xa5, 0x00, 0x01, 0x00, 0x00 }, 8,
	  8, 4, 4, X86_STORE_REG, X86_RAX, X86_RBP, X86_R12, 4, 0x100, 0 },
	{ "movl $0xdeadbeef,(%rax)", { 0xc7, 0x00, 0xef, 0xbe, 0xad, 0xde }, 6,
	  6, 4, 0, X86_STORE_IMM, NONE, X86_RAX, NONE, 1, 0, 0xdeadbeef },
	{ "movq $0xffffffffffffffff,0x8(%rax)",
	  { 0x48, 0xc7, 0x40, 0x08, 0xff, 0xff, 0xff, 0xff }, 8,
	  8, 8, 0, X86_STORE_IMM, NONE, X86_RAX, NONE, 1, 8, 0xffffffffffffffffull },
	{ "movl $0x1,(%r12)", { 0x41, 0xc7, 0x04, 0x24, 0x01, 0x00, 0x00, 0x00 }, 8,
	  8, 4, 0, X86_STORE_IMM, NONE, X86_R12, NONE, 1, 0, 1 },
	{ "movzbl 0x3(%rdi),%eax", { 0x0f, 0xb6, 0x47, 0x03 }, 4,
	  4, 1, 4, X86_LOAD, X86_RAX, X86_RDI, NONE, 1, 3, 0 },
	{ "movzwq 0x2358,%rcx", { 0x48, 0x0f, 0xb7, 0x0c, 0x25, 0x58, 0x23, 0x00, 0x00 }, 9,
	  9, 2, 8, X86_LOAD, X86_RCX, NONE, NONE, 1, 0x2358, 0 },
	{ "mov -0x8(%rbp),%eax", { 0x8b, 0x45, 0xf8 }, 3,
	  3, 4, 4, X86_LOAD, X86_RAX, X86_RBP, NONE, 1, -8, 0 },
	{ "mov -0x80000000(%r13),%eax", { 0x41, 0x8b, 0x85, 0x00, 0x00, 0x00, 0x80 }, 7,
	  7, 4, 4, X86_LOAD, X86_RAX, X86_R13, NONE, 1, -0x80000000ll, 0 },
	{ "mov %rdx,(%rax,%rcx,8)", { 0x48, 0x89, 0x14, 0xc8 }, 4,
	  4, 8, 8, X86_STORE_REG, X86_RDX, X86_RAX, X86_RCX, 8, 0, 0 },
	{ "mov %r13,-0x10(%rsp)", { 0x4c, 0x89, 0x6c, 0x24, 0xf0 }, 5,
	  5, 8, 8, X86_STORE_REG, X86_R13, X86_RSP, NONE, 1, -16, 0 },
	{ "mov (%r11,%rbx,1),%r10d", { 0x45, 0x8b, 0x14, 0x1b }, 4,
	  4, 4, 4, X86_LOAD, X86_R10, X86_R11, X86_RBX, 1, 0, 0 },
	{ "mov 0x0(%rip),%ebp", { 0x8b, 0x2d, 0x00, 0x00, 0x00, 0x00 }, 6,
	  6, 4, 4, X86_LOAD, X86_RBP, X86_RIP, NONE, 1, 0, 0 },
	/* SIB base 101 with mod 01 is RBP (only mod 00 drops the base). */
	{ "mov 0x8(%rbp,%riz,1),%eax", { 0x8b, 0x44, 0x25, 0x08 }, 4,
	  4, 4, 4, X86_LOAD, X86_RAX, X86_RBP, NONE, 1, 8, 0 },
	/* Index 100 with REX.X is R12, not "no index". */
	{ "mov (%rax,%r12,1),%rax", { 0x4a, 0x8b, 0x04, 0x20 }, 4,
	  4, 8, 8, X86_LOAD, X86_RAX, X86_RAX, X86_R12, 1, 0, 0 },
	/* Trailing bytes after the instruction are not part of it. */
	{ "mov (%rax),%ebx; nop", { 0x8b, 0x18, 0x90, 0x90 }, 4,
	  2, 4, 4, X86_LOAD, X86_RBX, X86_RAX, NONE, 1, 0, 0 },
};

static void check_good(void)
{
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const struct vec *v = &good[i];
		struct x86_mem_access a;
		bool ok = x86_decode_mem_access(v->bytes, v->n, &a);
		CHECK(ok);
		if (!ok) {
			fprintf(stderr, "  not decoded: %s\n", v->text);
			continue;
		}
		int before = test_failures;
		CHECK_EQ(a.len, v->len);
		CHECK_EQ(a.kind, v->kind);
		CHECK_EQ(a.size, v->size);
		if (v->kind == X86_LOAD)
			CHECK_EQ(a.dest_size, v->dest_size);
		if (v->kind == X86_STORE_IMM)
			CHECK_EQ(a.imm, v->imm);
		else
			CHECK_EQ(a.reg, v->reg);
		CHECK_EQ(a.base, v->base);
		CHECK_EQ(a.index, v->index);
		if (v->index != NONE)
			CHECK_EQ(a.scale, v->scale);
		CHECK_EQ(a.disp, v->disp);
		if (test_failures != before)
			fprintf(stderr, "  in: %s\n", v->text);
	}
}

static void check_rejected(void)
{
	static const struct { const char *text; uint8_t bytes[15]; size_t n; } bad[] = {
		{ "mov %ecx,%eax (register operand)", { 0x89, 0xc8 }, 2 },
		{ "movdqu (%rax),%xmm0", { 0xf3, 0x0f, 0x6f, 0x00 }, 4 },
		{ "C7 /1 (undefined)", { 0xc7, 0x08, 0, 0, 0, 0 }, 6 },
		{ "mov 0x0(%rsp),%eax truncated before the disp32", { 0x8b, 0x84, 0x24 }, 3 },
		{ "movl $imm truncated in the immediate", { 0xc7, 0x00, 0xef, 0xbe }, 4 },
		{ "REX alone", { 0x48 }, 1 },
		{ "lock xadd %eax,(%rdx)", { 0xf0, 0x0f, 0xc1, 0x02 }, 4 },
		{ "mov %fs:(%rax),%eax (segment prefix)", { 0x64, 0x8b, 0x00 }, 3 },
		{ "mov (%rax),%bx (operand-size prefix)", { 0x66, 0x8b, 0x18 }, 3 },
		{ "mov (%rax),%bl (byte register)", { 0x8a, 0x18 }, 2 },
		{ "empty", { 0 }, 0 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct x86_mem_access a;
		bool ok = x86_decode_mem_access(bad[i].bytes, bad[i].n, &a);
		CHECK(!ok);
		if (ok)
			fprintf(stderr, "  accepted: %s\n", bad[i].text);
	}
}

static void check_addresses(void)
{
	uint64_t regs[16] = { 0 };
	struct x86_mem_access a;
	/* mov 0x10(%rsi,%rcx,4),%r8d with rsi 0x1000, rcx 3: 0x1000+12+0x10. */
	regs[X86_RSI] = 0x1000;
	regs[X86_RCX] = 3;
	CHECK(x86_decode_mem_access(good[2].bytes, good[2].n, &a));
	CHECK_EQ(x86_effective_address(&a, regs, 0), 0x101c);
	/* objdump resolves the RIP-relative load at 0x29d8 in gem_latency to
	 * 0x6188: 0x29d8 + 7 + 0x37a9. */
	CHECK(x86_decode_mem_access(good[1].bytes, good[1].n, &a));
	CHECK_EQ(x86_effective_address(&a, regs, 0x29d8), 0x6188);
	/* mov %r13,-0x10(%rsp): rsp 0x7ffe0000 - 16. */
	regs[X86_RSP] = 0x7ffe0000;
	CHECK(x86_decode_mem_access(good[12].bytes, good[12].n, &a));
	CHECK_EQ(x86_effective_address(&a, regs, 0), 0x7ffdfff0);
	/* movzwq 0x2358,%rcx: absolute. */
	CHECK(x86_decode_mem_access(good[8].bytes, good[8].n, &a));
	CHECK_EQ(x86_effective_address(&a, regs, 0x1234), 0x2358);
	/* mov %eax,0x100(%rbp,%r12,4): rbp 0x10000, r12 0x40. */
	regs[X86_RBP] = 0x10000;
	regs[X86_R12] = 0x40;
	CHECK(x86_decode_mem_access(good[3].bytes, good[3].n, &a));
	CHECK_EQ(x86_effective_address(&a, regs, 0), 0x10000 + 0x100 + 0x100);
}

int main(void)
{
	check_good();
	check_rejected();
	check_addresses();
	return test_exit();
}
