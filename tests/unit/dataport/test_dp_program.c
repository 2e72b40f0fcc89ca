/* An EU program in Mesa's assembly syntax, assembled by eu-isa and run by
 * the executor with the data ports wired as the render stages wire them:
 * a SIMD8 thread writes 0x100 + 4i at byte 4i of a buffer (untyped write),
 * bumps a counter at byte 64 by one per channel (untyped atomic add that
 * returns the old values), reads its writes back (untyped read) and, as
 * its last message (EOT), stores read value + old counter value at byte
 * 32 + 4i. Channels 5 and 6 are not dispatched. Expected memory by hand. */
#include "gpu/eu/asm.h"
#include "gpu/eu/exec.h"
#include "gpu/eu/send.h"
#include "dp_fixture.h"

static const char program[] =
	"mov(8)  g10<1>UW  0x76543210V                       { align1 1Q };\n"
	"shl(8)  g2<1>UD   g10<8,8,1>UW  0x00000002UD        { align1 1Q };\n"
	"add(8)  g3<1>UD   g2<8,8,1>UD   0x00000100UD        { align1 1Q };\n"
	/* untyped write, SIMD8, R only: mlen 2, type 9, control 0x2e, BTI 0 */
	"send(8) null<1>UD g2<8,8,1>UD   0x04026e00 dp data 1 MsgDesc: untyped write"
	"                                                    { align1 1Q };\n"
	"mov(8)  g4<1>UD   0x00000040UD                      { align1 1Q };\n"
	"mov(8)  g5<1>UD   0x00000001UD                      { align1 1Q };\n"
	/* untyped atomic add, SIMD8, return: mlen 2, rlen 1, type 2, 0x37 */
	"send(8) g21<1>UD  g4<8,8,1>UD   0x0410b700 dp data 1 MsgDesc: atomic add"
	"                                                    { align1 1Q };\n"
	/* untyped read, SIMD8, R: mlen 1, rlen 1, type 1, 0x2e */
	"send(8) g20<1>UD  g2<8,8,1>UD   0x02106e00 dp data 1 MsgDesc: untyped read"
	"                                                    { align1 1Q };\n"
	"add(8)  g6<1>UD   g2<8,8,1>UD   0x00000020UD        { align1 1Q };\n"
	"add(8)  g7<1>UD   g20<8,8,1>UD  g21<8,8,1>UD        { align1 1Q };\n"
	"send(8) null<1>UD g6<8,8,1>UD   0x04026e00 dp data 1 MsgDesc: untyped write"
	"                                                    { align1 1Q EOT };\n";

static int to_dp(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	return dp_sfid_handler(units, t, msg);
}

static void run(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	fx_buffer(&f, 0, FX_DATA, 128);
	struct eu_asm_result r;
	int err = eu_assemble(gen, program, sizeof(program) - 1, "program", &r);
	CHECK_EQ(err, 0);
	if (err) {
		fprintf(stderr, "%s\n", r.error);
		fx_fini(&f);
		return;
	}
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(gen, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	CHECK(p != NULL);
	const struct sfid_table tab = { .fn = { [EU_SFID_DP_DC1] = to_dp } };
	eu_thread_init(f.t, 8, 0x9f);
	f.t->sfids = &tab;
	f.t->sfid_units = &f.unit;
	CHECK_EQ(exec_run(f.t, p, 1000), EU_THREAD_DONE);
	unsigned k = 0;
	for (unsigned i = 0; i < 8; i++) {
		bool on = 0x9f >> i & 1;
		CHECK_EQ(fx_dw(&f, FX_DATA)[i], on ? 0x100 + 4 * i : 0);
		/* the atomic returns 0, 1, 2, ... to the dispatched channels */
		CHECK_EQ(fx_dw(&f, FX_DATA + 32)[i], on ? 0x100 + 4 * i + k : 0);
		k += on;
	}
	CHECK_EQ(fx_dw(&f, FX_DATA + 64)[0], 6);
	exec_prog_free(p);
	fx_fini(&f);
}

int main(void)
{
	run(8);
	run(9);
	return test_exit();
}
