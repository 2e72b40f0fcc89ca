/* The shared-function name and message description of send/sendc. With a
 * hex descriptor the description text is informative and skipped; without
 * one (the seeds' older spelling) it is turned into a descriptor:
 * PRM vol. 2a "Message Descriptor" (mlen 28:25, rlen 24:20, header 19) and
 * the per-function fields (URB: global offset 14:4, opcode 3:0, per-slot
 * 17, channel mask 15; sampler: type 16:12, SIMD 18:17, sampler 11:8,
 * surface 7:0). */
#include <string.h>

#include "gpu/eu/asm_internal.h"
#include "gpu/eu/isa_names.h"

static const struct { const char *name; uint8_t sfid; } sfids[] = {
	{ "thread_spawner", EU_SFID_SPAWNER }, { "pixel interp", EU_SFID_PI },
	{ "dp data 1", EU_SFID_DP_DC1 }, { "dp_sampler", EU_SFID_DP_SAMPLER },
	{ "sampler", EU_SFID_SAMPLER }, { "gateway", EU_SFID_GATEWAY },
	{ "render", EU_SFID_DP_RC }, { "const", EU_SFID_DP_CC },
	{ "data", EU_SFID_DP_DC0 }, { "urb", EU_SFID_URB }, { "null", EU_SFID_NULL },
	{ "math", 1 }, { "cre", EU_SFID_CRE },
};




static long field(struct asm_cur *c, long max, const char *what)
{
	size_t at = c->pos;
	long v = asm_int(c);
	if (v < 0 || v > max)
		asm_error_at(c, at, "%s %ld out of range (0..%ld)", what, v, max);
	return v;
}

static uint32_t urb_desc(struct asm_cur *c)
{
	uint32_t d = 1u << 19; /* URB messages always carry the handle header */
	d |= (uint32_t)field(c, 2047, "URB global offset") << 4;
	bool op_seen = false;
	for (;;) {
		bool hit = false;
		for (unsigned i = 0; i < 9; i++)
			if (asm_accept_word(c, eu_urb_opcode_names[i])) {
				d |= i;
				op_seen = hit = true;
			}
		if (asm_accept_word(c, "per-slot"))
			d |= 1u << 17, hit = true;
		if (asm_accept_word(c, "masked") || asm_accept_word(c, "interleave"))
			d |= 1u << 15, hit = true;
		if (!hit)
			break;
	}
	if (!op_seen)
		asm_error(c, "expected a URB message (e.g. SIMD8 write)");
	return d;
}

static uint32_t sampler_desc(struct asm_cur *c)
{
	static const char *const simd[] = { "SIMD4x2", "SIMD8", "SIMD16", "SIMD32/64" };
	uint32_t d = 0;
	char name[32];
	size_t at = c->pos;
	if (!asm_ident(c, name, sizeof(name)))
		asm_error(c, "expected a sampler message name");
	unsigned i;
	for (i = 0; i < 32; i++)
		if (eu_sampler_msg_names[i] && !strcmp(eu_sampler_msg_names[i], name))
			break;
	if (i == 32)
		asm_error_at(c, at, "unknown sampler message '%s'", name);
	d |= i << 12;
	for (i = 0; i < 4; i++)
		if (asm_accept_word(c, simd[i]))
			break;
	if (i == 4)
		asm_error(c, "expected SIMD8, SIMD16, SIMD4x2 or SIMD32/64");
	d |= i << 17;
	if (!asm_accept_word(c, "Surface"))
		asm_error(c, "expected 'Surface = N'");
	asm_expect(c, '=');
	d |= (uint32_t)field(c, 255, "surface");
	if (!asm_accept_word(c, "Sampler"))
		asm_error(c, "expected 'Sampler = N'");
	asm_expect(c, '=');
	d |= (uint32_t)field(c, 15, "sampler") << 8;
	return d;
}

static uint32_t dp_desc(struct asm_cur *c)
{
	asm_expect(c, '(');
	uint32_t d = (uint32_t)field(c, 255, "binding table index");
	asm_expect(c, ',');
	d |= (uint32_t)field(c, 63, "message control") << 8;
	asm_expect(c, ',');
	d |= (uint32_t)field(c, 31, "message type") << 14;
	asm_expect(c, ',');
	field(c, 1, "write commit");
	asm_expect(c, ')');
	return d;
}

void asm_send_desc(struct asm_cur *c, struct eu_inst *in, bool have_hex)
{
	asm_skip_ws(c);
	size_t at = c->pos;
	unsigned i;
	for (i = 0; i < sizeof(sfids) / sizeof(sfids[0]); i++)
		if (asm_accept_word(c, sfids[i].name))
			break;
	if (i == sizeof(sfids) / sizeof(sfids[0]))
		asm_error_at(c, at, "expected a shared function name (urb, sampler, "
			     "render, data, const, ...)");
	in->sfid = sfids[i].sfid;
	asm_accept_word(c, "MsgDesc:");
	if (have_hex || in->desc_is_reg) {
		while (c->pos < c->len && c->s[c->pos] != '{' && c->s[c->pos] != ';')
			c->pos++;
		return;
	}
	uint32_t d = 0;
	switch (in->sfid) {
	case EU_SFID_URB: d = urb_desc(c); break;
	case EU_SFID_SAMPLER: d = sampler_desc(c); break;
	case EU_SFID_DP_CC: case EU_SFID_DP_SAMPLER: d = dp_desc(c); break;
	case EU_SFID_SPAWNER: break;
	case EU_SFID_GATEWAY: {
		asm_expect(c, '(');
		unsigned g;
		for (g = 0; g < 7; g++)
			if (asm_accept_word(c, eu_gateway_msg_names[g]))
				break;
		if (g == 7)
			asm_error(c, "unknown gateway message");
		d = g;
		asm_expect(c, ')');
		break;
	}
	default:
		asm_error_at(c, at, "a %s message needs its 0x descriptor written "
			     "before the shared function name", sfids[i].name);
	}
	if (!asm_accept_word(c, "mlen"))
		asm_error(c, "expected 'mlen N'");
	d |= (uint32_t)field(c, 15, "mlen") << 25;
	if (!asm_accept_word(c, "rlen"))
		asm_error(c, "expected 'rlen N'");
	d |= (uint32_t)field(c, 31, "rlen") << 20;
	in->desc = d;
}
