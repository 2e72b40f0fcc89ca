/* Gen8/Gen9 instruction compaction (PRM vol. 7, "EU Compact Instruction
 * Format"): a 64-bit form whose control, data type, subregister and source
 * region fields are indices into fixed tables (compact_tables.c). An
 * instruction is compacted only when uncompacting gives back exactly the
 * same 128 bits. */
#include <string.h>

#include "gpu/eu/compact_tables.h"
#include "gpu/eu/isa.h"
#include "gpu/eu/isa_bits.h"

static int find32(const uint32_t *t, int n, uint64_t v)
{
	for (int i = 0; i < n; i++)
		if (t[i] == v)
			return i;
	return -1;
}

static int find16(const uint16_t *t, int n, uint64_t v)
{
	for (int i = 0; i < n; i++)
		if (t[i] == v)
			return i;
	return -1;
}

static bool is_3src(int gen, unsigned opcode)
{
	const struct eu_opcode_info *op = eu_opcode_lookup(gen, opcode);
	return op && op->kind == EU_KIND_ALU3;
}

/* The immediate, if any: in src0 or src1 (file 3). */
static bool imm_type(const uint64_t q[2], int *type)
{
	if (isa_get(q, 42, 41) == EU_FILE_IMM)
		*type = eu_type_from_hw((unsigned)isa_get(q, 46, 43), true);
	else if (isa_get(q, 90, 89) == EU_FILE_IMM)
		*type = eu_type_from_hw((unsigned)isa_get(q, 94, 91), true);
	else
		return false;
	return true;
}

static bool compact_3src(int gen, const uint64_t q[2], uint64_t *c)
{
	uint64_t ctl = isa_get(q, 34, 32) << 21 | isa_get(q, 28, 8);
	if (gen >= 9)
		ctl |= isa_get(q, 36, 35) << 24;
	uint64_t src = isa_get(q, 83, 83) << 43 | isa_get(q, 114, 107) << 35 |
		       isa_get(q, 93, 86) << 27 | isa_get(q, 72, 65) << 19 |
		       isa_get(q, 55, 37);
	if (gen >= 9)
		src |= isa_get(q, 126, 125) << 47 | isa_get(q, 105, 104) << 45 |
		       isa_get(q, 84, 84) << 44;
	else
		src |= isa_get(q, 125, 125) << 45 | isa_get(q, 104, 104) << 44;
	int ci = find32(eu_cmpt_3src_control_table, 4, ctl), si = -1;
	for (int i = 0; i < 4; i++)
		if (eu_cmpt_3src_source_table[i] == src)
			si = i;
	if (ci < 0 || si < 0)
		return false;
	uint64_t v = 0;
	isa_set64(&v, 6, 0, isa_get(q, 6, 0));
	isa_set64(&v, 9, 8, (uint64_t)ci);
	isa_set64(&v, 11, 10, (uint64_t)si);
	isa_set64(&v, 18, 12, isa_get(q, 63, 56));         /* dst reg */
	isa_set64(&v, 28, 28, isa_get(q, 64, 64));         /* src0 rep */
	isa_set64(&v, 29, 29, 1);
	isa_set64(&v, 30, 30, isa_get(q, 30, 30));
	isa_set64(&v, 31, 31, isa_get(q, 31, 31));
	isa_set64(&v, 32, 32, isa_get(q, 85, 85));         /* src1 rep */
	isa_set64(&v, 33, 33, isa_get(q, 106, 106));       /* src2 rep */
	isa_set64(&v, 36, 34, isa_get(q, 75, 73));         /* subregs */
	isa_set64(&v, 39, 37, isa_get(q, 96, 94));
	isa_set64(&v, 42, 40, isa_get(q, 117, 115));
	isa_set64(&v, 49, 43, isa_get(q, 83, 76));         /* reg numbers */
	isa_set64(&v, 56, 50, isa_get(q, 104, 97));
	isa_set64(&v, 63, 57, isa_get(q, 125, 118));
	*c = v;
	return true;
}

