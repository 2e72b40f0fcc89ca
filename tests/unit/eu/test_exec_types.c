/* Types beyond F and D (DF, Q/UQ, HF), register-indirect destinations,
 * VxH regions, ARF reads (ce0), AccWrEn, SIMD32, and send details
 * (descriptor from a0.0, response registers, a handler that fails).
 * Expected values are computed by hand from the PRM's rules. */
#include <float.h>

#include "gpu/eu/send.h"
#include "test_exec_util.h"

static struct eu_thread th;

static void run1(struct eu_inst in)
{
	run_prog(&th, &in, 1);
	if (!ran_to_end(&th))
		fprintf(stderr, "unexpected fault: %s\n", th.fault);
	CHECK(ran_to_end(&th));
	th.state = EU_THREAD_READY;
	th.ip = 0;
}
static double rdf(unsigned nr, unsigned i)
{
	double d;
	memcpy(&d, eu_grf(&th, nr) + 8 * i, 8);
	return d;
}
static void setdf(unsigned nr, unsigned i, double d)
{
	memcpy(eu_grf(&th, nr) + 8 * i, &d, 8);
}
static uint64_t rq(unsigned nr, unsigned i)
{
	uint64_t v;
	memcpy(&v, eu_grf(&th, nr) + 8 * i, 8);
	return v;
}
static uint16_t rw(unsigned nr, unsigned i)
{
	uint16_t v;
	memcpy(&v, eu_grf(&th, nr) + 2 * i, 2);
	return v;
}

static void test_df(void)
{
	eu_thread_init(&th, 8, 0xff);
	setdf(2, 0, 0.1);
	setdf(3, 0, 0.2);
	run1(i2(EU_OP_ADD, 1, gd(10, EU_TYPE_DF), gs(2, 0, EU_TYPE_DF), gs(3, 0, EU_TYPE_DF)));
	CHECK(rdf(10, 0) == 0.1 + 0.2);      /* double rounding, not float */
	CHECK(rdf(10, 0) != (double)(0.1f + 0.2f));
	/* DF -> F rounds to nearest: 0.1 becomes 0x3dcccccd */
	run1(i1(EU_OP_MOV, 1, gd(11, EU_TYPE_F), gs(2, 0, EU_TYPE_DF)));
	CHECK_EQ(rud(&th, 11, 0), 0x3dcccccd);
	/* F -> DF is exact */
	run1(i1(EU_OP_MOV, 1, gd(12, EU_TYPE_DF), immf(0.1f)));
	CHECK(rdf(12, 0) == (double)0.1f);
	/* DF denormals: flushed by default, kept with cr0 bit 6 */
	setdf(4, 0, 1e-310);
	run1(i2(EU_OP_ADD, 1, gd(13, EU_TYPE_DF), gs(4, 0, EU_TYPE_DF), gs(4, 0, EU_TYPE_DF)));
	CHECK(rdf(13, 0) == 0.0);
	uint32_t cr0 = 1u << 6;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	run1(i2(EU_OP_ADD, 1, gd(13, EU_TYPE_DF), gs(4, 0, EU_TYPE_DF), gs(4, 0, EU_TYPE_DF)));
	CHECK(rdf(13, 0) == 2e-310);
	cr0 = 0;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	/* SIMD4 DF row: <4;4,1> spans one register of 4 doubles */
	for (unsigned i = 0; i < 4; i++)
		setdf(5, i, (double)i + 0.5);
	run1(i2(EU_OP_MUL, 4, gd(14, EU_TYPE_DF),
		op_reg(EU_FILE_GRF, 5, 0, EU_TYPE_DF, 4, 4, 1), immf(2.0f)));
	CHECK(rdf(14, 3) == 7.0);
}

