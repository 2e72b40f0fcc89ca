/* Seed 000's vertex shader, in the seed's own (older) spelling, assembles,
 * compacts exactly the instructions marked `compacted`, and round-trips
 * through the disassembler. Oracles: Mesa's gen8 vectors for the same
 * instructions without compaction (mov g123 <- g1 WE_all, mov imm 6.0F, and
 * the URB write send 0x92080017 with EOT), and hand-decoded fields. */
#include "test.h"
#include "test_isa_util.h"
#include "gpu/eu/asm.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/isa.h"

static const uint8_t mesa_send[16] = { /* send.txt: the same URB write */
	0x31, 0x00, 0x60, 0x06, 0xe0, 0x3a, 0x00, 0x20,
	0xe0, 0x0e, 0x8d, 0x06, 0x17, 0x00, 0x08, 0x92 };
static const bool marked_compacted[10] = { 1, 1, 1, 1, 1, 1, 0, 1, 0, 0 };

int main(void)
{
	const char *root = getenv("GTSIM_SOURCE_ROOT");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/unit/eu/vectors/seed000_vs.asm",
		 root ? root : ".");
	size_t len;
	char *text = read_file(path, &len);
	CHECK(text != NULL);
	if (!text)
		return test_exit();
	struct eu_asm_result r;
	int rc = eu_assemble(8, text, len, "seed000_vs.asm", &r);
	CHECK_EQ(rc, 0);
	if (rc) {
		fprintf(stderr, "%s\n", r.error);
		return test_exit();
	}
	/* 7 compacted (8 bytes) and 3 native (16 bytes) instructions. */
	CHECK_EQ(r.count, 10);
	CHECK_EQ(r.len, 7 * 8 + 3 * 16);
	size_t off = 0;
	for (size_t i = 0; i < r.count; i++) {
		bool compacted = marked_compacted[i];
		CHECK_EQ((r.bytes[off + 3] >> 5) & 1, compacted); /* CmptCtrl bit 29 */
		off += compacted ? 8 : 16;
	}
	/* The send is the last 16 bytes; the hand-written descriptor text must
	 * give the same instruction Mesa encodes from 0x92080017. The seed's
	 * bare "null" destination takes the payload type F as Mesa prints. */
	CHECK(!memcmp(r.bytes + r.len - 16, mesa_send, 16));

	struct eu_program p;
	size_t bad = 0;
	CHECK_EQ(eu_program_decode(8, r.bytes, r.len, &p, &bad), 0);
	CHECK_EQ(p.count, 10);
	if (p.count == 10) {
		CHECK(p.insts[0].compacted);
		CHECK(p.insts[0].no_mask);
		CHECK_EQ(p.insts[0].src[0].nr, 1);
		CHECK_EQ(p.insts[0].dst.nr, 119);
		CHECK_EQ(p.insts[5].src[0].type, EU_TYPE_VF);
		CHECK_EQ(p.insts[5].src[0].imm, 0);
		CHECK_EQ(p.insts[6].src[0].imm, 0x3f800000);
		CHECK_EQ(p.insts[9].sfid, EU_SFID_URB);
		CHECK_EQ(p.insts[9].desc, 0x12080017);  /* mlen 9, header, offset 1, SIMD8 write */
		CHECK(p.insts[9].eot);
	}
	eu_program_free(&p);

	/* Text -> bytes -> text -> bytes gives the same bytes. */
	char *dis = eu_disasm_program(8, r.bytes, r.len, &bad);
	CHECK(dis != NULL);
	if (dis) {
		struct eu_asm_result r2;
		CHECK_EQ(eu_assemble(8, dis, strlen(dis), "disasm", &r2), 0);
		CHECK_EQ(r2.len, r.len);
		CHECK(r2.len == r.len && !memcmp(r2.bytes, r.bytes, r.len));
		eu_asm_result_free(&r2);
		free(dis);
	}
	eu_asm_result_free(&r);
	free(text);
	return test_exit();
}
