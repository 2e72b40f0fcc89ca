/* The batch decoder (decode.h). */
#include "gpu/cmd/decode.h"

#include <inttypes.h>
#include <string.h>

const char *cmd_format_value(const struct cmd_field *f, uint64_t v,
			     char *buf, size_t size)
{
	unsigned width = (unsigned)(f->end - f->start + 1);
	switch (f->type) {
	case CMD_T_BOOL:
		snprintf(buf, size, "%s", v ? "true" : "false");
		break;
	case CMD_T_INT:
		snprintf(buf, size, "%" PRId64, (int64_t)v);
		break;
	case CMD_T_ADDRESS:
	case CMD_T_OFFSET:
		snprintf(buf, size, "0x%08" PRIx64, v);
		break;
	case CMD_T_FLOAT: {
		union { uint32_t u; float f; } u = { .u = (uint32_t)v };
		snprintf(buf, size, "%f", (double)u.f);
		break;
	}
	case CMD_T_UFIXED:
		snprintf(buf, size, "%f", (double)v / (double)(1ull << f->frac));
		break;
	case CMD_T_SFIXED:
		snprintf(buf, size, "%f", (double)(int64_t)v / (double)(1ull << f->frac));
		break;
	case CMD_T_ENUM: {
		const char *name = cmd_value_name(f, v);
		if (name)
			snprintf(buf, size, "%" PRIu64 " (%s)", v, name);
		else
			snprintf(buf, size, "%" PRIu64, v);
		break;
	}
	case CMD_T_STRUCT:
		snprintf(buf, size, "<struct %s>", f->sub ? f->sub->name : "?");
		break;
	default:
		snprintf(buf, size, "%" PRIu64, v);
		break;
	}
	(void)width;
	return buf;
}

/* A field of dword 0 that identifies the command (opcode, type). */
static bool is_header(const struct cmd_desc *d, const struct cmd_field *f)
{
	if (f->in_group || f->end >= 32)
		return false;
	uint32_t bits = (uint32_t)(((1ull << (f->end - f->start + 1)) - 1) << f->start);
	return (d->mask & bits) != 0;
}

struct printer {
	FILE *out;
	uint64_t addr;        /* of dw[0] */
	const uint32_t *dw;
	uint32_t len;
	int64_t last_dword;
};

static void dword_headers(struct printer *p, uint64_t upto)
{
	for (int64_t i = p->last_dword + 1; i <= (int64_t)upto && i < p->len; i++)
		fprintf(p->out, "0x%08" PRIx64 ":  0x%08x : Dword %" PRId64 "\n",
			p->addr + 4 * (uint64_t)i, p->dw[i], i);
	if ((int64_t)upto > p->last_dword)
		p->last_dword = (int64_t)upto;
}

static void print_fields(struct printer *p, const struct cmd_desc *d,
			 uint64_t base_bit, int depth);

static void print_field(struct printer *p, const struct cmd_desc *d,
			const struct cmd_field *f, uint64_t bit0,
			const char *suffix, int depth)
{
	char name[128], value[160];
	uint64_t v = cmd_field_value_at(f, p->dw, p->len, bit0);

	dword_headers(p, (bit0 + f->end) / 32);
	if (is_header(d, f) && depth == 0)
		return;
	snprintf(name, sizeof(name), "%s%s", f->name, suffix);
	if (f->type == CMD_T_STRUCT && f->sub) {
		fprintf(p->out, "    %s: <struct %s>\n", name, f->sub->name);
		if (depth < 4) {
			/* The nested structure prints its own dwords. */
			print_fields(p, f->sub, bit0 + f->start, depth + 1);
		}
		return;
	}
	fprintf(p->out, "    %s: %s\n", name, cmd_format_value(f, v, value, sizeof(value)));
}

static void print_fields(struct printer *p, const struct cmd_desc *d,
			 uint64_t base_bit, int depth)
{
	for (uint32_t i = 0; i < d->num_fields; ) {
		const struct cmd_field *f = &d->fields[i];
		if (!f->in_group) {
			if (base_bit + f->start < (uint64_t)p->len * 32)
				print_field(p, d, f, base_bit, "", depth);
			i++;
			continue;
		}
		/* A run of fields of one group: element by element. */
		uint32_t run = i;
		while (run < d->num_fields && d->fields[run].in_group &&
		       d->fields[run].group_start == f->group_start)
			run++;
		uint64_t avail = (uint64_t)p->len * 32 > base_bit ?
			(uint64_t)p->len * 32 - base_bit : 0;
		uint32_t count = cmd_group_count(f, (uint32_t)((avail + 31) / 32));
		for (uint32_t k = 0; k < count && k < 4096; k++) {
			uint64_t elem = base_bit + f->group_start + (uint64_t)k * f->group_size;
			if (elem >= (uint64_t)p->len * 32)
				break;
			char suffix[16];
			snprintf(suffix, sizeof(suffix), "[%u]", k);
			for (uint32_t j = i; j < run; j++)
				print_field(p, d, &d->fields[j], elem, suffix, depth);
		}
		i = run;
	}
}

void cmd_decode_print(FILE *f, const struct cmd_desc *d, uint64_t addr,
		      const uint32_t *dw, uint32_t len)
{
	struct printer p = { f, addr, dw, len, -1 };

	fprintf(f, "0x%08" PRIx64 ":  0x%08x:  %s\n", addr, len ? dw[0] : 0, d->name);
	print_fields(&p, d, 0, 0);
	dword_headers(&p, len ? len - 1 : 0);
}

int cmd_decode_buffer(FILE *f, int gen, enum gt_engine_id engine, uint64_t addr,
		      const uint32_t *dw, uint32_t n)
{
	int count = 0;
	for (uint32_t i = 0; i < n; ) {
		const struct cmd_desc *d = cmd_find(gen, engine, dw[i]);
		if (!d) {
			fprintf(f, "0x%08" PRIx64 ":  0x%08x:  unknown command on %s\n",
				addr + 4 * (uint64_t)i, dw[i], engine_name(engine));
			return -1;
		}
		uint32_t len = cmd_length(d, dw[i]);
		if (len > n - i) {
			fprintf(f, "0x%08" PRIx64 ":  0x%08x:  %s runs past the end "
				"(%u dwords, %u left)\n", addr + 4 * (uint64_t)i, dw[i],
				d->name, len, n - i);
			return -1;
		}
		cmd_decode_print(f, d, addr + 4 * (uint64_t)i, dw + i, len);
		count++;
		i += len;
		if (!strcmp(d->name, "MI_BATCH_BUFFER_END"))
			break;
	}
	return count;
}