static void test_q_hf(void)
{
	eu_thread_init(&th, 8, 0xff);
	uint64_t big = 0x7fffffffffffffffull;
	memcpy(eu_grf(&th, 2), &big, 8);
	run1(i2(EU_OP_ADD, 1, gd(10, EU_TYPE_Q), gs(2, 0, EU_TYPE_Q), immd(1)));
	CHECK(rq(10, 0) == 0x8000000000000000ull);          /* wraps */
	run1(i1(EU_OP_MOV, 1, gd(11, EU_TYPE_Q), immd(-1)));
	CHECK(rq(11, 0) == UINT64_MAX);                     /* sign-extends */
	run1(i1(EU_OP_MOV, 1, gd(12, EU_TYPE_UQ), immud(0xffffffffu)));
	CHECK(rq(12, 0) == 0xffffffffull);                  /* zero-extends */
	/* F -> HF: 1.0 = 0x3c00, 65504 = 0x7bff (max), 3e-8 -> the smallest
	 * denormal 0x0001 (flushed to 0 unless cr0 bit 10 keeps half
	 * denormals), -0.5 = 0xb800 */
	float f[4] = { 1.0f, 65504.0f, 3e-8f, -0.5f };
	uint16_t h[4] = { 0x3c00, 0x7bff, 0x0001, 0xb800 };
	uint32_t cr0 = 1u << 10;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	for (unsigned i = 0; i < 4; i++)
		setf(&th, 3, i, f[i]);
	struct eu_operand d = gd(13, EU_TYPE_HF);
	run1(i1(EU_OP_MOV, 4, d, op_reg(EU_FILE_GRF, 3, 0, EU_TYPE_F, 4, 4, 1)));
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(rw(13, i), h[i]);
	/* cr0 bit 10 clear: a mov conversion still gives the half denormal
	 * (GLSL packHalf2x16, which Mesa lowers to this mov on Gen8/9);
	 * HF arithmetic flushes: 2^-14 * 0.5 = 2^-15 (denormal 0x0200) -> 0 */
	cr0 = 0;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	run1(i1(EU_OP_MOV, 4, d, op_reg(EU_FILE_GRF, 3, 0, EU_TYPE_F, 4, 4, 1)));
	CHECK_EQ(rw(13, 2), 0x0001);
	uint32_t tiny = 0x38000400;          /* 2^-14, 0.5 */
	memcpy(eu_grf(&th, 4), &tiny, 4);
	run1(i2(EU_OP_MUL, 1, gd(14, EU_TYPE_HF), gs(4, 0, EU_TYPE_HF), gs(4, 1, EU_TYPE_HF)));
	CHECK_EQ(rw(14, 0), 0);
	cr0 = 1u << 10;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	run1(i2(EU_OP_MUL, 1, gd(14, EU_TYPE_HF), gs(4, 0, EU_TYPE_HF), gs(4, 1, EU_TYPE_HF)));
	CHECK_EQ(rw(14, 0), 0x0200);
	cr0 = 0;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	/* HF + HF: 1.0 + 0.5 = 1.5 (0x3e00) */
	uint32_t pair = 0x38003c00;          /* 1.0, 0.5 */
	memcpy(eu_grf(&th, 4), &pair, 4);
	run1(i2(EU_OP_ADD, 1, gd(14, EU_TYPE_HF), gs(4, 0, EU_TYPE_HF), gs(4, 1, EU_TYPE_HF)));
	CHECK_EQ(rw(14, 0), 0x3e00);
}

