/* The message-descriptor line of send/sendc, as Mesa prints it for
 * Gen8/Gen9 (shared function names and the descriptor fields of each:
 * PRM vol. 2a "Message Descriptor" formats of URB, sampler, data ports,
 * gateway, pixel interpolator). */
#include <string.h>

#include "gpu/eu/disasm.h"
#include "gpu/eu/isa_names.h"

#define BITS(v, hi, lo) (((v) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

static const char *const sfid_names[16] = {
	[0] = "null", [1] = "math", [2] = "sampler", [3] = "gateway",
	[4] = "dp_sampler", [5] = "render", [6] = "urb", [7] = "thread_spawner",
	[9] = "const", [10] = "data", [11] = "pixel interp", [12] = "dp data 1",
	[13] = "cre",
};
static const char *const simd_modes[4] = { "SIMD4x2", "SIMD8", "SIMD16",
					   "SIMD32/64" };
static const char *const rc_gen8[16] = {
	[4] = "media block read", [5] = "typed surface read",
	[6] = "typed atomic op", [7] = "memory fence", [10] = "media block write",
	[12] = "RT write", [13] = "typed surface write",
};
static const char *const rc_gen9[16] = { [12] = "RT write", [13] = "RT read" };
static const char *const rt_subtypes[8] = {
	"SIMD16", "SIMD16/RepData", "SIMD8/DualSrcLow", "SIMD8/DualSrcHigh",
	"SIMD8", "SIMD8/ImageWrite", NULL, "SIMD16/RepData-111",
};
/* Data cache 0 message types; Mesa indexes with a 5-bit field, so 16..31
 * print as invalid. */
static const char *const dc0_msgs[16] = {
	[0] = "DC OWORD block read", [1] = "DC unaligned OWORD block read",
	[2] = "DC OWORD dual block read", [3] = "DC DWORD scattered read",
	[4] = "DC byte scattered read", [5] = "DC untyped surface read",
	[6] = "DC untyped atomic", [7] = "DC mfence", [8] = "DC OWORD block write",
	[10] = "DC OWORD dual block write", [11] = "DC DWORD scatterd write",
	[12] = "DC byte scattered write", [13] = "DC untyped surface write",
};
static const char *const dc1_msgs[32] = {
	[1] = "untyped surface read", [2] = "DC untyped atomic op",
	[3] = "DC untyped 4x2 atomic op", [4] = "DC media block read",
	[5] = "DC typed surface read", [6] = "DC typed atomic",
	[7] = "DC typed 4x2 atomic op", [9] = "DC untyped surface write",
	[10] = "DC media block write", [11] = "DC atomic counter op",
	[12] = "DC 4x2 atomic counter op", [13] = "DC typed surface write",
	[16] = "DC A64 scattered read", [17] = "DC A64 untyped surface read",
	[18] = "DC A64 untyped atomic op", [20] = "DC A64 oword block read",
	[21] = "DC A64 oword block write", [25] = "DC A64 untyped surface write",
	[26] = "DC A64 scattered write", [27] = "DC untyped atomic float op",
	[29] = "DC A64 untyped atomic float op",
};
static const char *const atomic_ops[16] = {
	[1] = "and", [2] = "or", [3] = "xor", [4] = "mov", [5] = "inc",
	[6] = "dec", [7] = "add", [8] = "sub", [9] = "revsub", [10] = "imax",
	[11] = "imin", [12] = "umax", [13] = "umin", [14] = "cmpwr",
	[15] = "predec",
};
static const char *const atomic_float_ops[16] = {
	[1] = "fmax", [2] = "fmin", [3] = "fcmpwr",
};
static const char *const pi_msgs[4] = {
	"per_message_offset", "sample_position", "centroid", "per_slot_offset",
};

static void ctl(struct eu_text *t, const char *what, const char *const *tbl,
		unsigned n, unsigned id, int *space)
{
	if (id >= n || !tbl[id]) {
		eu_text_printf(t, "*** invalid %s value %u ", what, id);
		return;
	}
	if (tbl[id][0]) {
		if (*space)
			eu_text_puts(t, " ");
		eu_text_puts(t, tbl[id]);
		*space = 1;
	}
}

static void dc1(struct eu_text *t, uint32_t d, int *space)
{
	unsigned type = BITS(d, 18, 14), ctrl = BITS(d, 13, 8);
	eu_text_puts(t, " (");
	ctl(t, "DP DC1 message type", dc1_msgs, 32, type, space);
	eu_text_printf(t, ", Surface = %u, ", BITS(d, 7, 0));
	switch (type) {
	case 2: case 6: case 11:
		eu_text_printf(t, "SIMD%d,", (ctrl & 16) ? 8 : 16);
		/* fall through */
	case 3: case 7: case 12: case 18:
		ctl(t, "atomic op", atomic_ops, 16, ctrl & 15, space);
		break;
	case 1: case 9: case 5: case 13: case 25: case 17: {
		static const char *const m[4] = { "4x2", "16", "8", "?" };
		eu_text_printf(t, "SIMD%s, Mask = 0x%x", m[ctrl >> 4], ctrl & 15);
		break;
	}
	case 27: case 29:
		eu_text_printf(t, "SIMD%d,", (ctrl & 16) ? 8 : 16);
		ctl(t, "atomic float op", atomic_float_ops, 16, ctrl & 15, space);
		break;
	default:
		eu_text_printf(t, "0x%x", ctrl);
	}
	eu_text_puts(t, ")");
}

