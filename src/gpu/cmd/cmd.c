/* Lookups in the command tables and field access (cmd.h). */
#include "gpu/cmd/cmd.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern const struct cmd_table cmd_table_gen8;
extern const struct cmd_table cmd_table_gen9;

const struct cmd_table *cmd_table(int gen)
{
	switch (gen) {
	case 8: return &cmd_table_gen8;
	case 9: return &cmd_table_gen9;
	default: return NULL;
	}
}

/* Every header mask covers only bits 31:16, so the top 16 bits of dw0 pick
 * the command: per generation and engine, an index from dw0 >> 16 to
 * 1 + the command's position (0: none). Built once. */
static uint16_t *index_of[2][GT_NUM_ENGINES + 1];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
	for (int g = 0; g < 2; g++) {
		const struct cmd_table *t = cmd_table(8 + g);
		for (int e = 0; e <= GT_NUM_ENGINES; e++) {
			uint16_t *idx = calloc(65536, sizeof(uint16_t));
			if (!idx)
				continue;
			unsigned engines = e == GT_NUM_ENGINES ? CMD_ALL : 1u << e;
			for (uint32_t i = 0; i < t->num_cmds; i++) {
				const struct cmd_desc *d = &t->cmds[i];
				if (!(d->engines & engines))
					continue;
				uint32_t m = d->mask >> 16, v = d->match >> 16;
				/* Enumerate every top half that matches. */
				uint32_t free_bits = ~m & 0xffff;
				uint32_t sub = 0;
				do {
					uint32_t key = v | sub;
					if (!idx[key])
						idx[key] = (uint16_t)(i + 1);
					sub = (sub - free_bits) & free_bits;
				} while (sub);
			}
			index_of[g][e] = idx;
		}
	}
}

static const struct cmd_desc *find(int gen, int engine, uint32_t dw0)
{
	const struct cmd_table *t = cmd_table(gen);
	if (!t || engine < 0 || engine > GT_NUM_ENGINES)
		return NULL;
	pthread_once(&index_once, build_index);
	const uint16_t *idx = index_of[gen - 8][engine];
	if (!idx)
		return NULL;
	uint16_t i = idx[dw0 >> 16];
	return i ? &t->cmds[i - 1] : NULL;
}

const struct cmd_desc *cmd_find(int gen, enum gt_engine_id engine, uint32_t dw0)
{
	if ((unsigned)engine >= GT_NUM_ENGINES)
		return NULL;
	return find(gen, engine, dw0);
}

const struct cmd_desc *cmd_find_any(int gen, uint32_t dw0)
{
	return find(gen, GT_NUM_ENGINES, dw0);
}

const struct cmd_desc *cmd_find_id(int gen, unsigned id)
{
	const struct cmd_table *t = cmd_table(gen);
	for (unsigned i = 0; t && i < t->num_cmds; i++)
		if (t->cmds[i].id == id)
			return &t->cmds[i];
	return NULL;
}

uint32_t cmd_length(const struct cmd_desc *d, uint32_t dw0)
{
	if (!d->len_mask)
		return d->length ? d->length : d->bias;
	uint32_t shift = (uint32_t)__builtin_ctz(d->len_mask);
	return ((dw0 & d->len_mask) >> shift) + d->bias;
}

uint32_t cmd_length_field(const struct cmd_desc *d, uint32_t dwords)
{
	return dwords >= d->bias ? dwords - d->bias : 0;
}

uint32_t cmd_group_count(const struct cmd_field *f, uint32_t len)
{
	if (!f->in_group)
		return 1;
	if (f->group_count)
		return f->group_count;
	uint64_t bits = (uint64_t)len * 32;
	if (bits <= f->group_start || !f->group_size)
		return 0;
	return (uint32_t)((bits - f->group_start) / f->group_size);
}

/* Absolute bit position of the field's start, element index. */
static uint64_t field_base(const struct cmd_field *f, uint32_t index)
{
	return f->in_group ? f->group_start + (uint64_t)index * f->group_size : 0;
}

