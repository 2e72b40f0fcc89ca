/* Assembler errors name file, line and column (1-based, hand-counted
 * below), and no input crashes it: random text and random mutations of
 * valid programs either assemble or report an error. Also: labels resolve
 * to byte offsets (JIP/UIP in bytes on gen8), numeric JIP works, and the
 * assembler compacts exactly what the text marks `compacted`. */
#include "test.h"
#include "test_isa_util.h"
#include "gpu/eu/asm.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/isa.h"

static void expect_error_gen(int gen, const char *text, const char *prefix)
{
	struct eu_asm_result r;
	int rc = eu_assemble(gen, text, strlen(text), "t.asm", &r);
	CHECK_EQ(rc, -1);
	if (rc == 0) {
		eu_asm_result_free(&r);
		return;
	}
	if (strncmp(r.error, prefix, strlen(prefix))) {
		CHECK(!"error position");
		fprintf(stderr, "  text: %s\n  want: %s...\n   got: %s\n", text, prefix, r.error);
	}
}

static void expect_error(const char *text, const char *prefix)
{
	expect_error_gen(8, text, prefix);
}

static void errors(void)
{
	/* ror/rol are gen11+ (Mesa: GFX11; iga64 -p=8/9: invalid mnemonic) */
	for (int gen = 8; gen <= 9; gen++) {
		expect_error_gen(gen, "nop;\n ror(8) g1<1>UD g2<8,8,1>UD g3<8,8,1>UD { align1 1Q };",
				 "t.asm:2:2: error: 'ror' is not an instruction of gen");
		expect_error_gen(gen, "rol(8) g1<1>UD g2<8,8,1>UD 1UD { align1 1Q };",
				 "t.asm:1:1: error: 'rol' is not an instruction of gen");
	}
	/* sends is gen9 only */
	expect_error("sends(8) g1<1>UD g2<8,8,1>UD g3<8,8,1>UD 0x0a 0x02406001 { align1 1Q };",
		     "t.asm:1:1: error: 'sends' is not an instruction of gen8");
	expect_error("mov(8) g1<1>F g2<8,8,1>X { align1 1Q };", "t.asm:1:24: error:");
	expect_error("nop;\n  frob(8) g1<1>F g2<8,8,1>F;", "t.asm:2:3: error: unknown instruction");
	expect_error("mov(3) g1<1>F g2<8,8,1>F;", "t.asm:1:5: error: execution size");
	expect_error("mov(8) g200<1>F g2<8,8,1>F;", "t.asm:1:8: error:");
	expect_error("mov(8) g1<1>F g2<8,8,1>F { align1 bogus };", "t.asm:1:35: error: unknown instruction option");
	expect_error("if(8) JIP: nowhere UIP: nowhere { align1 1Q };", "t.asm:1:12: error: undefined label 'nowhere'");
	expect_error("L: nop;\nL: nop;", "t.asm:2:1: error: label 'L' defined twice");
	expect_error("mov(8) g1<1>F 0x12345678F { align1 1Q compacted };", "t.asm:1:1: error: this instruction has no compacted form");
	expect_error("(+f2.0) mov(8) g1<1>F g2<8,8,1>F;", "t.asm:1:3: error: flag registers");
	expect_error("mov(8) g1<1>F g2<8,8,1>F /* unterminated", "t.asm:1:26: error: unterminated comment");
	expect_error("send(8) null g2<8,8,1>UD\n render mlen 1 rlen 0 { align1 1Q };", "t.asm:2:2: error:");
	expect_error("mov(8) g1<1>F", "t.asm:1:14: error:");
}

static void labels(void)
{
	const char *text =
		"(+f0.0) if(8) JIP: A UIP: B { align1 1Q };\n"
		"mov(8) g1<1>F g2<8,8,1>F { align1 1Q compacted };\n"
		"A:\n"
		"else(8) JIP: B UIP: B { align1 1Q };\n"
		"B:\n"
		"endif(8) JIP: 16 { align1 1Q };\n"
		"nop;\n";
	struct eu_asm_result r;
	CHECK_EQ(eu_assemble(8, text, strlen(text), "l.asm", &r), 0);
	if (r.count != 5) {
		CHECK_EQ(r.count, 5);
		return;
	}
	/* if at 0 (16 bytes), mov at 16 (8 bytes, compacted), else at 24,
	 * endif at 40, nop at 56 */
	CHECK_EQ(r.len, 72);
	CHECK_EQ(r.insts[0].jip, 24);
	CHECK_EQ(r.insts[0].uip, 40);
	CHECK_EQ(r.insts[2].jip, 16);
	CHECK_EQ(r.insts[3].jip, 16);
	CHECK_EQ((r.bytes[16 + 3] >> 5) & 1, 1);   /* CmptCtrl on the mov */
	CHECK_EQ((r.bytes[24 + 3] >> 5) & 1, 0);
	/* JIP lives in bits 127:96 (byte offset, little endian) */
	CHECK_EQ(r.bytes[12], 24);
	CHECK_EQ(r.bytes[8], 40);
	eu_asm_result_free(&r);
}

