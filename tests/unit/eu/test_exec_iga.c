/* Intel's assembler as the oracle for branch encodings and their meaning:
 * programs written in iga's syntax with labels are assembled by iga64
 * (-p=8 / -p=9), decoded by gtsim, and
 *  - every goto/join/brd/brc/jmpi/call/calla target gtsim decodes must be
 *    the label iga resolved (JIP/UIP relative to the branch itself, jmpi's
 *    offset relative to the next instruction, calla's absolute);
 *  - the programs run with hand-checked results (jmpi, call/ret, calla,
 *    goto/join with divergent channels), and a Gen9 split send assembled
 *    by iga hands both payload parts to the shared function.
 * Skips (exit 77), loudly, only when iga64 is not installed. */
#include <stdlib.h>
#include <unistd.h>

#include "gpu/eu/exec.h"
#include "gpu/eu/asm.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/isa.h"
#include "gpu/eu/send.h"
#include "test_exec_util.h"
#include "test_isa_util.h"

static char dir[] = "/tmp/gtsim-iga-exec-XXXXXX";

/* iga64 -p=gen -a text -> bytes (malloc'd), NULL on failure. */
static uint8_t *iga_assemble(int gen, const char *text, size_t *len)
{
	char src[128], bin[128], cmd[512];
	snprintf(src, sizeof(src), "%s/p.asm", dir);
	snprintf(bin, sizeof(bin), "%s/p.bin", dir);
	FILE *f = fopen(src, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	unlink(bin);
	snprintf(cmd, sizeof(cmd), "iga64 -p=%d -a %s -o %s 2>/dev/null", gen, src, bin);
	int rc = system(cmd);
	if (rc != 0) {
		fprintf(stderr, "iga64 could not assemble:\n%s\n", text);
		return NULL;
	}
	return (uint8_t *)read_file(bin, len);
}

/* Decode at byte offset `at` and return the instruction. */
static struct eu_inst inst_at(int gen, const uint8_t *b, size_t len, size_t at)
{
	struct eu_inst in;
	memset(&in, 0, sizeof(in));
	size_t used;
	CHECK_EQ(eu_decode(gen, b + at, len - at, &in, &used), 0);
	return in;
}

/* Targets of every flow opcode, as iga resolves its labels. */
static void test_targets(int gen)
{
	static const char text[] =
		"L0:\n"
		"(W)     jmpi (1|M0) L112\n"              /* 0 */
		"        goto (8|M0) L112 L128\n"          /* 16 */
		"        join (8|M0) L128\n"               /* 32 */
		"(f0.0)  brd (8|M0) L112\n"                /* 48 */
		"        brc (8|M0) L112 L128\n"           /* 64 */
		"        call (8|M0) r10.0 L112\n"         /* 80 */
		"        calla (8|M0) r10.0 0x70\n"        /* 96 */
		"L112:\n"
		"        ret (8|M0) r10.0\n"               /* 112 */
		"L128:\n"
		"        nop\n"                            /* 128 */
		"(W)     jmpi (1|M0) L0\n";                /* 144 */
	size_t len = 0;
	uint8_t *b = iga_assemble(gen, text, &len);
	CHECK(b != NULL);
	if (!b)
		return;
	CHECK_EQ(len, 160);
	struct eu_inst in = inst_at(gen, b, len, 0);
	CHECK_EQ(in.opcode, EU_OP_JMPI);
	CHECK_EQ(in.jip, 112 - 16);               /* from the next instruction */
	in = inst_at(gen, b, len, 16);
	CHECK_EQ(in.opcode, EU_OP_GOTO);
	CHECK_EQ(in.jip, 112 - 16);
	CHECK_EQ(in.uip, 128 - 16);
	in = inst_at(gen, b, len, 32);
	CHECK_EQ(in.opcode, EU_OP_JOIN);
	CHECK_EQ(in.jip, 128 - 32);
	in = inst_at(gen, b, len, 48);
	CHECK_EQ(in.opcode, EU_OP_BRD);
	CHECK_EQ(in.jip, 112 - 48);
	CHECK_EQ(in.pred, EU_PRED_NORMAL);
	in = inst_at(gen, b, len, 64);
	CHECK_EQ(in.opcode, EU_OP_BRC);
	CHECK_EQ(in.jip, 112 - 64);
	CHECK_EQ(in.uip, 128 - 64);
	in = inst_at(gen, b, len, 80);
	CHECK_EQ(in.opcode, EU_OP_CALL);
	CHECK_EQ(in.jip, 112 - 80);
	CHECK(in.dst.file == EU_FILE_GRF && in.dst.nr == 10);
	in = inst_at(gen, b, len, 96);
	CHECK_EQ(in.opcode, EU_OP_CALLA);
	CHECK_EQ(in.jip, 112);                    /* absolute */
	in = inst_at(gen, b, len, 112);
	CHECK_EQ(in.opcode, EU_OP_RET);
	CHECK(in.src[0].file == EU_FILE_GRF && in.src[0].nr == 10);
	in = inst_at(gen, b, len, 144);
	CHECK_EQ(in.jip, 0 - 160);
	/* Mesa's text for them: no operands (brw_disasm.c prints JIP/UIP
	 * only for if/else/endif/while/break/cont/halt) */
	char *txt = eu_disasm_program(gen, b, len, NULL);
	CHECK(txt && strstr(txt, "goto(8)                                                         { align1 1Q };"));
	CHECK(txt && strstr(txt, "call(8)                                                         { align1 1Q };"));
	CHECK(txt && !strstr(txt, "LABEL"));
	/* jmpi is the one Mesa prints with its operand: its text assembles
	 * back to iga's bytes */
	struct eu_asm_result r;
	int rc = txt ? eu_assemble(gen, txt, strlen(txt), "dis.asm", &r) : -1;
	CHECK_EQ(rc, 0);
	if (!rc) {
		CHECK_EQ(r.len, len);
		CHECK(r.len == len && !memcmp(r.bytes, b, 16));
		CHECK(r.len == len && !memcmp(r.bytes + 144, b + 144, 16));
		eu_asm_result_free(&r);
	}
	free(txt);
	free(b);
}

static struct eu_thread th;

static void run_bytes(int gen, const uint8_t *b, size_t len, unsigned simd, uint32_t mask)
{
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(gen, b, len, &bad);
	CHECK(p != NULL);
	if (!p)
		return;
	eu_thread_init(&th, simd, mask);
	for (unsigned i = 0; i < 32; i++)
		setud(&th, 2 + i / 8, i % 8, i);      /* g2.i = channel number */
	exec_run(&th, p, 10000);
	if (!ran_to_end(&th))
		fprintf(stderr, "fault: %s\n", th.fault);
	CHECK(ran_to_end(&th));
	exec_prog_free(p);
}

/* jmpi skips, call/ret and calla/ret return to the instruction after the
 * call; dst.0 holds that address, dst.1 the channel mask. */
static void test_calls(int gen)
{
	static const char text[] =
		"        mov (8|M0) r10.0<1>:d 1:d\n"                       /* 0 */
		"(W)     jmpi (1|M0) L48\n"                                 /* 16 */
		"        mov (8|M0) r10.0<1>:d 2:d\n"                       /* 32 */
		"L48:\n"
		"        call (8|M0) r20.0 L112\n"                          /* 48 */
		"        add (8|M0) r11.0<1>:d r10.0<8;8,1>:d 100:d\n"      /* 64 */
		"        calla (8|M0) r21.0 0x90\n"                         /* 80 */
		"(W)     jmpi (1|M0) L176\n"                                /* 96 */
		"L112:\n"
		"        mov (8|M0) r12.0<1>:d 7:d\n"                       /* 112 */
		"        ret (8|M0) r20.0\n"                                /* 128 */
		"        add (8|M0) r13.0<1>:d r13.0<8;8,1>:d 1:d\n"        /* 144 */
		"        ret (8|M0) r21.0\n"                                /* 160 */
		"L176:\n"
		"        nop\n";                                           /* 176 */
	size_t len = 0;
	uint8_t *b = iga_assemble(gen, text, &len);
	CHECK(b != NULL);
	if (!b)
		return;
	run_bytes(gen, b, len, 8, 0x3f);
	for (unsigned i = 0; i < 6; i++) {
		CHECK_EQ(rud(&th, 10, i), 1);
		CHECK_EQ(rud(&th, 11, i), 101);
		CHECK_EQ(rud(&th, 12, i), 7);
		CHECK_EQ(rud(&th, 13, i), 1);
	}
	CHECK_EQ(rud(&th, 20, 0), 64);
	CHECK_EQ(rud(&th, 20, 1), 0x3f);
	CHECK_EQ(rud(&th, 21, 0), 96);
	CHECK_EQ(th.instructions, 11);
	free(b);
}

/* (f0.0) goto: channels whose predicate holds leave for UIP (the join);
 * the others run the block and meet them there. */
static void test_goto_join(int gen)
{
	static const char text[] =
		"        cmp (8|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 3:d\n"
		"(f0.0)  goto (8|M0) L48 L48\n"
		"        mov (8|M0) r60.0<1>:d 1:d\n"
		"L48:\n"
		"        join (8|M0) L64\n"
		"L64:\n"
		"        add (8|M0) r61.0<1>:d r60.0<8;8,1>:d 10:d\n";
	size_t len = 0;
	uint8_t *b = iga_assemble(gen, text, &len);
	CHECK(b != NULL);
	if (!b)
		return;
	run_bytes(gen, b, len, 8, 0xff);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 61, i), i < 3 ? 10 : 11);
	free(b);
}

