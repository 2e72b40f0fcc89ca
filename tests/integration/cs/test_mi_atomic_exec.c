/* MI_ATOMIC through the kernel model (execbuf, PPGTT, asynchronous
 * engines), its results read by the CPU through a mapping after GEM_WAIT:
 *  - RCS: ADD with the operand from CS_GPR0 (Inline Data clear, a 3-dword
 *    command) and Return Data Control: memory 100 + 5 = 105, the old 100
 *    in CS_GPR4, stored by MI_STORE_REGISTER_MEM;
 *  - RCS: CMP_WR8B inline on a QWORD with return data: the compare hits,
 *    the new qword is written, the old one comes back in CS_GPR4 (both
 *    halves stored);
 *  - then BCS: INC on the dword RCS wrote (the object is written by both,
 *    so the BCS batch waits for the RCS one): 106, old 105 in the
 *    blitter's own CS_GPR4 (0x22600 + 0x20).
 * Values worked out by hand from the PRM's MI_ATOMIC page (vol. 2a). */
#include "integration/kernel/eb_test.h"

#define MI_ATOMIC_HDR (0x2fu << 23)
#define AT_INLINE (1u << 18)
#define AT_RETURN (1u << 16)
#define AT_CS_STALL (1u << 17)
#define AT_QWORD (1u << 19)
#define RCS_GPR(n) (0x2600u + 8u * (n))
#define BCS_GPR(n) (0x22600u + 8u * (n))
#define X 0x100000ull      /* the data object */

int main(void)
{
	eb_require_async("the BCS batch waits for the RCS one on asynchronous engines");
	struct gtsim_device *dev = eb_device(0, 5000, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t x = eb_create(f, 4096), rbb = eb_create(f, 4096), bbb = eb_create(f, 4096);
	const uint32_t init[8] = { 100, 0, 0, 0, 7, 1, 0, 0 };   /* qword at +16: 0x1_00000007 */
	eb_write(f, x, 0, init, sizeof(init));

	uint32_t dw[64];
	unsigned n = 0;
	n += emit_lri(dw + n, RCS_GPR(0), 5);
	n += emit_lri(dw + n, RCS_GPR(0) + 4, 0);
	n += emit_lri(dw + n, RCS_GPR(4) + 4, 0x55555555);   /* a DWORD return keeps it */
	dw[n++] = MI_ATOMIC_HDR | 0x07u << 8 | AT_RETURN | AT_CS_STALL | 1;   /* ADD, GPR */
	dw[n++] = (uint32_t)X;
	dw[n++] = 0;
	n += emit_srm(dw + n, RCS_GPR(4), X + 8);
	n += emit_srm(dw + n, RCS_GPR(4) + 4, X + 12);
	dw[n++] = MI_ATOMIC_HDR | 0x2eu << 8 | AT_INLINE | AT_QWORD | AT_RETURN | 9; /* CMP_WR8B */
	dw[n++] = (uint32_t)(X + 16);
	dw[n++] = 0;
	dw[n++] = 7;              /* Operand1 (compare) dword 0 */
	dw[n++] = 0xbeef0001;     /* Operand2 (new value) dword 0 */
	dw[n++] = 1;              /* Operand1 dword 1 */
	dw[n++] = 0xdead0002;     /* Operand2 dword 1 */
	dw[n++] = 0;
	dw[n++] = 0;
	dw[n++] = 0;
	dw[n++] = 0;
	n += emit_srm(dw + n, RCS_GPR(4), X + 24);
	n += emit_srm(dw + n, RCS_GPR(4) + 4, X + 28);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, rbb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 ro[2] = {
		{ .handle = x, .offset = X, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = rbb, .offset = 0x200000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, ro, 2, I915_EXEC_RENDER, 0), 0);

	n = 0;
	dw[n++] = MI_ATOMIC_HDR | 0x05u << 8 | AT_INLINE | AT_RETURN | 9;    /* INC */
	dw[n++] = (uint32_t)X;
	dw[n++] = 0;
	for (int i = 0; i < 8; i++)
		dw[n++] = 0;
	n += emit_srm(dw + n, BCS_GPR(4), X + 32);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, bbb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 bo[2] = {
		{ .handle = x, .offset = X, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bbb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, bo, 2, I915_EXEC_BLT, 0), 0);

	CHECK_EQ(eb_wait(f, x, 5000000000ll), 0);
	const uint32_t *m = eb_cpu_map(f, x);
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ(m[0], 106u);             /* 100 + 5, then + 1 on BCS */
		CHECK_EQ(m[2], 100u);             /* RCS GPR4: the old dword */
		CHECK_EQ(m[3], 0x55555555u);      /* its upper half untouched */
		CHECK_EQ(m[4], 0xbeef0001u);      /* the compare hit: Operand2 */
		CHECK_EQ(m[5], 0xdead0002u);
		CHECK_EQ(m[6], 7u);               /* the old qword returned */
		CHECK_EQ(m[7], 1u);
		CHECK_EQ(m[8], 105u);             /* BCS GPR4: the old value it saw */
	}
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