static void fuzz(void)
{
	static const char *const valid =
		"mov(8) g1<1>F g2<8,8,1>F { align1 1Q };\n"
		"add(16) g4<1>D g6<8,8,1>D -1023D { align1 1H };\n"
		"mad(8) g26<1>F g22<4,4,1>F g2.4<0,1,0>F g5<4,4,1>F { align16 1Q };\n"
		"send(8) null<1>F g123<8,8,1>F 0x8a080017\n"
		"    urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };\n"
		"LABEL0: (-f0.1.any4h) halt(8) JIP: LABEL0 UIP: LABEL0 { align1 1Q };\n"
		"mov(8) g124<1>F [0F, 0.5F, 1F, -2F]VF { align1 1Q };\n"
		"math inv(8) g95<1>F g94<8,8,1>F null<8,8,1>F { align1 1Q };\n";
	static const char alphabet[] = "g0123456789<>,.;:(){}[]-+~ FUDWBQHVfxyzwa/*\n";
	uint64_t x = 77;
	size_t n = strlen(valid);
	char *buf = malloc(n + 64);
	int ok = 0;
	for (int i = 0; i < 20000; i++) {
		memcpy(buf, valid, n + 1);
		int edits = 1 + (int)(i % 4);
		for (int e = 0; e < edits; e++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			size_t at = (size_t)(x >> 33) % n;
			buf[at] = alphabet[(x >> 20) % (sizeof(alphabet) - 1)];
		}
		size_t len = (i % 7 == 0) ? (size_t)((x >> 40) % n) : n;
		struct eu_asm_result r;
		if (eu_assemble(i & 1 ? 8 : 9, buf, len, "f.asm", &r) == 0) {
			ok++;
			eu_asm_result_free(&r);
		} else {
			CHECK(!strncmp(r.error, "f.asm:", 6));
		}
	}
	free(buf);
	CHECK(ok > 0);
}

/* The text need not end in a NUL: a file's bytes are assembled as read,
 * in a buffer of exactly their size (found by fuzz/fuzz_asm.c: "{ al" at
 * the end read past the text looking for "align16"; so did a number at
 * the end). ASan builds see any read past the buffer. */
static void unterminated(void)
{
	static const char *const texts[] = {
		"mov(4) g1<1>F g2<8,8,1>F { al",
		"mov(8) g124<1>F [0F, 0.5F, 1F, 2",
		"add(8) g1<1>D g2<8,8,1>D 12",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t n = strlen(texts[i]);
		char *exact = malloc(n);
		memcpy(exact, texts[i], n);
		struct eu_asm_result r;
		if (eu_assemble(8, exact, n, "u.asm", &r) == 0)
			eu_asm_result_free(&r);
		else
			CHECK(!strncmp(r.error, "u.asm:1:", 8));
		free(exact);
	}
}

/* Gen9 split sends: text printed by the disassembler assembles back to
 * the same bytes (immediate and a0 descriptors). */
static void sends_text(void)
{
	for (int v = 0; v < 4; v++) {
		struct eu_inst in = { 0 };
		in.opcode = EU_OP_SENDS;
		in.exec_size = 8;
		in.num_srcs = 2;
		in.dst.file = EU_FILE_GRF; in.dst.nr = 10; in.dst.type = EU_TYPE_UD;
		in.src[0].file = EU_FILE_GRF; in.src[0].nr = 2; in.src[0].subnr = (v & 1) * 16;
		in.src[1].file = EU_FILE_GRF; in.src[1].nr = 30;
		in.sfid = EU_SFID_DP_DC1;
		in.desc = 0x04205001;
		in.ex_desc = 2 << 6;
		in.desc_is_reg = v & 2;
		in.eot = v == 3;
		uint8_t bytes[16];
		CHECK_EQ(eu_encode(9, &in, bytes, false), 16);
		struct eu_inst d;
		size_t used;
		CHECK_EQ(eu_decode(9, bytes, 16, &d, &used), 0);
		struct eu_text t = { 0 };
		eu_disasm_inst(&t, 9, &d, 0, NULL, NULL);
		struct eu_asm_result r;
		int rc = eu_assemble(9, t.buf, t.len, "sends", &r);
		CHECK_EQ(rc, 0);
		if (rc) {
			fprintf(stderr, "%s\n%s", r.error, t.buf);
		} else {
			CHECK_EQ(r.len, 16);
			CHECK(r.len == 16 && !memcmp(r.bytes, bytes, 16));
			eu_asm_result_free(&r);
		}
		eu_text_free(&t);
	}
}

int main(void)
{
	sends_text();
	errors();
	labels();
	fuzz();
	unterminated();
	return test_exit();
}
