/* OpenCL compute on the first GPU device the ICD loader finds (Intel's
 * compute runtime on gtsim's SKL): a vector add, a reduction in local
 * memory with barriers, global atomics, and atomics on kernel-scope
 * __local variables, each checked against
 * the same computation on the CPU.
 *   cl_compute             exit 0 pass, 1 fail, 77 no OpenCL GPU device
 *   cl_compute --require   the same, but no device is a failure (1) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e/compute_expect.h"

static const char *source =
	"__kernel void vadd(__global const int *a, __global const int *b,\n"
	"                   __global int *c)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	c[i] = a[i] + b[i];\n"
	"}\n"
	"\n"
	"/* one sum per work group of 64: a tree in local memory */\n"
	"__kernel void reduce(__global const uint *in, __global uint *out,\n"
	"                     __local uint *s)\n"
	"{\n"
	"	uint l = get_local_id(0);\n"
	"	s[l] = in[get_global_id(0)];\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (uint stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {\n"
	"		if (l < stride)\n"
	"			s[l] += s[l + stride];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (l == 0)\n"
	"		out[get_group_id(0)] = s[0];\n"
	"}\n"
	"\n"
	"/* st: sum, min, max, or, xor, exchange-returned-0 count, last,\n"
	" * 16 histogram bins, 64 compare-exchange slots */\n"
	"__kernel void atomics(__global const uint *in, __global uint *st)\n"
	"{\n"
	"	uint i = get_global_id(0), v = in[i];\n"
	"	atomic_add(&st[0], v);\n"
	"	atomic_min(&st[1], v);\n"
	"	atomic_max(&st[2], v);\n"
	"	atomic_or(&st[3], 1u << (v % 32));\n"
	"	atomic_xor(&st[4], v);\n"
	"	if (atomic_xchg(&st[6], i + 1) == 0)\n"
	"		atomic_inc(&st[5]);\n"
	"	atomic_inc(&st[7 + v % 16]);\n"
	"	atomic_cmpxchg(&st[23 + i % 64], 0, i + 1);\n"
	"}\n"
	"\n"
	"/* per group: local atomics on kernel-scope __local variables (IGC\n"
	" * addresses them in SLM with bit 28 set); out[g]: count, 8 bins, max */\n"
	"__kernel void local_vars(__global const uint *in, __global uint *out)\n"
	"{\n"
	"	__local uint count, bins[8], mx;\n"
	"	uint l = get_local_id(0), v = in[get_global_id(0)];\n"
	"	if (l < 8)\n"
	"		bins[l] = 0;\n"
	"	if (l == 0) {\n"
	"		count = 0;\n"
	"		mx = 0;\n"
	"	}\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	atomic_inc(&count);\n"
	"	atomic_add(&bins[v % 8], v);\n"
	"	atomic_max(&mx, v);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	__global uint *o = out + get_group_id(0) * 10;\n"
	"	if (l == 0) {\n"
	"		o[0] = count;\n"
	"		o[9] = mx;\n"
	"	}\n"
	"	if (l < 8)\n"
	"		o[1 + l] = bins[l];\n"
	"}\n";

#define CHECK_CL(call)                                                              \
	do {                                                                        \
		cl_int e_ = (call);                                                 \
		if (e_ != CL_SUCCESS) {                                             \
			fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__,    \
				#call, e_);                                         \
			exit(1);                                                    \
		}                                                                   \
	} while (0)

struct cl {
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
};

static cl_mem buffer(struct cl *c, size_t size, void *data)
{
	cl_int e;
	cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, data, &e);
	CHECK_CL(e);
	return m;
}

static cl_kernel kernel(struct cl *c, const char *name)
{
	cl_int e;
	cl_kernel k = clCreateKernel(c->prog, name, &e);
	CHECK_CL(e);
	return k;
}

static void run(struct cl *c, cl_kernel k, size_t global, size_t local)
{
	CHECK_CL(clEnqueueNDRangeKernel(c->q, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK_CL(clFinish(c->q));
}

static void read_back(struct cl *c, cl_mem m, size_t size, void *out)
{
	CHECK_CL(clEnqueueReadBuffer(c->q, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static void run_vadd(struct cl *c)
{
	enum { N = 4096 };
	static int32_t a[N], b[N], out[N];
	for (int i = 0; i < N; i++) {
		a[i] = i * 3 - 5000;
		b[i] = (i * 7919) % 10007;
		out[i] = -1;
	}
	cl_mem ma = buffer(c, sizeof(a), a), mb = buffer(c, sizeof(b), b),
	       mc = buffer(c, sizeof(out), out);
	cl_kernel k = kernel(c, "vadd");
	CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &ma));
	CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &mb));
	CHECK_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &mc));
	run(c, k, N, 64);
	read_back(c, mc, sizeof(out), out);
	for (int i = 0; i < N; i++)
		expect_u32("vadd", (size_t)i, (uint32_t)out[i], (uint32_t)(a[i] + b[i]));
	clReleaseKernel(k);
	clReleaseMemObject(ma);
	clReleaseMemObject(mb);
	clReleaseMemObject(mc);
}

static void run_reduce(struct cl *c)
{
	enum { GROUPS = 50, L = 64, N = GROUPS * L };
	static uint32_t in[N], out[GROUPS];
	for (uint32_t i = 0; i < N; i++)
		in[i] = (i * 2654435761u) >> 7;
	memset(out, 0xee, sizeof(out));
	cl_mem mi = buffer(c, sizeof(in), in), mo = buffer(c, sizeof(out), out);
	cl_kernel k = kernel(c, "reduce");
	CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &mi));
	CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &mo));
	CHECK_CL(clSetKernelArg(k, 2, L * sizeof(uint32_t), NULL));
	run(c, k, N, L);
	read_back(c, mo, sizeof(out), out);
	for (uint32_t g = 0; g < GROUPS; g++) {
		uint32_t sum = 0;
		for (uint32_t i = g * L; i < g * L + L; i++)
			sum += in[i];
		expect_u32("reduce", g, out[g], sum);
	}
	clReleaseKernel(k);
	clReleaseMemObject(mi);
	clReleaseMemObject(mo);
}

