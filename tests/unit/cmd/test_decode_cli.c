/* `gtsim decode FILE`: a raw batch dump written here, dwords encoded by
 * hand from the BDW PRM (vol. 2a), decoded by the CLI. The printed command
 * names, addresses (from --addr, advancing by each command's length) and
 * field values must be the ones worked out by hand; an unknown command, a
 * truncated one, or a command the chosen engine lacks exits 1. argv[1] is
 * the gtsim executable. */
#include <stdbool.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static const uint32_t batch[] = {
	/* 0x1000 MI_LOAD_REGISTER_IMM: opcode 0x22 << 23, DWord Length 1 (3 dwords) */
	0x11000001, 0x00002600, 0x12345678,
	/* 0x100c MI_STORE_DATA_IMM: opcode 0x20, length 2 (4 dwords), address 0x1000 */
	0x10000002, 0x00001000, 0x00000000, 0x0000cafe,
	/* 0x101c PIPE_CONTROL: type 3, subtype 3, opcode 2, length 4 (6 dwords);
	 * DW1 bits 15:14 Post Sync Operation = 1, write immediate 0x11 at 0x2000 */
	0x7a000004, 0x00004000, 0x00002000, 0x00000000, 0x00000011, 0x00000000,
	/* 0x1034 3DPRIMITIVE: type 3, subtype 3, opcode 3, length 5 (7 dwords):
	 * TRILIST (4), 3 vertices, 1 instance */
	0x7b000005, 0x00000004, 3, 0, 1, 0, 0,
	/* 0x1050 MI_BATCH_BUFFER_END: opcode 0x0a << 23 */
	0x05000000,
};

static const char *const expected[] = {
	"0x00001000:  0x11000001:  MI_LOAD_REGISTER_IMM",
	"    Register Offset[0]: 0x00002600",
	"    Data DWord[0]: 305419896",
	"0x0000100c:  0x10000002:  MI_STORE_DATA_IMM",
	"    Address: 0x00001000",
	"    Immediate Data: 51966",
	"0x0000101c:  0x7a000004:  PIPE_CONTROL",
	"0x00001020:  0x00004000 : Dword 1",
	"    Post Sync Operation: 1 (Write Immediate Data)",
	"    Address: 0x00002000",
	"    Immediate Data: 17",
	"0x00001034:  0x7b000005:  3DPRIMITIVE",
	"    Primitive Topology Type: 4 (TRILIST)",
	"    Vertex Count Per Instance: 3",
	"    Instance Count: 1",
	"0x00001050:  0x05000000:  MI_BATCH_BUFFER_END",
};

static const char *gtsim;

static void write_dump(const char *path, const uint32_t *dw, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(fwrite(dw, 4, n, f), n);
		fclose(f);
	}
}

/* Runs gtsim decode PATH ARGS; the expected lines must come out in order.
 * Returns the exit status. */
static int decode(const char *path, const char *args, const char *const *want, size_t nwant)
{
	char cmd[512], line[512];
	snprintf(cmd, sizeof(cmd), "%s decode %s %s 2>/dev/null", gtsim, path, args);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	size_t next = 0;
	while (p && fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		if (next < nwant && !strcmp(line, want[next]))
			next++;
	}
	if (next < nwant)
		fprintf(stderr, "missing (in order): \"%s\"\n", want[next]);
	CHECK_EQ(next, nwant);
	int status = p ? pclose(p) : -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		test_skip("usage: test_decode_cli GTSIM");
	gtsim = argv[1];
	char path[] = "/tmp/gtsim-test-decodeXXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		test_skip("mkstemp failed");
	close(fd);

	write_dump(path, batch, sizeof(batch) / 4);
	CHECK_EQ(decode(path, "--addr 0x1000", expected, sizeof(expected) / sizeof(expected[0])), 0);
	/* PIPE_CONTROL and 3DPRIMITIVE do not exist on the blitter. */
	CHECK_EQ(decode(path, "--engine bcs --addr 0x1000", expected, 6), 1);

	/* An unknown command, then a command cut short: exit status 1. */
	const uint32_t junk[] = { 0x00000000, 0xffffffff, 0x05000000 };
	const char *noop[] = { "0x00000000:  0x00000000:  MI_NOOP" };
	write_dump(path, junk, 3);
	CHECK_EQ(decode(path, "", noop, 1), 1);
	const uint32_t cut[] = { 0x10000002, 0x00001000 };
	write_dump(path, cut, 2);
	CHECK_EQ(decode(path, "", NULL, 0), 1);
	unlink(path);
	return test_exit();
}