uint64_t cmd_field_bit(const struct cmd_field *f, uint32_t index)
{
	return field_base(f, index) + f->start;
}

static uint32_t dword_at(const uint32_t *dw, uint32_t len, uint64_t n)
{
	return n < len ? dw[n] : 0;
}

uint64_t cmd_field_value(const struct cmd_field *f, const uint32_t *dw,
			 uint32_t len, uint32_t index)
{
	return cmd_field_value_at(f, dw, len, field_base(f, index));
}

uint64_t cmd_field_value_at(const struct cmd_field *f, const uint32_t *dw,
			    uint32_t len, uint64_t base_bit)
{
	uint64_t start = base_bit + f->start;
	uint64_t end = base_bit + f->end;
	uint64_t first = start / 32;
	unsigned width = (unsigned)(end - start + 1);
	if (width > 64)
		width = 64;
	/* Gather up to three dwords so a 64-bit field at any bit fits. */
	unsigned __int128 w = (unsigned __int128)dword_at(dw, len, first) |
		(unsigned __int128)dword_at(dw, len, first + 1) << 32 |
		(unsigned __int128)dword_at(dw, len, first + 2) << 64;
	unsigned lo = (unsigned)(start % 32);
	uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
	uint64_t v = (uint64_t)(w >> lo) & mask;

	switch (f->type) {
	case CMD_T_ADDRESS:
	case CMD_T_OFFSET:
		/* In place: the bits below start are the address's low bits. */
		return v << lo;
	case CMD_T_INT:
	case CMD_T_SFIXED:
		if (width < 64 && (v >> (width - 1)) & 1)
			v |= ~mask;
		return v;
	default:
		return v;
	}
}

int cmd_field_pack(const struct cmd_field *f, uint32_t *dw, uint32_t len,
		   uint32_t index, uint64_t value)
{
	uint64_t start = field_base(f, index) + f->start;
	uint64_t end = field_base(f, index) + f->end;
	unsigned width = (unsigned)(end - start + 1);
	if (width > 64 || end / 32 >= len)
		return -1;
	unsigned lo = (unsigned)(start % 32);
	uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;

	if (f->type == CMD_T_ADDRESS || f->type == CMD_T_OFFSET) {
		if (value & ((1ull << lo) - 1))
			return -1; /* misaligned for this field */
		value >>= lo;
	} else if (f->type == CMD_T_INT || f->type == CMD_T_SFIXED) {
		int64_t s = (int64_t)value;
		if (width < 64 && (s < -(1ll << (width - 1)) || s >= (1ll << (width - 1))))
			return -1;
		value &= mask;
	}
	if (value & ~mask)
		return -1;
	for (uint64_t bit = 0; bit < width; ) {
		uint64_t pos = start + bit;
		uint32_t n = (uint32_t)(pos / 32), b = (uint32_t)(pos % 32);
		uint32_t take = 32 - b;
		if (take > width - bit)
			take = (uint32_t)(width - bit);
		uint32_t m = take == 32 ? ~0u : ((1u << take) - 1) << b;
		dw[n] = (dw[n] & ~m) | ((uint32_t)(value >> bit) << b & m);
		bit += take;
	}
	return 0;
}

void cmd_init(const struct cmd_desc *d, uint32_t *dw, uint32_t len)
{
	memset(dw, 0, len * sizeof(uint32_t));
	if (!len)
		return;
	dw[0] = d->match;
	if (d->len_mask) {
		uint32_t shift = (uint32_t)__builtin_ctz(d->len_mask);
		dw[0] |= (cmd_length_field(d, len) << shift) & d->len_mask;
	}
}

const char *cmd_value_name(const struct cmd_field *f, uint64_t v)
{
	for (uint32_t i = 0; i < f->num_values; i++)
		if (f->values[i].value == v)
			return f->values[i].name;
	return NULL;
}
