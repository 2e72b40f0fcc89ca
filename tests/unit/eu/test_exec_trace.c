/* The "eu" trace shows each executed instruction in Mesa's syntax with the
 * destination value of every enabled channel; "send" shows the message. */
#include <stdlib.h>
#include <unistd.h>

#include "common/trace.h"
#include "gpu/eu/send.h"
#include "test_exec_util.h"

static int sink(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	(void)ctx; (void)t; (void)m;
	return 0;
}

int main(void)
{
	char path[] = "/tmp/gtsim-exec-trace-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		test_skip("no temporary file");
	close(fd);
	setenv("GTSIM_TRACE", "eu,send", 1);
	setenv("GTSIM_TRACE_FILE", path, 1);

	struct eu_inst p[3];
	p[0] = i2(EU_OP_ADD, 8, gd(10, EU_TYPE_F), g(2, EU_TYPE_F), immf(0.5f));
	p[1] = i1(EU_OP_MOV, 8, gd(11, EU_TYPE_D), immd(-3));
	p[2] = i2(EU_OP_SEND, 8, null_dst(EU_TYPE_UD), g(10, EU_TYPE_F), immud(0));
	p[2].sfid = EU_SFID_URB;
	p[2].desc = 2u << 25 | 7u;
	p[2].eot = true;
	struct exec_prog *prog = exec_prog_build(8, p, NULL, 3);
	const struct sfid_table tab = { .fn = {
		[EU_SFID_URB] = sink,
	} };
	static struct eu_thread t;
	eu_thread_init(&t, 8, 0x05);            /* channels 0 and 2 */
	t.sfids = &tab;
	for (unsigned i = 0; i < 8; i++)
		setf(&t, 2, i, (float)i);
	CHECK_EQ(exec_run(&t, prog, 100), EU_THREAD_DONE);
	exec_prog_free(prog);
	/* an undefined opcode (0x0b) is a fault with an eu trace line */
	struct eu_inst bad = i1(EU_OP_MOV, 8, gd(12, EU_TYPE_D), immd(1));
	bad.opcode = 0x0b;
	prog = exec_prog_build(8, &bad, NULL, 1);
	eu_thread_init(&t, 8, 0xff);
	CHECK_EQ(exec_run(&t, prog, 100), EU_THREAD_FAULT);
	exec_prog_free(prog);
	fflush(trace_stream());

	FILE *f = fopen(path, "r");
	char buf[8192] = { 0 };
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	unlink(path);
	buf[n] = 0;
	/* disassembly, then channel:value for enabled channels only */
	CHECK(strstr(buf, "[eu] ip 0x0000 add(8) g10<1>F g2<8,8,1>F") != NULL);
	CHECK(strstr(buf, "| 0:0.5 2:2.5\n") != NULL);
	CHECK(strstr(buf, "mov(8) g11<1>D") != NULL);
	CHECK(strstr(buf, "| 0:-3 2:-3\n") != NULL);
	CHECK(strstr(buf, "[send] ip 0x0020 send(8) sfid 6 urb") != NULL);
	CHECK(strstr(buf, "mlen 2 rlen 0") != NULL);
	CHECK(strstr(buf, "EOT") != NULL);
	CHECK(strstr(buf, "FAULT (illegal instruction exception)") != NULL);
	if (test_failures)
		fprintf(stderr, "trace was:\n%s", buf);
	return test_exit();
}