static void test_indirect_vxh_arf(void)
{
	eu_thread_init(&th, 16, 0x00ff);
	for (unsigned i = 0; i < 8; i++)
		setud(&th, 2, i, 200 + i);
	/* g[a0.2]<1>UD = 7 with a0.2 = 320 (g10) */
	uint16_t a = 320;
	memcpy(eu_arf(&th, EU_ARF_A0) + 4, &a, 2);
	struct eu_operand d = gd(0, EU_TYPE_UD);
	d.addr_mode = EU_ADDR_INDIRECT;
	d.indirect_subnr = 2;
	d.indirect_offset = 4;           /* g10.1 on */
	run1(i1(EU_OP_MOV, 2, d, immud(7)));
	CHECK_EQ(rud(&th, 10, 0), 0);
	CHECK_EQ(rud(&th, 10, 1), 7);
	CHECK_EQ(rud(&th, 10, 2), 7);
	/* VxH <1,0>: channel i reads the dword a0.i points to */
	for (unsigned i = 0; i < 8; i++) {
		uint16_t ai = (uint16_t)(64 + 4 * (7 - i));     /* g2.(7-i) */
		memcpy(eu_arf(&th, EU_ARF_A0) + 2 * i, &ai, 2);
	}
	struct eu_operand v = op_reg(EU_FILE_GRF, 0, 0, EU_TYPE_UD, 0xff, 1, 0);
	v.addr_mode = EU_ADDR_INDIRECT;
	run1(i1(EU_OP_MOV, 8, gd(11, EU_TYPE_UD), v));
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 11, i), 207 - i);
	/* ce0 holds the enabled channels */
	struct eu_inst c = i1(EU_OP_MOV, 1, gd(12, EU_TYPE_UD), arf(EU_ARF_CE0, EU_TYPE_UD));
	c.no_mask = true;
	run1(c);
	CHECK_EQ(rud(&th, 12, 0), 0xff);
	/* sr0.2/sr0.3 hold the dispatch mask */
	c = i1(EU_OP_MOV, 1, gd(12, EU_TYPE_UD), op_reg(EU_FILE_ARF, EU_ARF_SR0, 8, EU_TYPE_UD, 0, 1, 0));
	c.no_mask = true;
	run1(c);
	CHECK_EQ(rud(&th, 12, 0), 0xff);
	/* AccWrEn: the result also lands in acc0 */
	struct eu_inst w = i2(EU_OP_ADD, 8, gd(13, EU_TYPE_D), g(2, EU_TYPE_D), immd(1));
	w.acc_wr = true;
	struct eu_inst p[2] = {
		w, i1(EU_OP_MOV, 8, gd(14, EU_TYPE_D),
		      op_reg(EU_FILE_ARF, EU_ARF_ACC0, 0, EU_TYPE_D, 8, 8, 1))
	};
	run_prog(&th, p, 2);
	CHECK(ran_to_end(&th));
	CHECK_EQ(rud(&th, 14, 5), 206);
	/* SIMD32 on words: 32 channels in one instruction */
	eu_thread_init(&th, 32, 0xffffffffu);
	for (unsigned i = 0; i < 32; i++) {
		uint16_t x = (uint16_t)i;
		memcpy(eu_grf(&th, 20) + 2 * i, &x, 2);
	}
	run1(i2(EU_OP_ADD, 32, gd(22, EU_TYPE_UW),
		op_reg(EU_FILE_GRF, 20, 0, EU_TYPE_UW, 16, 16, 1), imm(EU_TYPE_UW, 100)));
	CHECK_EQ(rw(22, 31), 131);
	CHECK_EQ(rw(22, 0), 100);
}

struct reply { int calls; uint32_t desc; uint32_t mask; bool sendc; };

static int respond(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	struct reply *r = ctx;
	r->calls++;
	r->desc = m->desc;
	r->mask = m->mask;
	r->sendc = m->sendc;
	for (unsigned k = 0; k < m->rlen; k++) {
		uint8_t *reg = eu_send_response(t, m, k);
		for (unsigned i = 0; i < 8; i++) {
			uint32_t v = 1000 * (k + 1) + i;
			memcpy(reg + 4 * i, &v, 4);
		}
	}
	CHECK(eu_send_response(t, m, m->rlen) == NULL);
	CHECK(eu_send_payload(t, m, m->mlen) == NULL);
	return 0;
}

static int refuse(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	(void)ctx; (void)t; (void)m;
	return -1;
}