static void run_atomics(struct cl *c)
{
	enum { GROUPS = 32, L = 64, N = GROUPS * L, ST = 87 };
	static uint32_t in[N], st[ST];
	for (uint32_t i = 0; i < N; i++)
		in[i] = (i * 7919u + 13u) % 100003u;
	memset(st, 0, sizeof(st));
	st[1] = UINT32_MAX;
	cl_mem mi = buffer(c, sizeof(in), in), ms = buffer(c, sizeof(st), st);
	cl_kernel k = kernel(c, "atomics");
	CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &mi));
	CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &ms));
	run(c, k, N, L);
	read_back(c, ms, sizeof(st), st);
	uint32_t sum = 0, mn = UINT32_MAX, mx = 0, bits = 0, x = 0, hist[16] = { 0 };
	for (uint32_t i = 0; i < N; i++) {
		sum += in[i];
		mn = in[i] < mn ? in[i] : mn;
		mx = in[i] > mx ? in[i] : mx;
		bits |= 1u << (in[i] % 32);
		x ^= in[i];
		hist[in[i] % 16]++;
	}
	expect_u32("atomic_add", 0, st[0], sum);
	expect_u32("atomic_min", 0, st[1], mn);
	expect_u32("atomic_max", 0, st[2], mx);
	expect_u32("atomic_or", 0, st[3], bits);
	expect_u32("atomic_xor", 0, st[4], x);
	expect_u32("atomic_xchg returning 0", 0, st[5], 1);
	if (st[6] == 0 || st[6] > N)
		expect_u32("atomic_xchg last", 0, st[6], 1);
	for (uint32_t b = 0; b < 16; b++)
		expect_u32("atomic_inc histogram", b, st[7 + b], hist[b]);
	for (uint32_t s = 0; s < 64; s++) {
		uint32_t got = st[23 + s];
		expect_u32("atomic_cmpxchg slot owner", s,
			   got && got <= N ? (got - 1) % 64 : UINT32_MAX, s);
	}
	clReleaseKernel(k);
	clReleaseMemObject(mi);
	clReleaseMemObject(ms);
}

static void run_local_vars(struct cl *c)
{
	enum { GROUPS = 20, L = 64, N = GROUPS * L };
	static uint32_t in[N], out[GROUPS * 10];
	for (uint32_t i = 0; i < N; i++)
		in[i] = (i * 40503u + 7u) % 65521u;
	memset(out, 0xee, sizeof(out));
	cl_mem mi = buffer(c, sizeof(in), in), mo = buffer(c, sizeof(out), out);
	cl_kernel k = kernel(c, "local_vars");
	CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &mi));
	CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &mo));
	run(c, k, N, L);
	read_back(c, mo, sizeof(out), out);
	for (uint32_t g = 0; g < GROUPS; g++) {
		uint32_t bins[8] = { 0 }, mx = 0;
		for (uint32_t i = g * L; i < g * L + L; i++) {
			bins[in[i] % 8] += in[i];
			mx = in[i] > mx ? in[i] : mx;
		}
		expect_u32("local count", g, out[g * 10], L);
		for (uint32_t b = 0; b < 8; b++)
			expect_u32("local bins", g * 8 + b, out[g * 10 + 1 + b], bins[b]);
		expect_u32("local max", g, out[g * 10 + 9], mx);
	}
	clReleaseKernel(k);
	clReleaseMemObject(mi);
	clReleaseMemObject(mo);
}

int main(int argc, char **argv)
{
	int require = argc == 2 && !strcmp(argv[1], "--require");
	cl_platform_id plats[8];
	cl_uint np = 0;
	cl_device_id dev = NULL;
	if (clGetPlatformIDs(8, plats, &np) == CL_SUCCESS)
		for (cl_uint i = 0; i < np && !dev; i++)
			if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
				dev = NULL;
	if (!dev) {
		printf("%s: no OpenCL GPU device (ICD loader, runtime or device missing)\n",
		       require ? "FAIL" : "SKIP");
		return require ? 1 : 77;
	}
	char name[256] = "";
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
	printf("device: %s\n", name);
	struct cl c;
	cl_int e;
	c.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	CHECK_CL(e);
	c.q = clCreateCommandQueue(c.ctx, dev, 0, &e);
	CHECK_CL(e);
	c.prog = clCreateProgramWithSource(c.ctx, 1, &source, NULL, &e);
	CHECK_CL(e);
	if (clBuildProgram(c.prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
		char log[4096] = "";
		clGetProgramBuildInfo(c.prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
		fprintf(stderr, "build failed:\n%s\n", log);
		return 1;
	}
	const struct { const char *name; void (*fn)(struct cl *); } steps[] = {
		{ "vadd", run_vadd }, { "reduce", run_reduce }, { "atomics", run_atomics },
		{ "local_vars", run_local_vars },
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		int before = failures;
		steps[i].fn(&c);
		printf("%s: %s\n", steps[i].name, failures > before ? "FAIL" : "ok");
	}
	clReleaseProgram(c.prog);
	clReleaseCommandQueue(c.q);
	clReleaseContext(c.ctx);
	printf("%s\n", failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}
