/* The stages' kernel loader (gpu/eu/kernel_load.c) on kernels built here
 * instruction by instruction in a GGTT mapping: the kernel ends at its
 * end-of-thread send, however far past the first read (64 KB) that is;
 * without an end of thread, or at an unmapped address, the load fails
 * with the reason. The oracle is the construction: n 16-byte adds and one
 * EOT send make n + 1 instructions. */
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/asm.h"
#include "gpu/eu/exec.h"
#include "gpu/eu/kernel_load.h"
#include "gpu/mem/mem.h"
#include "test.h"

#define PAGES 512                 /* 2 MB mapped at GGTT address 0 */

static uint8_t add_bytes[16], eot_bytes[16], compact_bytes[8];

static void assemble(const char *text, uint8_t *out, size_t len)
{
	struct eu_asm_result r;
	CHECK_EQ(eu_assemble(8, text, strlen(text), "test", &r), 0);
	CHECK_EQ(r.len, len);
	memcpy(out, r.bytes, len);
	eu_asm_result_free(&r);
}

/* (with lead8) one compacted 8-byte mov, n adds, (with eot) the EOT
 * send, from the mapping's start: with lead8 every add straddles a 16-byte
 * boundary, so one is cut by the first 64 KB read. */
static void build(uint8_t *mem, size_t n, bool eot, bool lead8)
{
	memset(mem, 0, (size_t)PAGES * 4096);
	size_t at = 0;
	if (lead8) {
		memcpy(mem, compact_bytes, 8);
		at = 8;
	}
	for (size_t i = 0; i < n; i++, at += 16)
		memcpy(mem + at, add_bytes, 16);
	if (eot)
		memcpy(mem + at, eot_bytes, 16);
}

int main(void)
{
	assemble("add(8) g2<1>F g2<8,8,1>F 1F { align1 1Q };\n", add_bytes, 16);
	assemble("send(8) null<1>F g100<8,8,1>F\n"
		 "    urb 0 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };\n", eot_bytes, 16);
	assemble("mov(8) g2<1>UD g3<8,8,1>UD { align1 1Q compacted };\n", compact_bytes, 8);

	struct gt_phys *phys = phys_create();
	uint8_t *mem = aligned_alloc(4096, (size_t)PAGES * 4096);
	uint64_t pa = phys_add(phys, mem, (size_t)PAGES * 4096);
	uint64_t *ptes = calloc(PAGES + 1, 8);   /* the last page unmapped */
	for (int i = 0; i < PAGES; i++)
		ptes[i] = (pa + 4096u * (unsigned)i) | GT_PTE_PRESENT;
	struct gt_ggtt ggtt = { ptes, (uint64_t)(PAGES + 1) * 4096 };
	struct gt_vm vm = { .phys = phys, .ggtt = &ggtt };
	char why[256];

	/* within the first read, at its last instruction, past it (100 KB,
	 * piglit max-input-components's GS is 70 KB), near the end of 2 MB */
	static const size_t sizes[] = { 3, 4095, 6400, 131000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		build(mem, sizes[k], true, false);
		why[0] = '\0';
		struct exec_prog *p = eu_kernel_load(8, &vm, 0, "GS", why, sizeof(why));
		CHECK(p != NULL);
		if (!p) {
			fprintf(stderr, "%zu adds: %s\n", sizes[k], why);
			continue;
		}
		CHECK_EQ(exec_prog_count(p), sizes[k] + 1);
		exec_prog_free(p);
	}

	/* an instruction cut by the first read (zink's HS of piglit
	 * vs-tcs-max-in-out-components: 65528 bytes decoded of 65536) */
	build(mem, 4200, true, true);
	struct exec_prog *cut = eu_kernel_load(8, &vm, 0, "HS", why, sizeof(why));
	CHECK(cut != NULL);
	if (cut) {
		CHECK_EQ(exec_prog_count(cut), 1 + 4200 + 1);
		exec_prog_free(cut);
	}

	/* no end of thread in the whole mapping: a reason, no program */
	build(mem, (size_t)PAGES * 256, false, false);
	why[0] = '\0';
	CHECK(eu_kernel_load(8, &vm, 0, "GS", why, sizeof(why)) == NULL);
	CHECK(strstr(why, "no end of thread in 2097152 readable bytes") != NULL);
	fprintf(stderr, "expected: %s\n", why);

	/* an unmapped start */
	why[0] = '\0';
	CHECK(eu_kernel_load(8, &vm, (uint64_t)PAGES * 4096, "GS", why, sizeof(why)) == NULL);
	CHECK(strstr(why, "page fault") != NULL);

	free(ptes);
	phys_destroy(phys);
	free(mem);
	return test_exit();
}