static void test_send(void)
{
	struct reply r = { 0 };
	const struct sfid_table tab = { .fn = {
		[EU_SFID_DP_DC0] = respond,
		[EU_SFID_SAMPLER] = refuse,
	} };
	eu_thread_init(&th, 8, 0x0f);
	th.sfids = &tab;
	th.sfid_units = &r;
	/* sendc with the descriptor in a0.0: mlen 1, rlen 2, header */
	uint32_t desc = 1u << 25 | 2u << 20 | 1u << 19 | 0x1234;
	struct eu_inst s = i2(EU_OP_SENDC, 8, gd(40, EU_TYPE_UD), g(3, EU_TYPE_UD),
			      op_reg(EU_FILE_ARF, EU_ARF_A0, 0, EU_TYPE_UD, 0, 1, 0));
	s.sfid = EU_SFID_DP_DC0;
	s.desc_is_reg = true;
	memcpy(eu_arf(&th, EU_ARF_A0), &desc, 4);
	run1(s);
	CHECK_EQ(r.calls, 1);
	CHECK_EQ(r.desc, desc);
	CHECK_EQ(r.mask, 0x0f);
	CHECK(r.sendc);
	CHECK_EQ(rud(&th, 40, 3), 1003);
	CHECK_EQ(rud(&th, 41, 7), 2007);
	/* a handler that refuses the message faults the thread */
	s.opcode = EU_OP_SEND;
	s.sfid = EU_SFID_SAMPLER;
	s.desc_is_reg = false;
	s.desc = 1u << 25;
	s.dst = null_dst(EU_TYPE_UD);
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	th.sfid_units = &r;
	run_prog(&th, &s, 1);
	CHECK(th.state == EU_THREAD_FAULT && strstr(th.fault, "sampler"));
	/* a response into null is refused before any handler runs */
	s.sfid = EU_SFID_DP_DC0;
	s.desc = 1u << 25 | 1u << 20;
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	th.sfid_units = &r;
	run_prog(&th, &s, 1);
	CHECK(th.state == EU_THREAD_FAULT && strstr(th.fault, "response"));
	CHECK_EQ(r.calls, 1);
	/* acc0 as the destination: ignored without a response (IGT's gpgpu
	 * fill kernel: send(16) acc0<1>UW ... rlen 0), refused with one */
	s.dst = op_reg(EU_FILE_ARF, EU_ARF_ACC0, 0, EU_TYPE_UW, 0, 1, 1);
	s.desc = 1u << 25;
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	th.sfid_units = &r;
	run_prog(&th, &s, 1);
	CHECK(ran_to_end(&th));
	CHECK_EQ(r.calls, 2);
	s.desc = 1u << 25 | 1u << 20;
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	th.sfid_units = &r;
	run_prog(&th, &s, 1);
	CHECK(th.state == EU_THREAD_FAULT && strstr(th.fault, "not a GRF"));
	CHECK_EQ(r.calls, 2);
}

#if defined(__x86_64__)
#include <xmmintrin.h>
#define DAZ_FTZ 0x8040u                 /* MXCSR bits 6 (DAZ) and 15 (FTZ) */
static unsigned handler_csr;

static int note_csr(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	(void)ctx; (void)t; (void)m;
	handler_csr = _mm_getcsr();
	return 0;
}

/* The host's SSE mode around a thread with sends: the handler runs in
 * plain IEEE (DAZ and FTZ clear), the EU's instructions after a send
 * flush denormals again (cr0's reset state), and once the thread ends
 * with an EOT send the host has the mode it had before, whichever it was
 * (exec_send leaves the restore after an EOT to exec_run). */
static void test_send_host_mode(void)
{
	const struct sfid_table tab = { .fn = { [EU_SFID_DP_DC0] = note_csr } };
	unsigned host = _mm_getcsr();
	for (unsigned pass = 0; pass < 2; pass++) {
		unsigned before = pass ? host | DAZ_FTZ : host & ~DAZ_FTZ;
		_mm_setcsr(before);
		/* send; add g20 = g10 + g11 (denormal + 0); send EOT */
		struct eu_inst prog[3];
		prog[0] = i2(EU_OP_SEND, 8, null_dst(EU_TYPE_UD), g(3, EU_TYPE_UD), g(3, EU_TYPE_UD));
		prog[0].sfid = EU_SFID_DP_DC0;
		prog[0].desc = 1u << 25;
		prog[1] = i2(EU_OP_ADD, 8, g(20, EU_TYPE_F), g(10, EU_TYPE_F), g(11, EU_TYPE_F));
		prog[2] = prog[0];
		prog[2].eot = true;
		eu_thread_init(&th, 8, 0xff);
		th.sfids = &tab;
		for (unsigned i = 0; i < 8; i++) {
			setud(&th, 10, i, 1);            /* the smallest denormal */
			setud(&th, 11, i, 0);
			setud(&th, 20, i, 0xdeadbeef);
		}
		handler_csr = 0xffffffffu;
		CHECK(run_prog(&th, prog, 3) == EU_THREAD_DONE);
		CHECK_EQ(handler_csr & DAZ_FTZ, 0u);
		CHECK_EQ(rud(&th, 20, 0), 0u);           /* flushed: +0 */
		CHECK_EQ(rud(&th, 20, 7), 0u);
		CHECK_EQ((unsigned)_mm_getcsr(), before);
	}
	_mm_setcsr(host);
}
#else
static void test_send_host_mode(void)
{
}
#endif

