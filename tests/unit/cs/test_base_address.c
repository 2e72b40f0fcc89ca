/* STATE_BASE_ADDRESS decoded once (gpu/cs/base_address.h) for both
 * pipelines. The dwords are laid out by hand from the PRM vol. 2a command
 * page (BDW: 16 dwords, SKL: 19): DW1-2 General State Base Address
 * [63:12] with Modify Enable in bit 0, DW4-5 Surface State, DW6-7 Dynamic
 * State, DW8-9 Indirect Object, DW10-11 Instruction; MOCS in bits 10:4 of
 * the low dword are not part of the address. */
#include "test.h"

#include "gpu/cs/base_address.h"

static void sba(uint32_t *dw, int gen)
{
	memset(dw, 0, 19 * 4);
	dw[0] = 0x61010000u | (gen >= 9 ? 17 : 14);
	dw[1] = 0x00401000u | 1 | 0x7f0;   /* general 0x1_00401000, MOCS 0x7f */
	dw[2] = 0x1;
	dw[4] = 0x00020001u;               /* surface 0x20000 */
	dw[6] = 0x12345000u;               /* dynamic: Modify Enable clear */
	dw[7] = 0xffff;
	dw[8] = 0x00003001u | 0x20;        /* indirect 0xabcd_00003000 */
	dw[9] = 0xabcd;
	dw[10] = 0xfffff001u;              /* instruction 0xffff_fffff000 */
	dw[11] = 0xffff;
}

int main(void)
{
	for (int gen = 8; gen <= 9; gen++) {
		uint32_t dw[19];
		sba(dw, gen);
		struct cs_base_address b = { 1, 2, 3, 4, 5 };
		cs_base_address_apply(&b, gen, dw, gen >= 9 ? 19 : 16);
		CHECK_EQ(b.general, 0x100401000ull);
		CHECK_EQ(b.surface, 0x20000ull);
		CHECK_EQ(b.dynamic, 3);            /* kept: Modify Enable clear */
		CHECK_EQ(b.indirect, 0xabcd00003000ull);
		CHECK_EQ(b.instruction, 0xfffffffff000ull);
		/* a second command that modifies only the dynamic base */
		memset(dw + 1, 0, 18 * 4);
		dw[6] = 0x00777001u;
		cs_base_address_apply(&b, gen, dw, gen >= 9 ? 19 : 16);
		CHECK_EQ(b.dynamic, 0x777000ull);
		CHECK_EQ(b.general, 0x100401000ull);
		CHECK_EQ(b.surface, 0x20000ull);
		CHECK_EQ(b.instruction, 0xfffffffff000ull);
	}
	return test_exit();
}
