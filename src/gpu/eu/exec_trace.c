/* The "eu" trace: one line per executed instruction, then the destination
 * value of every enabled channel. */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/exec_internal.h"

const char *exec_opcode_name(unsigned opcode)
{
	static const char *const names[128] = {
		[EU_OP_ILLEGAL] = "illegal", [EU_OP_MOV] = "mov", [EU_OP_SEL] = "sel",
		[EU_OP_MOVI] = "movi", [EU_OP_NOT] = "not", [EU_OP_AND] = "and",
		[EU_OP_OR] = "or", [EU_OP_XOR] = "xor", [EU_OP_SHR] = "shr",
		[EU_OP_SHL] = "shl", [EU_OP_SMOV] = "smov", [EU_OP_ASR] = "asr",
		[EU_OP_ROR] = "ror", [EU_OP_ROL] = "rol", [EU_OP_CMP] = "cmp",
		[EU_OP_CMPN] = "cmpn", [EU_OP_CSEL] = "csel", [EU_OP_F32TO16] = "f32to16",
		[EU_OP_F16TO32] = "f16to32", [EU_OP_BFREV] = "bfrev", [EU_OP_BFE] = "bfe",
		[EU_OP_BFI1] = "bfi1", [EU_OP_BFI2] = "bfi2", [EU_OP_JMPI] = "jmpi",
		[EU_OP_BRD] = "brd", [EU_OP_IF] = "if", [EU_OP_BRC] = "brc",
		[EU_OP_ELSE] = "else", [EU_OP_ENDIF] = "endif", [EU_OP_DO] = "do",
		[EU_OP_WHILE] = "while", [EU_OP_BREAK] = "break", [EU_OP_CONTINUE] = "cont",
		[EU_OP_HALT] = "halt", [EU_OP_CALLA] = "calla", [EU_OP_CALL] = "call",
		[EU_OP_RET] = "ret", [EU_OP_GOTO] = "goto", [EU_OP_JOIN] = "join",
		[EU_OP_WAIT] = "wait", [EU_OP_SEND] = "send", [EU_OP_SENDC] = "sendc",
		[EU_OP_SENDS] = "sends", [EU_OP_SENDSC] = "sendsc", [EU_OP_MATH] = "math",
		[EU_OP_ADD] = "add", [EU_OP_MUL] = "mul", [EU_OP_AVG] = "avg",
		[EU_OP_FRC] = "frc", [EU_OP_RNDU] = "rndu", [EU_OP_RNDD] = "rndd",
		[EU_OP_RNDE] = "rnde", [EU_OP_RNDZ] = "rndz", [EU_OP_MAC] = "mac",
		[EU_OP_MACH] = "mach", [EU_OP_LZD] = "lzd", [EU_OP_FBH] = "fbh",
		[EU_OP_FBL] = "fbl", [EU_OP_CBIT] = "cbit", [EU_OP_ADDC] = "addc",
		[EU_OP_SUBB] = "subb", [EU_OP_SAD2] = "sad2", [EU_OP_SADA2] = "sada2",
		[EU_OP_DP4] = "dp4", [EU_OP_DPH] = "dph", [EU_OP_DP3] = "dp3",
		[EU_OP_DP2] = "dp2", [EU_OP_LINE] = "line", [EU_OP_PLN] = "pln",
		[EU_OP_MAD] = "mad", [EU_OP_LRP] = "lrp", [EU_OP_MADM] = "madm",
		[EU_OP_NOP] = "nop",
	};
	return opcode < 128 && names[opcode] ? names[opcode] : "illegal";
}

/* The instruction's text from the ISA module's disassembler (Mesa's
 * syntax), on one line. */
static void inst_text(const struct exec_op *op, char *buf, size_t len)
{
	struct eu_text txt;
	memset(&txt, 0, sizeof(txt));
	eu_disasm_inst(&txt, op->prog->gen, &op->inst, op->offset, NULL, NULL);
	if (!txt.buf || txt.oom) {
		snprintf(buf, len, "%s(%u)", exec_opcode_name(op->opcode), op->exec_size);
	} else {
		/* collapse the line breaks and runs of blanks */
		size_t o = 0;
		bool space = false;
		for (size_t i = 0; i < txt.len && o + 1 < len; i++) {
			char c = txt.buf[i];
			if (c == '\n' || c == ' ' || c == '\t') {
				space = o > 0;
				continue;
			}
			if (space && o + 2 < len)
				buf[o++] = ' ';
			space = false;
			buf[o++] = c;
		}
		buf[o] = 0;
	}
	eu_text_free(&txt);
}

static void value_text(const uint8_t *p, unsigned type, char *buf, size_t len)
{
	uint64_t b = 0;
	memcpy(&b, p, exec_type_bytes(type));
	switch (type) {
	case EU_TYPE_F: {
		float f;
		memcpy(&f, p, 4);
		snprintf(buf, len, "%g", f);
		break;
	}
	case EU_TYPE_DF: {
		double d;
		memcpy(&d, p, 8);
		snprintf(buf, len, "%g", d);
		break;
	}
	case EU_TYPE_HF:
		snprintf(buf, len, "%g", exec_half_to_float((uint16_t)b));
		break;
	case EU_TYPE_D: snprintf(buf, len, "%d", (int32_t)b); break;
	case EU_TYPE_W: snprintf(buf, len, "%d", (int16_t)b); break;
	case EU_TYPE_B: snprintf(buf, len, "%d", (int8_t)b); break;
	case EU_TYPE_Q: snprintf(buf, len, "%lld", (long long)b); break;
	default: snprintf(buf, len, "0x%llx", (unsigned long long)b); break;
	}
}

void exec_trace_op(struct eu_thread *t, const struct exec_op *op, uint32_t en)
{
	char text[256], vals[1024];
	size_t at = 0;
	inst_text(op, text, sizeof(text));
	vals[0] = 0;
	if (op->dst.kind == DST_DIRECT && op->fn != exec_flow && op->fn != exec_send) {
		uint32_t w = en & op->dst.wmask;
		for (unsigned i = 0; i < op->exec_size && at < sizeof(vals) - 48; i++) {
			if (!((w >> i) & 1))
				continue;
			char v[40];
			value_text(t->regs + op->dst.off[i], op->dst.type, v, sizeof(v));
			at += (size_t)snprintf(vals + at, sizeof(vals) - at, " %u:%s",
					       op->group + i, v);
		}
	}
	if (op->fn == exec_flow)   /* branches: who is enabled afterwards */
		snprintf(vals, sizeof(vals), " -> enabled 0x%08x", t->active & t->live);
	trace_printf(TRACE_EU, "ip 0x%04x %s mask 0x%08x%s%s", op->offset, text,
		     en << op->group, at ? " |" : "", vals);
}