static int accept_send(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	(void)ctx; (void)t; (void)m;
	return 0;
}

/* The engine's progress counter (exec_watch_abort's ended): every thread
 * that ends with an EOT send is counted once, at once (hangcheck sees
 * progress while short threads run), none that faults, a long thread
 * (EXEC_ABORT_POLL instructions) as a short one; the counter the host
 * thread names when the thread ends, none when it names none. */
static uint64_t run_ends(const struct sfid_table *tab, const struct eu_inst *prog,
			 unsigned threads, uint64_t already_ran)
{
	uint64_t done = 0;
	for (unsigned i = 0; i < threads; i++) {
		eu_thread_init(&th, 8, 0xff);
		th.sfids = tab;
		th.instructions = already_ran;
		done += run_prog(&th, prog, 1) == EU_THREAD_DONE;
	}
	return done;
}

static void test_ended_count(void)
{
	const struct sfid_table tab = { .fn = { [EU_SFID_DP_DC0] = accept_send } };
	static const uint32_t flag;
	uint64_t ended = 0, other = 0;
	struct eu_inst eot = i2(EU_OP_SEND, 8, null_dst(EU_TYPE_UD), g(3, EU_TYPE_UD),
				 g(3, EU_TYPE_UD));
	eot.sfid = EU_SFID_DP_DC0;
	eot.desc = 1u << 25;
	eot.eot = true;
	struct eu_inst bad = eot;
	bad.sfid = EU_SFID_SAMPLER;                 /* no handler: a fault */
	exec_watch_abort(&flag, &ended);
	CHECK_EQ(run_ends(&tab, &eot, 3, 0), 3u);
	CHECK_EQ(ended, 3u);                        /* at once */
	CHECK_EQ(run_ends(&tab, &bad, 2, 0), 0u);
	CHECK(!exec_abort_requested());
	CHECK_EQ(ended, 3u);
	exec_watch_abort(&flag, &other);
	CHECK_EQ(run_ends(&tab, &eot, 100, 0), 100u);
	CHECK_EQ(other, 100u);
	CHECK_EQ(run_ends(&tab, &eot, 1, EXEC_ABORT_POLL), 1u);
	CHECK_EQ(other, 101u);                      /* a long thread */
	exec_watch_abort(NULL, NULL);
	CHECK_EQ(run_ends(&tab, &eot, 5, 0), 5u);   /* not counted */
	CHECK_EQ(ended, 3u);
	CHECK_EQ(other, 101u);
}

static const uint8_t *seen[4];
static uint8_t seen_mlen, seen_ex;

static int look(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	(void)ctx;
	seen_mlen = m->mlen;
	seen_ex = m->ex_mlen;
	for (unsigned k = 0; k < 4; k++)
		seen[k] = eu_send_payload(t, m, k);
	return 0;
}

/* Gen9 split send: payload g10..g11 (mlen 2) then g20 (ex_desc 9:6 = 1);
 * handlers see one payload of three registers */