/* Execution size 32 and quarter control from iga's (32|M0)/(16|M16):
 * decoded sizes and groups, then a SIMD32 word add on 32 channels. */
static void test_simd32(int gen)
{
	static const char text[] =
		"        add (32|M0) r10.0<1>:uw r20.0<16;16,1>:uw 0x3:uw\n"
		"        mov (16|M16) r30.0<1>:f r40.0<8;8,1>:f\n";
	size_t len = 0;
	uint8_t *b = iga_assemble(gen, text, &len);
	CHECK(b != NULL);
	if (!b)
		return;
	struct eu_inst in = inst_at(gen, b, len, 0);
	CHECK_EQ(in.exec_size, 32);
	CHECK_EQ(in.group, 0);
	in = inst_at(gen, b, len, 16);
	CHECK_EQ(in.exec_size, 16);
	CHECK_EQ(in.group, 16);
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(gen, b, 16, &bad);
	CHECK(p != NULL);
	if (p) {
		eu_thread_init(&th, 32, 0xfffffff0u);   /* channels 4..31 */
		for (unsigned i = 0; i < 32; i++) {
			uint16_t w = (uint16_t)(1000 + i);
			memcpy(eu_grf(&th, 20) + 2 * i, &w, 2);
		}
		exec_run(&th, p, 10);
		CHECK(ran_to_end(&th));
		for (unsigned i = 0; i < 32; i++) {
			uint16_t w;
			memcpy(&w, eu_grf(&th, 10) + 2 * i, 2);
			CHECK_EQ(w, i < 4 ? 0 : 1003 + i);
		}
		exec_prog_free(p);
	}
	free(b);
}

