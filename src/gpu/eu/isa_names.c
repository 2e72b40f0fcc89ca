/* Names of math functions and message types as Mesa prints them
 * (PRM vol. 7 "math"; vol. 2a sampler / gateway / URB message types). */
#include "gpu/eu/isa_names.h"

const char *const eu_math_fn_names[16] = {
	[1] = "inv", [2] = "log", [3] = "exp", [4] = "sqrt", [5] = "rsq",
	[6] = "sin", [7] = "cos", [8] = "sincos", [9] = "fdiv", [10] = "pow",
	[11] = "intdivmod", [12] = "intdiv", [13] = "intmod", [14] = "invm",
	[15] = "rsqrtm",
};

const char *const eu_sampler_msg_names[32] = {
	[0] = "sample", [1] = "sample_b", [2] = "sample_l", [3] = "sample_c",
	[4] = "sample_d", [5] = "sample_b_c", [6] = "sample_l_c", [7] = "ld",
	[8] = "gather4", [9] = "lod", [10] = "resinfo", [11] = "sampleinfo",
	[16] = "gather4_c", [17] = "gather4_po", [18] = "gather4_po_c",
	[20] = "sample_d_c", [24] = "sample_lz", [25] = "sample_c_lz",
	[26] = "ld_lz", [28] = "ld2dms_w", [29] = "ld_mcs", [30] = "ld2dms",
	[31] = "ld2dss",
};

const char *const eu_gateway_msg_names[8] = {
	"open", "close", "forward msg", "get timestamp", "barrier msg",
	"update state", "mmio read/write", 0,
};

const char *const eu_urb_opcode_names[16] = {
	"write HWord", "write OWord", "read HWord", "read OWord", "atomic mov",
	"atomic inc", "atomic add", "SIMD8 write", "SIMD8 read",
};
