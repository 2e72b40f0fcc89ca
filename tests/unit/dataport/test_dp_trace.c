/* The "dp" trace: one line per message naming it, the surface, the slots
 * out of bounds, and for atomics each slot's offset with its old and new
 * value (GTSIM_TRACE=dp, written to GTSIM_TRACE_FILE). */
#include "dp_fixture.h"
#include "trace_capture.h"

int main(void)
{
	char path[] = "/tmp/gtsim-dp-trace-XXXXXX";
	if (trace_capture_start(path, "dp")) {
		CHECK(!"no trace file");
		return test_exit();
	}

	struct fixture f;
	fx_init(&f, 9);
	fx_buffer(&f, 1, FX_DATA, 8);
	fx_dw(&f, FX_DATA)[1] = 41;
	/* SIMD8 untyped atomic INC with return, slots 0 and 1: slot 1 at byte
	 * 8 is out of the 8-byte buffer */
	fx_set(&f, FX_PAYLOAD, 0, 4);
	fx_set(&f, FX_PAYLOAD, 1, 8);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(2, 0x35, 1), 8, 1, 1, false, 0x3), 0);
	fx_fini(&f);
	char line[2048] = "";
	CHECK(trace_capture_read(path, line, sizeof(line)) != NULL);
	/* the first line */
	char *nl = strchr(line, '\n');
	if (nl)
		nl[1] = 0;
	CHECK(strstr(line, "[dp]") == line);
	CHECK(strstr(line, "untyped atomic") != NULL);
	CHECK(strstr(line, "oob 0x2") != NULL);
	CHECK(strstr(line, "bti 1") != NULL);
	CHECK(strstr(line, "inc return") != NULL);
	CHECK(strstr(line, "0:0x4 0x29->0x2a") != NULL);
	CHECK(strstr(line, "1:0x8 oob") != NULL);
	if (test_failures)
		fprintf(stderr, "trace line: %s", line);
	return test_exit();
}