struct capture { int calls; struct eu_send msg; uint32_t reg[8][8]; };

static int capture_msg(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	struct capture *c = ctx;
	c->calls++;
	c->msg = *m;
	for (unsigned k = 0; k < m->mlen && k < 8; k++)
		memcpy(c->reg[k], eu_send_payload(t, m, k), 32);
	return 0;
}

/* Gen9 split send from iga: mlen 2 from src0 (desc 28:25), ex_mlen 3
 * from src1 (ex_desc 9:6), SFID from ex_desc 3:0 (DC1 = 12), EOT. */
static void test_sends(void)
{
	static const char text[] =
		"(W)     sends (8|M0) null:ud r10 r20 0xCC 0x04000000 {EOT}\n";
	size_t len = 0;
	uint8_t *b = iga_assemble(9, text, &len);
	CHECK(b != NULL);
	if (!b)
		return;
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(9, b, len, &bad);
	CHECK(p != NULL);
	if (!p) {
		free(b);
		return;
	}
	struct capture cap;
	memset(&cap, 0, sizeof(cap));
	const struct sfid_table tab = { .fn = {
		[EU_SFID_DP_DC1] = capture_msg,
	} };
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	th.sfid_units = &cap;
	for (unsigned r = 0; r < 5; r++)
		for (unsigned i = 0; i < 8; i++)
			setud(&th, (r < 2 ? 10 : 18) + r, i, 100 * r + i);
	CHECK_EQ(exec_run(&th, p, 100), EU_THREAD_DONE);
	CHECK_EQ(cap.calls, 1);
	CHECK(cap.msg.split && cap.msg.eot);
	CHECK_EQ(cap.msg.sfid, EU_SFID_DP_DC1);
	CHECK_EQ(cap.msg.mlen, 5);
	CHECK_EQ(cap.msg.ex_mlen, 3);
	for (unsigned r = 0; r < 5; r++)
		for (unsigned i = 0; i < 8; i++)
			CHECK_EQ(cap.reg[r][i], 100 * r + i);
	exec_prog_free(p);
	free(b);
}

int main(void)
{
	if (system("iga64 --help >/dev/null 2>&1") != 0) {
		printf("*** iga64 (Debian package libigc-tools) is not installed: "
		       "the iga-assembled branch and sends tests are SKIPPED ***\n");
		return 77;
	}
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return test_exit();
	}
	for (int gen = 8; gen <= 9; gen++) {
		test_targets(gen);
		test_calls(gen);
		test_goto_join(gen);
		test_simd32(gen);
	}
	test_sends();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return test_exit();
}