static void test_split_send(void)
{
	const struct sfid_table tab = { .fn = {
		[EU_SFID_DP_DC0] = look,
	} };
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	struct eu_inst s = i2(EU_OP_SENDS, 8, null_dst(EU_TYPE_UD), g(10, EU_TYPE_UD), g(20, EU_TYPE_UD));
	s.sfid = 0;
	s.ex_desc = 1u << 6 | EU_SFID_DP_DC0;
	s.desc = 2u << 25;
	run_prog_gen(9, &th, &s, 1);       /* sends is a gen9 opcode */
	CHECK(ran_to_end(&th));
	CHECK_EQ(seen_mlen, 3);
	CHECK_EQ(seen_ex, 1);
	CHECK(seen[0] == eu_grf(&th, 10) && seen[1] == eu_grf(&th, 11));
	CHECK(seen[2] == eu_grf(&th, 20) && seen[3] == NULL);
	/* a second part past g127 is a fault */
	s.src[1] = g(127, EU_TYPE_UD);
	s.ex_desc = 2u << 6 | EU_SFID_DP_DC0;
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	run_prog_gen(9, &th, &s, 1);
	CHECK(th.state == EU_THREAD_FAULT && strstr(th.fault, "second payload"));
}

static void setq(unsigned nr, unsigned i, uint64_t v)
{
	memcpy(eu_grf(&th, nr) + 8 * i, &v, 8);
}

/* .sat on Q/UQ destinations clamps the exact result to the type's range
 * (PRM "Saturation"), where plain 64-bit arithmetic wraps. */
static void test_q_saturate(void)
{
	eu_thread_init(&th, 8, 0xff);
	setq(2, 0, 0x7fffffffffffffffull);     /* INT64_MAX */
	setq(2, 1, 0x4000000000000000ull);     /* 2^62 */
	setq(2, 2, 0xffffffffffffffffull);     /* UQ max, or Q -1 */
	setq(2, 3, 0x100000000ull);            /* 2^32 */
	struct eu_inst in = i2(EU_OP_ADD, 1, gd(10, EU_TYPE_Q), gs(2, 0, EU_TYPE_Q), immd(1));
	in.saturate = true;
	run1(in);
	CHECK(rq(10, 0) == 0x7fffffffffffffffull);
	/* 2^62 * -4 = -2^64: clamps to INT64_MIN; 2^62 * 4 to INT64_MAX */
	in = i2(EU_OP_MUL, 1, gd(11, EU_TYPE_Q), gs(2, 1, EU_TYPE_Q), immd(-4));
	in.saturate = true;
	run1(in);
	CHECK(rq(11, 0) == 0x8000000000000000ull);
	in.src[1] = immd(4);
	run1(in);
	CHECK(rq(11, 0) == 0x7fffffffffffffffull);
	in.src[1] = immd(-1);                  /* in range: exact */
	run1(in);
	CHECK(rq(11, 0) == 0xc000000000000000ull);
	/* UQ: max + 5 stays max; 5 + (-7) (a D immediate) clamps to 0 */
	in = i2(EU_OP_ADD, 1, gd(12, EU_TYPE_UQ), gs(2, 2, EU_TYPE_UQ), immd(5));
	in.saturate = true;
	run1(in);
	CHECK(rq(12, 0) == UINT64_MAX);
	setq(2, 4, 5);
	in = i2(EU_OP_ADD, 1, gd(12, EU_TYPE_UQ), gs(2, 4, EU_TYPE_UQ), immd(-7));
	in.saturate = true;
	run1(in);
	CHECK(rq(12, 0) == 0);
	/* mad.sat UQ: 2^32 * 2^32 + 1 = 2^64 + 1 -> UQ max; without .sat 1 */
	in = i3(EU_OP_MAD, 1, gd(13, EU_TYPE_UQ), imm(EU_TYPE_UQ, 1),
		gs(2, 3, EU_TYPE_UQ), gs(2, 3, EU_TYPE_UQ));
	in.access_mode = EU_ALIGN16;
	in.src[0] = gs(2, 4, EU_TYPE_UQ);
	setq(2, 4, 1);
	in.saturate = true;
	run1(in);
	CHECK(rq(13, 0) == UINT64_MAX);
	in.saturate = false;
	run1(in);
	CHECK(rq(13, 0) == 1);
}

int main(void)
{
	test_df();
	test_q_saturate();
	test_q_hf();
	test_indirect_vxh_arf();
	test_send();
	test_send_host_mode();
	test_ended_count();
	test_split_send();
	return test_exit();
}
