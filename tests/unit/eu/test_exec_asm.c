/* End to end: programs in Mesa's assembly syntax (test_exec_*.asm, written
 * for these tests) go through eu-isa's assembler and decoder, then run.
 * Checks that byte-offset branches (JIP/UIP, with a compacted instruction
 * in the stream) drive per-channel control flow correctly. */
#include <stdlib.h>

#include "gpu/eu/asm.h"
#include "gpu/eu/send.h"
#include "test_exec_util.h"

static struct exec_prog *load(const char *name)
{
	const char *root = getenv("GTSIM_SOURCE_ROOT");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/unit/eu/%s", root ? root : ".", name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	static char text[16384];
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	struct eu_asm_result r;
	if (eu_assemble(8, text, len, path, &r)) {
		fprintf(stderr, "%s\n", r.error);
		return NULL;
	}
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(8, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	return p;
}

struct rt_capture { int calls; struct eu_send msg; float v[4][16]; };

static int rt_write(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	struct rt_capture *c = ctx;
	c->calls++;
	c->msg = *m;
	for (unsigned k = 0; k < 8 && k < m->mlen; k++)
		memcpy(&c->v[k / 2][(k % 2) * 8], eu_send_payload(t, m, k), 32);
	return 0;
}

/* A fragment-shader-like SIMD16 program: pln interpolation from an
 * interleaved barycentric payload, math inv, align16 mad, cmp + predicated
 * sel, mov.sat, then a sendc render-target write. */
static void test_fs_like(void)
{
	struct exec_prog *p = load("test_exec_fs.asm");
	CHECK(p != NULL);
	if (!p)
		return;
	static struct eu_thread t;
	struct rt_capture cap;
	memset(&cap, 0, sizeof(cap));
	const struct sfid_table tab = { .fn = {
		[EU_SFID_DP_RC] = rt_write,
	} };
	eu_thread_init(&t, 16, 0x7fff);
	t.sfids = &tab;
	t.sfid_units = &cap;
	for (unsigned i = 0; i < 16; i++) {
		unsigned reg = 2 + (i / 8) * 2;          /* x: g2 / g4, y: g3 / g5 */
		setf(&t, reg, i % 8, (float)i);
		setf(&t, reg + 1, i % 8, 0.25f * (float)i);
	}
	setf(&t, 6, 0, 2.0f);      /* a = 2x + 1y + 0.5 */
	setf(&t, 6, 1, 1.0f);
	setf(&t, 6, 3, 0.5f);
	CHECK_EQ(exec_run(&t, p, 1000), EU_THREAD_DONE);
	CHECK_EQ(cap.calls, 1);
	CHECK(cap.msg.sendc && cap.msg.eot);
	CHECK_EQ(cap.msg.mlen, 8);
	CHECK_EQ(cap.msg.exec_size, 16);
	CHECK_EQ(cap.msg.mask, 0x7fff);
	/* 0x90031000 as printed includes EOT (bit 127 = bit 31 of the
	 * descriptor dword); the descriptor proper is 0x10031000 */
	CHECK_EQ(cap.msg.desc & 0x1fffffff, 0x10031000u);
	CHECK(!cap.msg.header);
	CHECK_EQ(cap.msg.func, 0x31000);
	for (unsigned i = 0; i < 15; i++) {
		float a = 2.0f * (float)i + 0.25f * (float)i + 0.5f;
		float inv = 1.0f / a;
		float mad = fmaf(a, a, inv);
		CHECK(cap.v[0][i] == (a > 1.0f ? 1.0f : a));
		CHECK(cap.v[1][i] == inv);
		CHECK(cap.v[2][i] == mad);
		CHECK(cap.v[3][i] == (a < 3.0f ? mad : 0.0f));
	}
	exec_prog_free(p);
}

struct split_capture { int calls; struct eu_send msg; uint32_t reg[5][8]; };

static int split_msg(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	struct split_capture *c = ctx;
	c->calls++;
	c->msg = *m;
	for (unsigned k = 0; k < m->mlen && k < 5; k++)
		memcpy(c->reg[k], eu_send_payload(t, m, k), 32);
	return 0;
}

/* Gen9 split send from Mesa's text: desc 0x04000000 is mlen 2 (bits
 * 28:25) from g10, ex_desc 0xc0 is ex_mlen 3 (bits 9:6) from g20, SFID
 * "dp data 1" (12); the handler must see g10, g11, g20, g21, g22. */
static void test_sends_text(void)
{
	static const char text[] =
		"sends(8)        nullUD          g10UD           g20UD           "
		"0x04000000      0x000000c0\n"
		"                            dp data 1 MsgDesc: ( DC A64 scattered read, "
		"Surface = 0, 0x0) mlen 2 ex_mlen 3 rlen 0 { align1 WE_all 1Q EOT };\n";
	struct eu_asm_result r;
	int rc = eu_assemble(9, text, strlen(text), "sends.asm", &r);
	CHECK_EQ(rc, 0);
	if (rc) {
		fprintf(stderr, "%s\n", r.error);
		return;
	}
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(9, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	CHECK(p != NULL);
	if (!p)
		return;
	static struct eu_thread t;
	struct split_capture cap;
	memset(&cap, 0, sizeof(cap));
	const struct sfid_table tab = { .fn = {
		[EU_SFID_DP_DC1] = split_msg,
	} };
	eu_thread_init(&t, 8, 0xff);
	t.sfids = &tab;
	t.sfid_units = &cap;
	static const unsigned regs[5] = { 10, 11, 20, 21, 22 };
	for (unsigned k = 0; k < 5; k++)
		for (unsigned i = 0; i < 8; i++)
			setud(&t, regs[k], i, regs[k] * 100 + i);
	CHECK_EQ(exec_run(&t, p, 100), EU_THREAD_DONE);
	CHECK_EQ(cap.calls, 1);
	CHECK(cap.msg.split && cap.msg.eot);
	CHECK_EQ(cap.msg.mlen, 5);
	CHECK_EQ(cap.msg.ex_mlen, 3);
	CHECK_EQ(cap.msg.src, 10);
	CHECK_EQ(cap.msg.src2, 20);
	for (unsigned k = 0; k < 5; k++)
		for (unsigned i = 0; i < 8; i++)
			CHECK_EQ(cap.reg[k][i], regs[k] * 100 + i);
	exec_prog_free(p);
}

int main(void)
{
	test_fs_like();
	test_sends_text();
	/* for (k = 1; k <= i; k++) sum += k odd ? k : -k, per channel i */
	struct exec_prog *p = load("test_exec_loop.asm");
	CHECK(p != NULL);
	if (!p)
		return test_exit();
	static struct eu_thread t;
	uint32_t masks[2] = { 0xffff, 0xa5c3 };
	for (unsigned m = 0; m < 2; m++) {
		eu_thread_init(&t, 16, masks[m]);
		for (unsigned i = 0; i < 16; i++)
			setud(&t, 2, i, i);
		exec_run(&t, p, 100000);
		CHECK(ran_to_end(&t));
		for (unsigned i = 0; i < 16; i++) {
			if (!((masks[m] >> i) & 1)) {
				CHECK_EQ(rud(&t, 10, i), 0);
				continue;
			}
			int want = i & 1 ? (int)(i + 1) / 2 : -(int)i / 2;
			CHECK_EQ((int32_t)rud(&t, 10, i), want);
			CHECK(rf(&t, 14, i) == (float)want);
		}
	}
	exec_prog_free(p);
	return test_exit();
}