static void uncompact_3src(int gen, uint64_t c, uint64_t q[2])
{
	uint64_t ctl = eu_cmpt_3src_control_table[isa_get64(c, 9, 8)];
	uint64_t src = eu_cmpt_3src_source_table[isa_get64(c, 11, 10)];
	isa_set(q, 6, 0, isa_get64(c, 6, 0));
	isa_set(q, 34, 32, ctl >> 21);
	isa_set(q, 28, 8, ctl);
	if (gen >= 9)
		isa_set(q, 36, 35, ctl >> 24);
	isa_set(q, 83, 83, src >> 43);
	isa_set(q, 114, 107, src >> 35);
	isa_set(q, 93, 86, src >> 27);
	isa_set(q, 72, 65, src >> 19);
	isa_set(q, 55, 37, src);
	if (gen >= 9) {
		isa_set(q, 126, 125, src >> 47);
		isa_set(q, 105, 104, src >> 45);
		isa_set(q, 84, 84, src >> 44);
	} else {
		isa_set(q, 125, 125, src >> 45);
		isa_set(q, 104, 104, src >> 44);
	}
	isa_set(q, 63, 56, isa_get64(c, 18, 12));
	isa_set(q, 64, 64, isa_get64(c, 28, 28));
	isa_set(q, 30, 30, isa_get64(c, 30, 30));
	isa_set(q, 31, 31, isa_get64(c, 31, 31));
	isa_set(q, 85, 85, isa_get64(c, 32, 32));
	isa_set(q, 106, 106, isa_get64(c, 33, 33));
	isa_set(q, 75, 73, isa_get64(c, 36, 34));
	isa_set(q, 96, 94, isa_get64(c, 39, 37));
	isa_set(q, 117, 115, isa_get64(c, 42, 40));
	isa_set(q, 83, 76, isa_get64(c, 49, 43));
	isa_set(q, 104, 97, isa_get64(c, 56, 50));
	isa_set(q, 125, 118, isa_get64(c, 63, 57));
	isa_set(q, 29, 29, 0);
}

/* 13-bit immediates: 12 bits kept, the 13th replicated upwards. */
static int compact_imm(uint32_t imm)
{
	int32_t s = (int32_t)imm;
	return (s >> 12 == 0 || s >> 12 == -1) ? (int)(imm & 0x1fff) : -1;
}

static bool compact_2src(const uint64_t q[2], uint64_t *c)
{
	int type = -1;
	bool imm = imm_type(q, &type);
	int cimm = 0;
	if (imm) {
		if (type < 0 || eu_type_size((unsigned)type) == 8)
			return false;
		cimm = compact_imm((uint32_t)isa_get(q, 127, 96));
		if (cimm < 0)
			return false;
	}
	/* EOT, NibCtrl, Dst/Src0 AddrImm[9] and UIP[31] have no place. */
	if (isa_get(q, 127, 127) && !imm)
		return false;
	if (isa_get(q, 95, 95) || isa_get(q, 47, 47) || isa_get(q, 11, 11))
		return false;
	uint64_t ctl = isa_get(q, 33, 31) << 16 | isa_get(q, 23, 12) << 4 |
		       isa_get(q, 10, 9) << 2 | isa_get(q, 34, 34) << 1 | isa_get(q, 8, 8);
	uint64_t dt = isa_get(q, 63, 61) << 18 | isa_get(q, 94, 89) << 12 |
		      isa_get(q, 46, 35);
	uint64_t sub = isa_get(q, 52, 48) | isa_get(q, 68, 64) << 5;
	if (!imm)
		sub |= isa_get(q, 100, 96) << 10;
	int ci = find32(eu_cmpt_control_table, 32, ctl);
	int di = find32(eu_cmpt_datatype_table, 32, dt);
	int si = find16(eu_cmpt_subreg_table, 32, sub);
	int s0 = find16(eu_cmpt_src_table, 32, isa_get(q, 88, 77));
	int s1 = imm ? cimm >> 8 : find16(eu_cmpt_src_table, 32, isa_get(q, 120, 109));
	if (ci < 0 || di < 0 || si < 0 || s0 < 0 || s1 < 0)
		return false;
	uint64_t v = 0;
	isa_set64(&v, 6, 0, isa_get(q, 6, 0));
	isa_set64(&v, 7, 7, isa_get(q, 30, 30));
	isa_set64(&v, 12, 8, (uint64_t)ci);
	isa_set64(&v, 17, 13, (uint64_t)di);
	isa_set64(&v, 22, 18, (uint64_t)si);
	isa_set64(&v, 23, 23, isa_get(q, 28, 28));
	isa_set64(&v, 27, 24, isa_get(q, 27, 24));
	isa_set64(&v, 29, 29, 1);
	isa_set64(&v, 34, 30, (uint64_t)s0);
	isa_set64(&v, 39, 35, (uint64_t)s1);
	isa_set64(&v, 47, 40, isa_get(q, 60, 53));
	isa_set64(&v, 55, 48, isa_get(q, 76, 69));
	isa_set64(&v, 63, 56, imm ? (uint64_t)(cimm & 0xff) : isa_get(q, 108, 101));
	*c = v;
	return true;
}

