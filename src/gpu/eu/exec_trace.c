/* The "eu" trace: one line per executed instruction, then the destination
 * value of every enabled channel. */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/exec_internal.h"
#include "gpu/eu/opcodes.h"

/* The instruction's text from the ISA module's disassembler (Mesa's
 * syntax), on one line. */
static void inst_text(const struct exec_op *op, char *buf, size_t len)
{
	struct eu_text txt;
	memset(&txt, 0, sizeof(txt));
	eu_disasm_inst(&txt, op->prog->gen, &op->inst, op->offset, NULL, NULL);
	if (!txt.buf || txt.oom) {
		snprintf(buf, len, "%s(%u)", eu_opcode_name(op->opcode), op->exec_size);
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
