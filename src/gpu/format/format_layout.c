/* The layout of every format, read from its name once (format_list.h):
 * channel letters with widths from the lowest bit up, each run of channels
 * followed by its numeric type, e.g. R10G10B10_SNORM_A2_UNORM. */
#include "gpu/format/format.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct fmt_info table[FMT_NUM];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static const struct { const char *name; uint16_t number; } names[] = {
#define FMT_NAME(n, num) { #n, num },
	FORMAT_LIST(FMT_NAME)
#undef FMT_NAME
};

static int type_from_word(const char *w)
{
	static const struct { const char *w; int t; } words[] = {
		{ "UNORM", FMT_T_UNORM }, { "SNORM", FMT_T_SNORM },
		{ "UINT", FMT_T_UINT }, { "SINT", FMT_T_SINT },
		{ "FLOAT", FMT_T_FLOAT }, { "USCALED", FMT_T_USCALED },
		{ "SSCALED", FMT_T_SSCALED }, { "SFIXED", FMT_T_SFIXED },
		{ "PASSTHRU", FMT_T_PASSTHRU }, { "TYPELESS", FMT_T_X },
		{ "SHAREDEXP", FMT_T_FLOAT },
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i].w))
			return words[i].t;
	return -1;
}

/* A float width the conversions know: half, single, double, and the
 * unsigned 11/10-bit floats of R11G11B10_FLOAT. */
static bool float_width_ok(int bits, bool shared_exp)
{
	return bits == 16 || bits == 32 || bits == 64 || shared_exp ||
	       bits == 11 || bits == 10;
}

static void parse(struct fmt_info *fi)
{
	char buf[64];
	struct fmt_channel pending[4];
	int slot_of_pending[4], npending = 0, shift = 0, letters = 0;
	bool ok = true, has_rgb = false, has_l = false, has_i = false, has_a = false;

	strncpy(buf, fi->name, sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = 0;
	for (char *save = NULL, *tok = strtok_r(buf, "_", &save); tok && ok;
	     tok = strtok_r(NULL, "_", &save)) {
		int t = type_from_word(tok);
		if (t >= 0) {
			if (!npending)
				ok = false;
			for (int k = 0; k < npending; k++) {
				int s = slot_of_pending[k];
				int type = pending[k].type == FMT_T_X ? FMT_T_X : t;
				if (type == FMT_T_FLOAT &&
				    !float_width_ok(pending[k].bits, fi->shared_exp))
					ok = false;
				if (s >= 0) {
					fi->ch[s] = pending[k];
					fi->ch[s].type = (uint8_t)type;
				}
			}
			npending = 0;
			continue;
		}
		if (!strcmp(tok, "SRGB")) { fi->srgb = true; continue; }
		if (!strcmp(tok, "LD")) continue;   /* R32G32_FLOAT_LD: same bits */
		/* A run of channels: letter + width, repeated. */
		for (const char *p = tok; *p && ok; ) {
			char letter = *p++;
			if (!isdigit((unsigned char)*p)) { ok = false; break; }
			int bits = (int)strtol(p, (char **)&p, 10);
			int slot;
			uint8_t type = 0;
			switch (letter) {
			case 'R': slot = 0; has_rgb = true; break;
			case 'G': slot = 1; has_rgb = true; break;
			case 'B': slot = 2; has_rgb = true; break;
			case 'A': slot = 3; has_a = true; break;
			case 'L': slot = 0; has_l = true; break;
			case 'I': slot = 0; has_i = true; break;
			case 'X': slot = -1; type = FMT_T_X; break;
			case 'E': slot = -1; type = FMT_T_X; fi->shared_exp = true; break;
			default: ok = false; slot = -1; break; /* P, Y: palette, YUV */
			}
			if (npending == 4 || bits <= 0 || bits > 64) { ok = false; break; }
			pending[npending] = (struct fmt_channel){ type, (uint8_t)bits, (uint8_t)shift };
			slot_of_pending[npending++] = slot;
			shift += bits;
			letters++;
		}
	}
	if (npending || !letters || shift % 8 || shift > 256)
		ok = false;
	fi->bpe = (uint16_t)shift;
	fi->kind = has_i ? FMT_INTENSITY : has_l ? FMT_LUMINANCE :
		   (has_a && !has_rgb) ? FMT_ALPHA : FMT_RGBA;
	fi->supported = ok;
	if (!ok)
		memset(fi->ch, 0, sizeof(fi->ch));
	fi->raw32 = ok && fi->kind == FMT_RGBA && !fi->srgb && !fi->shared_exp;
	int present = 0;
	for (int c = 0; c < 4; c++)
		present += fi->ch[c].bits != 0;
	if (fi->bpe != 32 * present)     /* padding (X32, TYPELESS) is not copied */
		fi->raw32 = false;
	for (int c = 0; c < 4 && fi->raw32; c++) {
		const struct fmt_channel *ch = &fi->ch[c];
		bool plain = ch->type == FMT_T_FLOAT || ch->type == FMT_T_UINT ||
			     ch->type == FMT_T_SINT;
		if (ch->bits && !(plain && ch->bits == 32 && ch->shift == 32 * c))
			fi->raw32 = false;
	}
}

/* Every present channel UINT or SINT (and at least one). */
static bool integer_channels(const struct fmt_info *fi)
{
	bool any = false;
	for (int c = 0; c < 4; c++) {
		uint8_t t = fi->ch[c].type;
		if (t == FMT_T_NONE || t == FMT_T_X)
			continue;
		if (t != FMT_T_UINT && t != FMT_T_SINT)
			return false;
		any = true;
	}
	return any;
}

static void build_table(void)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct fmt_info *fi = &table[names[i].number];
		fi->name = names[i].name;
		fi->number = names[i].number;
		parse(fi);
		fi->integer = integer_channels(fi);
		fi->bw = fi->bh = 1;
		format_compressed_describe(fi);
	}
}

const struct fmt_info *format_info(uint32_t number)
{
	pthread_once(&table_once, build_table);
	if (number >= FMT_NUM || !table[number].name)
		return NULL;
	return &table[number];
}

const char *format_name(uint32_t number)
{
	const struct fmt_info *fi = format_info(number);
	return fi ? fi->name : "?";
}


bool format_is_integer(const struct fmt_info *fi)
{
	return fi->integer;
}

bool format_has_narrow_channel(const struct fmt_info *fi)
{
	for (int c = 0; c < 4; c++)
		if (fi->ch[c].bits && fi->ch[c].bits < 8 && fi->ch[c].type != FMT_T_X)
			return true;
	return false;
}

uint8_t format_class(const struct fmt_info *fi)
{
	for (int c = 0; c < 4; c++)
		if (fi->ch[c].bits && fi->ch[c].type != FMT_T_X)
			return fi->ch[c].type;
	return FMT_T_NONE;
}
