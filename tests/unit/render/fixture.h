/* A small GPU for the front end's unit tests: host pages mapped through a
 * GGTT, command packing through the command tables, and the seeds' vertex
 * shaders assembled by gtsim. */
#ifndef GTSIM_TEST_RENDER_FIXTURE_H
#define GTSIM_TEST_RENDER_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_names.h"   /* tests may name fields */
#include "gpu/cs/regs.h"
#include "gpu/eu/asm.h"
#include "gpu/render/render.h"
#include "test.h"

#define FX_PAGES 256   /* 1 MiB of GPU memory at GGTT 0 */

struct fixture {
	const struct gt_devinfo *info;
	struct gt_phys *phys;
	struct gt_ggtt ggtt;
	uint8_t *host;
	struct render_state *rs;
	struct render_env env;
	struct cs_regs *regs;
	/* the command being built */
	const struct cmd_desc *d;
	uint32_t dw[256], len;
};

static inline void fx_init(struct fixture *fx, const char *dev)
{
	memset(fx, 0, sizeof(*fx));
	fx->info = devinfo_lookup(dev);
	fx->phys = phys_create();
	fx->host = aligned_alloc(4096, FX_PAGES * 4096);
	memset(fx->host, 0, FX_PAGES * 4096);
	uint64_t pa = phys_add(fx->phys, fx->host, FX_PAGES * 4096);
	fx->ggtt.size = 16ull << 20;
	fx->ggtt.ptes = calloc(fx->ggtt.size / 4096, sizeof(uint64_t));
	for (uint64_t i = 0; i < FX_PAGES; i++)
		fx->ggtt.ptes[i] = (pa + i * 4096) | GT_PTE_PRESENT | GT_PTE_RW;
	fx->regs = calloc(1, sizeof(*fx->regs));
	fx->env = (struct render_env){
		.vm = { .phys = fx->phys, .ggtt = &fx->ggtt }, .regs = fx->regs };
	fx->rs = render_state_create(fx->info);
}

static inline void fx_fini(struct fixture *fx)
{
	render_state_destroy(fx->rs);
	free(fx->regs);
	free(fx->ggtt.ptes);
	phys_destroy(fx->phys);
	free(fx->host);
}

static inline void fx_write(struct fixture *fx, uint64_t gpu_addr, const void *p, size_t n)
{
	CHECK(gpu_addr + n <= FX_PAGES * 4096);
	memcpy(fx->host + gpu_addr, p, n);
}

static inline void fx_begin(struct fixture *fx, const char *name, uint32_t len)
{
	fx->d = cmd_find_name(fx->info->gen, name);
	if (!fx->d) {
		fprintf(stderr, "no command %s\n", name);
		exit(1);
	}
	fx->len = len ? len : fx->d->length;
	cmd_init(fx->d, fx->dw, fx->len);
}

static inline void fx_set(struct fixture *fx, const char *field, uint64_t v)
{
	int r = cmd_field_set(fx->d, fx->dw, fx->len, field, v);
	if (r)
		fprintf(stderr, "cannot set %s.%s = 0x%llx\n", fx->d->name, field,
			(unsigned long long)v);
	CHECK_EQ(r, 0);
}

/* Field of struct `sname` placed at dword `at` of the command. */
static inline void fx_set_sub(struct fixture *fx, const char *sname, uint32_t at,
			      const char *field, uint64_t v)
{
	const struct cmd_desc *s = cmd_struct_find(fx->info->gen, sname);
	CHECK(s != NULL && at + s->length <= fx->len);
	CHECK_EQ(cmd_field_set(s, fx->dw + at, s->length, field, v), 0);
}

static inline int fx_submit(struct fixture *fx)
{
	int r = render_command(fx->rs, &fx->env, fx->d, fx->dw, fx->len);
	if (r < 0)
		fprintf(stderr, "  (fault: %s)\n", render_fault(fx->rs));
	return r;
}

static inline void fx_cmd(struct fixture *fx, const char *name, const char *field, uint64_t v)
{
	fx_begin(fx, name, 0);
	if (field)
		fx_set(fx, field, v);
	CHECK_EQ(fx_submit(fx), 0);
}

/* Assemble `text` and place it at gpu_addr. */
static inline void fx_kernel(struct fixture *fx, uint64_t gpu_addr, const char *text)
{
	struct eu_asm_result res;
	if (eu_assemble(fx->info->gen, text, strlen(text), "vs.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		CHECK(0);
		return;
	}
	fx_write(fx, gpu_addr, res.bytes, res.len);
	eu_asm_result_free(&res);
}

static inline uint32_t fx_urb_dw(struct fixture *fx, uint32_t handle, unsigned dw)
{
	size_t size;
	uint8_t *urb = render_urb(fx->rs, &size);
	uint32_t v = 0;
	if ((size_t)handle * 64 + dw * 4 + 4 <= size)
		memcpy(&v, urb + handle * 64 + dw * 4, 4);
	return v;
}

static inline float fx_urb_f(struct fixture *fx, uint32_t handle, unsigned dw)
{
	uint32_t u = fx_urb_dw(fx, handle, dw);
	float f;
	memcpy(&f, &u, 4);
	return f;
}

#endif