void eu_disasm_send_desc(struct eu_text *t, int gen, const struct eu_inst *in)
{
	uint32_t d = in->desc;
	int space = 0;
	ctl(t, "SFID", sfid_names, 16, in->sfid, &space);
	eu_text_puts(t, " MsgDesc:");
	bool split = in->opcode == EU_OP_SENDS || in->opcode == EU_OP_SENDSC;
	if (in->desc_is_reg) {
		eu_text_puts(t, " indirect");
		if (split && !in->ex_desc_is_reg)
			eu_text_printf(t, " ex_mlen %u", BITS(in->ex_desc, 9, 6));
		return;
	}
	switch (in->sfid) {
	case EU_SFID_SAMPLER:
		ctl(t, "sampler message", eu_sampler_msg_names, 32, BITS(d, 16, 12), &space);
		ctl(t, "sampler simd mode", simd_modes, 4, BITS(d, 18, 17), &space);
		eu_text_printf(t, " Surface = %u Sampler = %u", BITS(d, 7, 0),
			       BITS(d, 11, 8));
		break;
	case EU_SFID_DP_SAMPLER:
	case EU_SFID_DP_CC:
		eu_text_printf(t, " (%u, %u, %u, %u)", BITS(d, 7, 0), BITS(d, 13, 8),
			       BITS(d, 18, 14), 0u);
		break;
	case EU_SFID_DP_RC: {
		unsigned type = BITS(d, 17, 14);
		ctl(t, "DP rc message type", gen >= 9 ? rc_gen9 : rc_gen8, 16, type,
		    &space);
		if (type == 12) {
			ctl(t, "RT message type", rt_subtypes, 8, BITS(d, 10, 8), &space);
			if (BITS(d, 11, 11))
				eu_text_puts(t, " Hi");
			if (BITS(d, 12, 12))
				eu_text_puts(t, " LastRT");
		} else {
			eu_text_printf(t, " MsgCtrl = 0x%u", BITS(d, 13, 8));
		}
		eu_text_printf(t, " Surface = %u", BITS(d, 7, 0));
		break;
	}
	case EU_SFID_URB: {
		unsigned opc = BITS(d, 3, 0);
		eu_text_printf(t, " %u", BITS(d, 14, 4));
		space = 1;
		ctl(t, "urb opcode", eu_urb_opcode_names, 16, opc, &space);
		if (BITS(d, 17, 17))
			eu_text_puts(t, " per-slot");
		if (opc == 7 || opc == 8) {
			if (BITS(d, 15, 15))
				eu_text_puts(t, " masked");
		} else {
			ctl(t, "urb swizzle", (const char *const[]){ "", "interleave" },
			    2, BITS(d, 15, 15), &space);
		}
		break;
	}
	case EU_SFID_SPAWNER:
		break;
	case EU_SFID_GATEWAY: {
		const char *g = eu_gateway_msg_names[BITS(d, 2, 0)];
		eu_text_printf(t, " (%s)", g ? g : "(null)");
		break;
	}
	case EU_SFID_DP_DC0: {
		unsigned type = BITS(d, 18, 14);
		eu_text_puts(t, " (");
		ctl(t, "DP DC0 message type", dc0_msgs, 16, type, &space);
		eu_text_printf(t, ", %u, ", BITS(d, 7, 0));
		if (type == 6)
			ctl(t, "atomic op", atomic_ops, 16, BITS(d, 11, 8), &space);
		else
			eu_text_printf(t, "%u", BITS(d, 13, 8));
		eu_text_puts(t, ")");
		break;
	}
	case EU_SFID_DP_DC1:
		dc1(t, d, &space);
		break;
	case EU_SFID_PI:
		eu_text_printf(t, " (%s, %s, 0x%02x)", BITS(d, 14, 14) ? "linear" : "persp",
			       pi_msgs[BITS(d, 13, 12)], BITS(d, 7, 0));
		break;
	default:
		eu_text_printf(t, "unsupported shared function ID %u", in->sfid);
		break;
	}
	if (space)
		eu_text_puts(t, " ");
	eu_text_printf(t, "mlen %u", BITS(d, 28, 25));
	if (split && !in->ex_desc_is_reg)
		eu_text_printf(t, " ex_mlen %u", BITS(in->ex_desc, 9, 6));
	eu_text_printf(t, " rlen %u", BITS(d, 24, 20));
}
