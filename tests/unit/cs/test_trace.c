/* Trace category `batch`: every executed command decoded the way Mesa's
 * INTEL_DEBUG=bat prints it, under a section line naming the engine and
 * where the commands come from, printed when that changes. The expected
 * sequence is written here from the flow the commands take (ring ->
 * first-level batch -> second-level batch -> back -> ring); commands are
 * hex dwords from the BDW PRM (vol. 2a), names are the PRM's. */
#include "test.h"
#include "cs_harness.h"

#include <unistd.h>

#define MI_BBE 0x05000000u                        /* opcode 0x0a */
#define MI_BBS_PPGTT (0x18800001u | 1u << 8)      /* opcode 0x31, PPGTT */
#define MI_BBS_2ND_PPGTT (MI_BBS_PPGTT | 1u << 22) /* Second Level Batch */
#define MI_SDI 0x10000002u                        /* MI_STORE_DATA_IMM */
#define MI_STORE_DATA_INDEX 0x10800001u           /* opcode 0x21 */

static const char *const expected[] = {
	"[batch] rcs0 ring:",
	"MI_BATCH_BUFFER_START",
	"[batch] rcs0 batch 0x200000:",
	"MI_STORE_DATA_IMM",
	"MI_BATCH_BUFFER_START",
	"[batch] rcs0 2nd-level batch 0x7fff00001000:",
	"MI_STORE_DATA_IMM",
	"MI_BATCH_BUFFER_END",
	"[batch] rcs0 batch 0x200000 (continued):",
	"MI_STORE_DATA_IMM",
	"MI_BATCH_BUFFER_END",
	"[batch] rcs0 ring:",
	"MI_STORE_DATA_INDEX",
};

int main(void)
{
	char path[] = "/tmp/gtsim-cs-trace-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		test_skip("cannot create a temporary file");
	close(fd);
	setenv("GTSIM_TRACE", "batch", 1);
	setenv("GTSIM_TRACE_FILE", path, 1);

	struct harness h;
	h_init(&h, 8, true);
	uint64_t b1 = 0x200000, b2 = 0x7fff00001000ull, out = 0x300000;
	h_ppgtt_map(&h, b1);
	h_ppgtt_map(&h, b2);
	h_ppgtt_map(&h, out);
	uint32_t batch1[] = {
		MI_SDI, (uint32_t)out, 0, 1,
		MI_BBS_2ND_PPGTT, (uint32_t)b2, (uint32_t)(b2 >> 32),
		MI_SDI, (uint32_t)out + 8, 0, 3,
		MI_BBE,
	};
	uint32_t batch2[] = { MI_SDI, (uint32_t)out + 4, 0, 2, MI_BBE };
	h_write(&h, false, b1, batch1, 12);
	h_write(&h, false, b2, batch2, 5);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)b1, 0, MI_STORE_DATA_INDEX, 0x40 * 4, 4 };
	h_emit(&h, ENGINE_RCS, ring, 6);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
	fflush(trace_stream());

	/* The section lines and the command names of the header lines
	 * ("0x<addr>:  0x<dw0>:  NAME"), in order. */
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	char line[512];
	size_t n = 0, count = sizeof(expected) / sizeof(expected[0]);
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		const char *got = NULL;
		char *name = strstr(line, ":  ");
		if (!strncmp(line, "[batch]", 7))
			got = line;
		else if (!strncmp(line, "0x", 2) && name && (name = strstr(name + 3, ":  ")))
			got = name + 3;
		if (!got)
			continue;
		if (n < count)
			CHECK_STR(got, expected[n]);
		n++;
	}
	CHECK_EQ(n, count);
	if (f)
		fclose(f);
	unlink(path);
	return test_exit();
}
