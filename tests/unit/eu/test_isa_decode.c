/* Decoder and encoder rules checked against the PRM by hand:
 * - field decoding of a known instruction (Mesa vector mov.sat, PRM bit
 *   positions computed by hand);
 * - undefined opcodes, reserved region/type/file encodings and short
 *   buffers are rejected (-1), never read past the buffer;
 * - random bytes never crash the decoder, the disassembler or the encoder;
 * - eu_encode_best compacts a 0.0F move and a small D move (the tables
 *   hold imm:VF and imm:UD forms) and keeps their meaning;
 * - the program decoder stops at the first bad offset. */
#include "test.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/isa.h"

/* mov.sat(8) g124<1>F g8<8,8,1>F { align1 1Q } (Mesa gen8 mov vector 5) */
static const uint8_t mov_sat[16] = { 0x01, 0x00, 0x60, 0x80, 0xe8, 0x3a, 0x80, 0x2f,
				     0x00, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00 };

static void fields(void)
{
	struct eu_inst in;
	size_t used = 0;
	CHECK_EQ(eu_decode(8, mov_sat, 16, &in, &used), 0);
	CHECK_EQ(used, 16);
	CHECK_EQ(in.opcode, EU_OP_MOV);      /* bits 6:0 = 1 */
	CHECK_EQ(in.exec_size, 8);           /* bits 23:21 = 3 */
	CHECK(in.saturate);                  /* bit 31 */
	CHECK_EQ(in.dst.file, EU_FILE_GRF);  /* bits 36:35 = 1 */
	CHECK_EQ(in.dst.type, EU_TYPE_F);    /* bits 40:37 = 7 */
	CHECK_EQ(in.dst.nr, 124);            /* bits 60:53 */
	CHECK_EQ(in.dst.hstride, 1);         /* bits 62:61 = 1 */
	CHECK_EQ(in.src[0].nr, 8);           /* bits 76:69 */
	CHECK_EQ(in.src[0].vstride, 8);      /* bits 88:85 = 4 */
	CHECK_EQ(in.src[0].width, 8);        /* bits 84:82 = 3 */
	CHECK_EQ(in.src[0].hstride, 1);      /* bits 81:80 = 1 */
	uint8_t out[16];
	CHECK_EQ(eu_encode(8, &in, out, false), 16);
	CHECK(!memcmp(out, mov_sat, 16));
}

static void rejects(void)
{
	struct eu_inst in;
	uint8_t b[16];
	size_t used;
	memcpy(b, mov_sat, 16);
	CHECK_EQ(eu_decode(8, b, 15, &in, &used), -1);      /* short buffer */
	CHECK_EQ(eu_decode(8, b, 7, &in, &used), -1);
	CHECK_EQ(eu_decode(8, NULL, 16, &in, &used), -1);
	b[0] = 0x7f;                                         /* undefined opcode */
	CHECK_EQ(eu_decode(8, b, 16, &in, &used), -1);
	b[0] = 0x33;                                         /* sends: gen9 only */
	CHECK_EQ(eu_decode(8, b, 16, &in, &used), -1);
	for (int gen = 8; gen <= 9; gen++) {
		b[0] = 0x0e;                                 /* ror: gen11+ */
		CHECK_EQ(eu_decode(gen, b, 16, &in, &used), -1);
		b[0] = 0x0f;                                 /* rol: gen11+ */
		CHECK_EQ(eu_decode(gen, b, 16, &in, &used), -1);
		b[0] = 0x0a;                                 /* smov: defined */
		CHECK_EQ(eu_decode(gen, b, 16, &in, &used), 0);
		CHECK_EQ(in.opcode, EU_OP_SMOV);
	}
	b[0] = 0x00;                                         /* illegal */
	CHECK_EQ(eu_decode(8, b, 16, &in, &used), -1);
	memcpy(b, mov_sat, 16);
	b[10] = 0xed;                                        /* vstride 7: reserved */
	CHECK_EQ(eu_decode(8, b, 16, &in, &used), -1);
	memcpy(b, mov_sat, 16);
	b[4] = (uint8_t)((b[4] & ~0x18) | 0x10);              /* dst file 2 (MRF) */
	CHECK_EQ(eu_decode(8, b, 16, &in, &used), -1);
	memcpy(b, mov_sat, 16);
	b[2] = 0xc0;                                         /* exec size 6: reserved */
	CHECK_EQ(eu_decode(8, b, 16, &in, &used), -1);
	CHECK_EQ(eu_decode(7, mov_sat, 16, &in, &used), -1); /* unsupported gen */
}