static void uncompact_2src(uint64_t c, uint64_t q[2])
{
	uint64_t ctl = eu_cmpt_control_table[isa_get64(c, 12, 8)];
	uint64_t dt = eu_cmpt_datatype_table[isa_get64(c, 17, 13)];
	uint64_t sub = eu_cmpt_subreg_table[isa_get64(c, 22, 18)];
	isa_set(q, 6, 0, isa_get64(c, 6, 0));
	isa_set(q, 30, 30, isa_get64(c, 7, 7));
	isa_set(q, 33, 31, ctl >> 16);
	isa_set(q, 23, 12, ctl >> 4);
	isa_set(q, 10, 9, ctl >> 2);
	isa_set(q, 34, 34, ctl >> 1);
	isa_set(q, 8, 8, ctl);
	isa_set(q, 63, 61, dt >> 18);
	isa_set(q, 94, 89, dt >> 12);
	isa_set(q, 46, 35, dt);
	isa_set(q, 100, 96, sub >> 10);
	isa_set(q, 68, 64, sub >> 5);
	isa_set(q, 52, 48, sub);
	isa_set(q, 88, 77, eu_cmpt_src_table[isa_get64(c, 34, 30)]);
	int type;
	if (imm_type(q, &type)) {
		uint32_t cimm = (uint32_t)(isa_get64(c, 39, 35) << 8 | isa_get64(c, 63, 56));
		isa_set(q, 127, 96, (uint32_t)((int32_t)(cimm << 19) >> 19));
	} else {
		isa_set(q, 120, 109, eu_cmpt_src_table[isa_get64(c, 39, 35)]);
		isa_set(q, 108, 101, isa_get64(c, 63, 56));
	}
	isa_set(q, 28, 28, isa_get64(c, 23, 23));
	isa_set(q, 27, 24, isa_get64(c, 27, 24));
	isa_set(q, 60, 53, isa_get64(c, 47, 40));
	isa_set(q, 76, 69, isa_get64(c, 55, 48));
}

int eu_uncompact(int gen, uint64_t c, uint64_t q[2])
{
	q[0] = q[1] = 0;
	if ((gen != 8 && gen != 9) || !isa_get64(c, 29, 29))
		return -1;
	if (is_3src(gen, (unsigned)isa_get64(c, 6, 0)))
		uncompact_3src(gen, c, q);
	else
		uncompact_2src(c, q);
	return 0;
}

bool eu_compact(int gen, const uint64_t q[2], uint64_t *c)
{
	uint64_t v, back[2];
	if ((gen != 8 && gen != 9) || isa_get(q, 29, 29))
		return false;
	bool ok = is_3src(gen, (unsigned)isa_get(q, 6, 0)) ? compact_3src(gen, q, &v)
							   : compact_2src(q, &v);
	if (!ok || eu_uncompact(gen, v, back) || back[0] != q[0] || back[1] != q[1])
		return false;
	*c = v;
	return true;
}
