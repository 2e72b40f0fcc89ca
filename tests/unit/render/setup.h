/* State setup shared by the front end's tests (see test_frontend.c). */
#ifndef GTSIM_TEST_RENDER_SETUP_H
#define GTSIM_TEST_RENDER_SETUP_H

#include "drv/seed_shaders.h"
#include "fixture.h"

#define KERNEL_ADDR 0x10000
#define VB_ADDR 0x20000
#define VB2_ADDR 0x21000
#define IB_ADDR 0x22000

#define green_vs gtdrv_green_vs
#define square gtdrv_square

enum { TRILIST = 4, TRISTRIP = 5, R32G32B32A32_FLOAT = 0, R32_UINT = 215 };
enum { NOSTORE = 0, SRC = 1, STORE_0 = 2, STORE_1_FP = 3 };

/* Common state: 3D pipeline, instruction base 0, a URB from seed 003's
 * numbers for a 1 x 64-byte VUE (2560 entries at chunk 4), the VS. */
static inline void setup(struct fixture *fx, const char *vs_text, uint32_t read_length)
{
	fx_kernel(fx, KERNEL_ADDR, vs_text);
	fx_cmd(fx, "PIPELINE_SELECT", NULL, 0);
	fx_cmd(fx, "STATE_BASE_ADDRESS", "Instruction Base Address Modify Enable", 1);
	fx_begin(fx, "3DSTATE_URB_VS", 0);
	fx_set(fx, "VS Number of URB Entries", 2560);
	fx_set(fx, "VS URB Entry Allocation Size", 0);
	fx_set(fx, "VS URB Starting Address", 4);
	CHECK_EQ(fx_submit(fx), 0);
	fx_begin(fx, "3DSTATE_VS", 0);
	fx_set(fx, "Kernel Start Pointer", KERNEL_ADDR);
	fx_set(fx, "Dispatch GRF Start Register For URB Data", 2);
	fx_set(fx, "Vertex URB Entry Read Length", read_length);
	fx_set(fx, "SIMD8 Dispatch Enable", 1);
	fx_set(fx, "Statistics Enable", 1);
	fx_set(fx, "Enable", 1);
	CHECK_EQ(fx_submit(fx), 0);
	fx_cmd(fx, "3DSTATE_VF_STATISTICS", "Statistics Enable", 1);
}

static inline void vertex_buffer(struct fixture *fx, unsigned index, uint64_t addr, uint32_t pitch,
			  uint32_t size)
{
	fx_begin(fx, "3DSTATE_VERTEX_BUFFERS", 5);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Vertex Buffer Index", index);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Buffer Pitch", pitch);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Address Modify Enable", 1);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Buffer Starting Address", addr);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Buffer Size", size);
	CHECK_EQ(fx_submit(fx), 0);
}

struct element { unsigned vb, format, offset, c[4]; };

static inline void vertex_elements(struct fixture *fx, const struct element *e, unsigned n)
{
	static const char *const comp[4] = { "Component 0 Control", "Component 1 Control",
					     "Component 2 Control", "Component 3 Control" };
	fx_begin(fx, "3DSTATE_VERTEX_ELEMENTS", 1 + 2 * n);
	for (unsigned i = 0; i < n; i++) {
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Vertex Buffer Index", e[i].vb);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Valid", 1);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Source Element Format",
			   e[i].format);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Source Element Offset",
			   e[i].offset);
		for (int c = 0; c < 4; c++)
			fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, comp[c], e[i].c[c]);
	}
	CHECK_EQ(fx_submit(fx), 0);
}

static inline int draw(struct fixture *fx, bool indexed, uint32_t count, uint32_t start,
		uint32_t instances, uint32_t start_instance, int32_t base_vertex)
{
	fx_begin(fx, "3DPRIMITIVE", 0);
	fx_set(fx, "Vertex Access Type", indexed);
	fx_set(fx, "Vertex Count Per Instance", count);
	fx_set(fx, "Start Vertex Location", start);
	fx_set(fx, "Instance Count", instances);
	fx_set(fx, "Start Instance Location", start_instance);
	fx_set(fx, "Base Vertex Location", (uint64_t)(int64_t)base_vertex);
	return fx_submit(fx);
}

#endif
