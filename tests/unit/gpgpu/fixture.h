/* A small GPU for the compute pipeline's unit tests: host pages mapped
 * through a GGTT, commands packed by the generated packers and executed by
 * gpgpu_command(), kernels assembled by gtsim from Mesa's syntax (the
 * messages' descriptors as iga64 decodes them: 0x02000004 "gateway; signal
 * barrier", 0x02000010 "spawner; end of thread"). Memory: kernels at 0
 * (Instruction Base 0), interface descriptors at FX_IDD and the CURBE at
 * FX_CURBE (Dynamic State Base 0). */
#ifndef GTSIM_TEST_GPGPU_FIXTURE_H
#define GTSIM_TEST_GPGPU_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "gpu/cmd/cmd_names.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/regs.h"
#include "gpu/eu/asm.h"
#include "gpu/gpgpu/gpgpu.h"
#include "test.h"

#define FX_PAGES 64
#define FX_IDD 0x8000u
#define FX_CURBE 0x9000u
#define FX_SURFACE_BASE 0x10000u

/* The thread spawner's end of thread, from g127 (a copy of g0). */
#define FX_EOT \
	"mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };\n" \
	"send(8)         null<1>UW       g127<8,8,1>UD   0x02000010\n" \
	"                            thread_spawner MsgDesc: mlen 1 rlen 0 { align1 WE_all 1Q EOT };\n"
/* A barrier: the gateway message with R0.2's barrier ID, then the wait. */
#define FX_BARRIER \
	"mov(8)          g126<1>UD       0x00000000UD                    { align1 WE_all 1Q };\n" \
	"and(1)          g126.2<1>UD     g0.2<0,1,0>UD   0x8f000000UD    { align1 WE_all 1N };\n" \
	"send(1)         null<1>UW       g126<0,1,0>UD   0x02000004\n" \
	"                            gateway MsgDesc: (barrier msg) mlen 1 rlen 0 { align1 WE_all 1N };\n" \
	"wait(1)         n0<1>UD                                         { align1 WE_all 1N };\n"

struct fixture {
	const struct gt_devinfo *info;
	int gen;
	struct gt_phys *phys;
	struct gt_ggtt ggtt;
	uint8_t *host;
	struct cs_regs *regs;
	struct gpgpu_env env;
	struct gpgpu_state *gs;
	uint32_t dw[64];
};

static inline void fx_init(struct fixture *fx, const char *dev)
{
	memset(fx, 0, sizeof(*fx));
	fx->info = devinfo_lookup(dev);
	fx->gen = fx->info->gen;
	fx->phys = phys_create();
	fx->host = aligned_alloc(4096, FX_PAGES * 4096);
	memset(fx->host, 0, FX_PAGES * 4096);
	uint64_t pa = phys_add(fx->phys, fx->host, FX_PAGES * 4096);
	fx->ggtt.size = 16ull << 20;
	fx->ggtt.ptes = calloc(fx->ggtt.size / 4096, sizeof(uint64_t));
	for (uint64_t i = 0; i < FX_PAGES; i++)
		fx->ggtt.ptes[i] = (pa + i * 4096) | GT_PTE_PRESENT | GT_PTE_RW;
	fx->regs = calloc(1, sizeof(*fx->regs));
	fx->env = (struct gpgpu_env){ .vm = { .phys = fx->phys, .ggtt = &fx->ggtt },
				      .regs = fx->regs };
	fx->gs = gpgpu_state_create(fx->info);
}

static inline void fx_fini(struct fixture *fx)
{
	gpgpu_state_destroy(fx->gs);
	free(fx->regs);
	free(fx->ggtt.ptes);
	phys_destroy(fx->phys);
	free(fx->host);
}

static inline int fx_exec(struct fixture *fx, const char *name, uint32_t len, int packed)
{
	CHECK_EQ(packed, 0);
	const struct cmd_desc *d = cmd_find_name(fx->gen, name);
	CHECK(d != NULL);
	int r = gpgpu_command(fx->gs, &fx->env, d, fx->dw, len);
	memset(fx->dw, 0, sizeof(fx->dw));
	return r;
}

/* Execute command NAME with the given fields: gpgpu_command's result. */
#define FX_EXEC(fx, NAME, ...) \
	fx_exec((fx), #NAME, cmd_##NAME##_length((fx)->gen), \
		cmd_##NAME##_pack((fx)->gen, (fx)->dw, cmd_##NAME##_length((fx)->gen), \
				  &(const struct cmd_##NAME){ __VA_ARGS__ }))

static inline void fx_kernel(struct fixture *fx, uint32_t at, const char *text)
{
	struct eu_asm_result res;
	if (eu_assemble(fx->gen, text, strlen(text), "kernel.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		CHECK(0);
		exit(1);
	}
	CHECK(at + res.len <= FX_IDD);
	memcpy(fx->host + at, res.bytes, res.len);
	eu_asm_result_free(&res);
}

/* Interface descriptor 0 written at FX_IDD and loaded. */
static inline void fx_load_id(struct fixture *fx, const struct cmd_INTERFACE_DESCRIPTOR_DATA *id)
{
	uint32_t idd[8] = { 0 };
	CHECK_EQ(cmd_INTERFACE_DESCRIPTOR_DATA_pack(fx->gen, idd, 8, id), 0);
	memcpy(fx->host + FX_IDD, idd, sizeof(idd));
	CHECK_EQ(FX_EXEC(fx, MEDIA_INTERFACE_DESCRIPTOR_LOAD,
			 .interface_descriptor_total_length = 32,
			 .interface_descriptor_data_start_address = FX_IDD), 0);
}

/* PIPELINE_SELECT GPGPU, STATE_BASE_ADDRESS, MEDIA_VFE_STATE, the CURBE
 * and interface descriptor 0 (its kernel at 0) loaded. */
static inline void fx_setup(struct fixture *fx, const struct cmd_INTERFACE_DESCRIPTOR_DATA *id,
			    const uint32_t *curbe, uint32_t curbe_bytes, uint32_t scratch_space,
			    uint64_t scratch_base)
{
	CHECK_EQ(FX_EXEC(fx, PIPELINE_SELECT, .pipeline_selection = 2, .mask_bits = 3), 0);
	CHECK_EQ(FX_EXEC(fx, STATE_BASE_ADDRESS,
			 .general_state_base_address_modify_enable = true,
			 .surface_state_base_address_modify_enable = true,
			 .surface_state_base_address = FX_SURFACE_BASE,
			 .dynamic_state_base_address_modify_enable = true,
			 .instruction_base_address_modify_enable = true), 0);
	CHECK_EQ(FX_EXEC(fx, MEDIA_VFE_STATE, .maximum_number_of_threads = 63,
			 .number_of_urb_entries = 2, .urb_entry_allocation_size = 2,
			 .curbe_allocation_size = 64, .per_thread_scratch_space = scratch_space,
			 .scratch_space_base_pointer = scratch_base), 0);
	memcpy(fx->host + FX_CURBE, curbe, curbe_bytes);
	CHECK_EQ(FX_EXEC(fx, MEDIA_CURBE_LOAD, .curbe_total_data_length = (curbe_bytes + 63) & ~63u,
			 .curbe_data_start_address = FX_CURBE), 0);
	fx_load_id(fx, id);
}

#endif
