/* x86-64 memory-access decoder (x86_decode.h). Intel SDM vol. 2, 2.1-2.2:
 * REX = 0100WRXB; ModRM = mod(2) reg(3) rm(3); rm 100 with mod != 11 adds
 * a SIB byte = scale(2) index(3) base(3); index 100 (without REX.X) means
 * no index; SIB base 101 with mod 00 means no base and a disp32; rm 101
 * with mod 00 is RIP + disp32; mod 01 adds a disp8, mod 10 a disp32. */
#include "shim/x86_decode.h"

#include <string.h>

#define MAX_INSN 15

struct cursor {
	const uint8_t *code;
	size_t n, pos;
};

static bool next_byte(struct cursor *c, uint8_t *b)
{
	if (c->pos >= c->n || c->pos >= MAX_INSN)
		return false;
	*b = c->code[c->pos++];
	return true;
}

/* Little-endian, sign-extended. */
static bool next_signed(struct cursor *c, unsigned bytes, int64_t *v)
{
	uint64_t u = 0;
	for (unsigned i = 0; i < bytes; i++) {
		uint8_t b;
		if (!next_byte(c, &b))
			return false;
		u |= (uint64_t)b << (8 * i);
	}
	unsigned shift = 64 - 8 * bytes;
	*v = (int64_t)(u << shift) >> shift;
	return true;
}

/* ModRM (and SIB, displacement) of a memory operand; the reg field, with
 * REX.R, goes to *reg and its raw three bits to *reg_raw. */
static bool decode_modrm(struct cursor *c, uint8_t rex, struct x86_mem_access *a, int *reg,
			 unsigned *reg_raw)
{
	uint8_t modrm;
	if (!next_byte(c, &modrm))
		return false;
	unsigned mod = modrm >> 6, rm = modrm & 7;
	*reg_raw = (modrm >> 3) & 7;
	*reg = (int)(*reg_raw | (rex & 4u) << 1);
	if (mod == 3)
		return false;   /* a register operand: no memory access */
	a->base = X86_NO_REG;
	a->index = X86_NO_REG;
	a->scale = 1;
	a->disp = 0;
	unsigned disp_bytes = mod == 1 ? 1 : mod == 2 ? 4 : 0;
	if (rm == 4) {
		uint8_t sib;
		if (!next_byte(c, &sib))
			return false;
		unsigned index = ((sib >> 3) & 7) | (rex & 2u) << 2;
		unsigned base = sib & 7;
		a->scale = 1u << (sib >> 6);
		if (index != 4)
			a->index = (int)index;
		if (base == 5 && mod == 0)
			disp_bytes = 4;
		else
			a->base = (int)(base | (rex & 1u) << 3);
	} else if (rm == 5 && mod == 0) {
		a->base = X86_RIP;
		disp_bytes = 4;
	} else {
		a->base = (int)(rm | (rex & 1u) << 3);
	}
	return disp_bytes == 0 || next_signed(c, disp_bytes, &a->disp);
}

bool x86_decode_mem_access(const uint8_t *code, size_t n, struct x86_mem_access *out)
{
	struct cursor c = { code, n, 0 };
	struct x86_mem_access a;
	memset(&a, 0, sizeof(a));
	uint8_t op, rex = 0;
	if (!next_byte(&c, &op))
		return false;
	if ((op & 0xf0) == 0x40) {
		rex = op;
		if (!next_byte(&c, &op))
			return false;
	}
	bool wide = rex & 8;
	int reg;
	unsigned reg_raw;
	switch (op) {
	case 0x8b:
	case 0x89:
		if (!decode_modrm(&c, rex, &a, &reg, &reg_raw))
			return false;
		a.kind = op == 0x8b ? X86_LOAD : X86_STORE_REG;
		a.size = a.dest_size = wide ? 8 : 4;
		a.reg = reg;
		break;
	case 0xc7: {
		if (!decode_modrm(&c, rex, &a, &reg, &reg_raw) || reg_raw != 0)
			return false;
		int64_t imm;
		if (!next_signed(&c, 4, &imm))
			return false;
		a.kind = X86_STORE_IMM;
		a.size = wide ? 8 : 4;
		a.imm = wide ? (uint64_t)imm : (uint32_t)imm;
		a.reg = X86_NO_REG;
		break;
	}
	case 0x0f:
		if (!next_byte(&c, &op) || (op != 0xb6 && op != 0xb7))
			return false;
		if (!decode_modrm(&c, rex, &a, &reg, &reg_raw))
			return false;
		a.kind = X86_LOAD;
		a.size = op == 0xb6 ? 1 : 2;
		a.dest_size = wide ? 8 : 4;
		a.reg = reg;
		break;
	default:
		return false;
	}
	a.len = (unsigned)c.pos;
	*out = a;
	return true;
}

uint64_t x86_effective_address(const struct x86_mem_access *a, const uint64_t regs[16],
			       uint64_t rip)
{
	uint64_t ea = (uint64_t)a->disp;
	if (a->base == X86_RIP)
		ea += rip + a->len;
	else if (a->base >= 0 && a->base < 16)
		ea += regs[a->base];
	if (a->index >= 0 && a->index < 16)
		ea += regs[a->index] * a->scale;
	return ea;
}
