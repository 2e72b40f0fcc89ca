/* URB_WRITE_HWORD / URB_WRITE_OWORD of a SIMD4x2 thread (sfid/urb_simd4x2.c),
 * checked against URB bytes worked out by hand from the PRM's header
 * layout (vol. 7 "URB messages", M0.0/M0.1 handles, M0.3/M0.4 per-slot
 * offsets, M0.5 bits 15:8 channel masks; HWord offsets in 256-bit units,
 * OWord offsets in 128-bit units; interleaved: a register's DWords 3:0 go
 * to slot 0, 7:4 to slot 1):
 *   - HWord, global 1, per-slot offsets 1 and 2, slot 0 mask .xy, slot 1
 *     .zw: slot 0 row 4, slot 1 row 6 get those channels of g2 and g3;
 *   - OWord, global 3, no per-slot offset, exec mask 0x0f (slot 1 off):
 *     row 3 of slot 0 only;
 *   - a write past the entry: a fault naming the slot and handle;
 *   - URB_NOSWIZZLE: a fault naming it. */
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/asm.h"
#include "gpu/eu/exec.h"
#include "gpu/eu/send.h"
#include "gpu/eu/thread.h"
#include "gpu/sfid/urb.h"
#include "test.h"

#define ENTRY 256          /* bytes: 16 rows */

static uint8_t urb_mem[4 * ENTRY];

static struct urb_space space(void)
{
	struct urb_space u = { .mem = urb_mem, .bytes = sizeof(urb_mem) };
	u.part[0].first = 0;
	u.part[0].entry_bytes = ENTRY;
	u.part[0].entries = 4;
	return u;
}

/* Runs `text` (Mesa syntax) on a SIMD4x2 thread with exec mask `mask`;
 * g0 the header, g2/g3 DWord i = 100 x register + i. */
static enum eu_thread_state run(const char *text, uint32_t m05, uint32_t off0, uint32_t off1,
				uint32_t mask, struct eu_thread *t)
{
	struct eu_asm_result r;
	if (eu_assemble(8, text, strlen(text), "test", &r)) {
		fprintf(stderr, "%s\n", r.error);
		CHECK(0);
		return EU_THREAD_FAULT;
	}
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(8, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	struct urb_space u = space();
	const struct sfid_table tab = { .fn = { [EU_SFID_URB] = urb_sfid_handler } };
	eu_thread_init(t, 8, mask);
	t->sfids = &tab;
	t->sfid_units = &u;
	/* handles: entries 1 and 2 (64-byte units: 4 and 8) */
	eu_grf_set_ud(t, 1, 0, ENTRY / 64);
	eu_grf_set_ud(t, 1, 1, 2 * ENTRY / 64);
	eu_grf_set_ud(t, 1, 3, off0);
	eu_grf_set_ud(t, 1, 4, off1);
	eu_grf_set_ud(t, 1, 5, m05);
	for (unsigned reg = 2; reg < 4; reg++)
		for (unsigned i = 0; i < 8; i++)
			eu_grf_set_ud(t, reg, i, 100 * reg + i);
	enum eu_thread_state s = exec_run(t, p, 100);
	exec_prog_free(p);
	return s;
}

static uint32_t at(unsigned entry, unsigned row, unsigned c)
{
	uint32_t v;
	memcpy(&v, urb_mem + entry * ENTRY + row * 16 + c * 4, 4);
	return v;
}

static void hword_per_slot_masked(void)
{
	static struct eu_thread t;
	memset(urb_mem, 0, sizeof(urb_mem));
	/* masks: slot 0 DATA[1:0] (bits 9:8), slot 1 DATA[3:2] (bits 15:14) */
	CHECK_EQ(run("send(8) null<1>F g1<4,4,1>F\n"
		     "    urb 1 write HWord interleave per-slot mlen 3 rlen 0 { align16 1Q EOT };\n",
		     0xc300, 1, 2, 0xff, &t), EU_THREAD_DONE);
	/* slot 0: (1 + 1) HWords = row 4; slot 1: (1 + 2) HWords = row 6; nothing
	 * else written */
	static uint8_t want[sizeof(urb_mem)];
	memset(want, 0, sizeof(want));
	for (unsigned j = 0; j < 2; j++)
		for (unsigned c = 0; c < 4; c++) {
			uint32_t v0 = 100 * (2 + j) + c, v1 = 100 * (2 + j) + 4 + c;
			if (c < 2)
				memcpy(want + 1 * ENTRY + (4 + j) * 16 + c * 4, &v0, 4);
			else
				memcpy(want + 2 * ENTRY + (6 + j) * 16 + c * 4, &v1, 4);
		}
	for (unsigned i = 0; i < sizeof(urb_mem) / 4; i++)
		if (memcmp(urb_mem + 4 * i, want + 4 * i, 4)) {
			fprintf(stderr, "URB DWord %u: 0x%08x, want 0x%08x\n", i,
				at(0, 0, i), *(const uint32_t *)(const void *)(want + 4 * i));
			CHECK(0);
			break;
		}
}

static void oword_slot1_off(void)
{
	static struct eu_thread t;
	memset(urb_mem, 0, sizeof(urb_mem));
	CHECK_EQ(run("send(8) null<1>F g1<4,4,1>F\n"
		     "    urb 3 write OWord interleave mlen 2 rlen 0 { align16 1Q EOT };\n",
		     0xff00, 7, 7, 0x0f, &t), EU_THREAD_DONE);
	for (unsigned c = 0; c < 4; c++)
		CHECK_EQ(at(1, 3, c), 200 + c);     /* row 3: OWord units, no per-slot */
	for (unsigned i = 0; i < ENTRY; i++)
		CHECK_EQ(urb_mem[2 * ENTRY + i], 0);
}

static void faults(void)
{
	static struct eu_thread t;
	/* slot 1 at (1 + 8) HWords = row 18 of a 16-row entry */
	CHECK_EQ(run("send(8) null<1>F g1<4,4,1>F\n"
		     "    urb 1 write HWord interleave per-slot mlen 2 rlen 0 { align16 1Q EOT };\n",
		     0xff00, 0, 8, 0xff, &t), EU_THREAD_FAULT);
	CHECK(strstr(t.fault, "slot 1 handle 0x8") != NULL);
	CHECK_EQ(run("send(8) null<1>F g1<4,4,1>F\n"
		     "    urb 1 write HWord mlen 2 rlen 0 { align16 1Q EOT };\n",
		     0xff00, 0, 0, 0xff, &t), EU_THREAD_FAULT);
	CHECK(strstr(t.fault, "URB_NOSWIZZLE is not implemented") != NULL);
}

int main(void)
{
	hword_per_slot_masked();
	oword_slot1_off();
	faults();
	return test_exit();
}