static void fuzz(void)
{
	uint64_t x = 12345;
	uint8_t b[16];
	int ok = 0;
	for (int i = 0; i < 200000; i++) {
		for (int k = 0; k < 16; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			b[k] = (uint8_t)(x >> 56);
		}
		if (i & 1)
			b[0] &= 0x7f;
		struct eu_inst in;
		size_t used;
		int gen = 8 + (i & 1);
		size_t avail = (size_t)(i % 17);
		if (eu_decode(gen, b, avail, &in, &used) == 0) {
			CHECK(used <= avail);
			ok++;
			struct eu_text t = { 0 };
			eu_disasm_inst(&t, gen, &in, 0, NULL, NULL);
			CHECK(t.buf && strchr(t.buf, ';'));
			eu_text_free(&t);
			uint8_t out[16];
			eu_encode(gen, &in, out, true);
		}
	}
	CHECK(ok > 1000);
}

static void best(void)
{
	struct eu_inst in = { 0 };
	in.opcode = EU_OP_MOV;
	in.exec_size = 8;
	in.num_srcs = 1;
	in.dst.file = EU_FILE_GRF; in.dst.nr = 10; in.dst.type = EU_TYPE_F; in.dst.hstride = 1;
	in.src[0].file = EU_FILE_IMM; in.src[0].type = EU_TYPE_F; in.src[0].imm = 0;
	in.src[1].type = EU_TYPE_F;
	uint8_t out[16];
	CHECK_EQ(eu_encode(8, &in, out, true), 16);   /* as written: no table entry */
	CHECK_EQ(eu_encode_best(8, &in, out), 8);
	struct eu_inst d;
	size_t used;
	CHECK_EQ(eu_decode(8, out, 8, &d, &used), 0);
	CHECK_EQ(d.src[0].type, EU_TYPE_VF);          /* four 0.0 lanes */
	CHECK_EQ(d.src[0].imm, 0);
	CHECK_EQ(d.dst.nr, 10);

	in.dst.type = EU_TYPE_D;
	in.src[0].type = EU_TYPE_D;
	in.src[0].imm = (uint32_t)-5;
	CHECK_EQ(eu_encode_best(8, &in, out), 8);
	CHECK_EQ(eu_decode(8, out, 8, &d, &used), 0);
	CHECK_EQ(d.src[0].imm, 0xfffffffb);           /* 13-bit immediate sign-extended */
	CHECK_EQ(d.dst.type, EU_TYPE_UD);

	in.src[0].imm = 0x12345;                       /* too wide for 13 bits */
	CHECK_EQ(eu_encode_best(8, &in, out), 16);
}

static void program(void)
{
	uint8_t buf[40];
	memcpy(buf, mov_sat, 16);
	memcpy(buf + 16, mov_sat, 16);
	memset(buf + 32, 0x7f, 8);
	struct eu_program p;
	size_t bad = 0;
	CHECK_EQ(eu_program_decode(8, buf, 40, &p, &bad), -1);
	CHECK_EQ(bad, 32);
	CHECK_EQ(p.count, 2);
	CHECK_EQ(eu_program_index(&p, 16), 1);
	CHECK_EQ(eu_program_index(&p, 8), -1);
	eu_program_free(&p);
	CHECK_EQ(eu_program_decode(8, buf, 32, &p, &bad), 0);
	CHECK_EQ(p.count, 2);
	eu_program_free(&p);
	CHECK_EQ(eu_program_decode(8, buf, 0, &p, &bad), 0);
	CHECK_EQ(p.count, 0);
	eu_program_free(&p);
}

int main(void)
{
	fields();
	rejects();
	fuzz();
	best();
	program();
	return test_exit();
}
