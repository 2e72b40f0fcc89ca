/* Physical ranges: lookups land inside the registered host memory, holes
 * and removed ranges are unbacked, and addresses are never reused. */
#include <stdlib.h>

#include "gpu/mem/mem.h"
#include "test.h"

int main(void)
{
	struct gt_phys *phys = phys_create();
	char *a = aligned_alloc(4096, 3 * 4096), *b = aligned_alloc(4096, 4096);
	CHECK(phys);

	CHECK_EQ(phys_add(phys, a + 1, 4096), 0);      /* misaligned host */
	CHECK_EQ(phys_add(phys, a, 100), 0);           /* misaligned size */
	CHECK_EQ(phys_add(phys, NULL, 4096), 0);

	uint64_t pa = phys_add(phys, a, 3 * 4096);
	uint64_t pb = phys_add(phys, b, 4096);
	CHECK(pa && pb);
	CHECK_EQ(pa & 4095, 0);
	CHECK(pb >= pa + 3 * 4096 + 4096);            /* a guard page between */

	uint64_t avail = 0;
	CHECK(phys_lookup(phys, pa, &avail) == a);
	CHECK_EQ(avail, 3 * 4096);
	CHECK(phys_lookup(phys, pa + 5000, &avail) == a + 5000);
	CHECK_EQ(avail, 3 * 4096 - 5000);
	CHECK(phys_lookup(phys, pa + 3 * 4096, &avail) == NULL);  /* the hole */
	CHECK(phys_lookup(phys, pa - 1, NULL) == NULL);
	CHECK(phys_lookup(phys, 0, NULL) == NULL);
	CHECK(phys_lookup(phys, pb + 4095, &avail) == b + 4095);
	CHECK_EQ(avail, 1);

	phys_remove(phys, pa);
	CHECK(phys_lookup(phys, pa, NULL) == NULL);
	CHECK(phys_lookup(phys, pb, NULL) == b);
	uint64_t pa2 = phys_add(phys, a, 4096);
	CHECK(pa2 > pb);                               /* never reused */

	/* Many ranges: each lookup finds its own. */
	enum { N = 300 };
	char *pages = aligned_alloc(4096, N * 4096);
	uint64_t pas[N];
	for (int i = 0; i < N; i++)
		pas[i] = phys_add(phys, pages + i * 4096, 4096);
	int ok = 1;
	for (int i = 0; i < N; i++)
		ok &= phys_lookup(phys, pas[i] + 8, NULL) == pages + i * 4096 + 8;
	CHECK(ok);

	/* Removing every other range, then most of the rest (empty entries
	 * stay in place and are compacted away in between): each removed one
	 * is unbacked, each kept one still found. */
	for (int i = 0; i < N; i += 2)
		phys_remove(phys, pas[i]);
	for (int i = 1; i < N - 20; i += 2)
		phys_remove(phys, pas[i]);
	ok = 1;
	for (int i = 0; i < N; i++) {
		void *want = i % 2 && i >= N - 20 ? pages + i * 4096 + 8 : NULL;
		ok &= phys_lookup(phys, pas[i] + 8, NULL) == want;
	}
	CHECK(ok);
	CHECK(phys_lookup(phys, pb, NULL) == b);
	CHECK(phys_lookup(phys, pa2, NULL) == a);

	phys_destroy(phys);
	free(a);
	free(b);
	free(pages);
	return test_exit();
}
