/* Field positions of the Gen8/Gen9 native instruction (PRM vol. 7,
 * "Native Instruction Format"; cross-checked with Mesa's brw_inst.h). The
 * region fields of src1 sit 32 bits above those of src0. */
#ifndef GTSIM_EU_ISA_FIELDS_H
#define GTSIM_EU_ISA_FIELDS_H

/* Per-source field positions for the two-source (align1/align16) forms. */
struct isa_src_fields {
	unsigned file_lo, type_lo;  /* 2 and 4 bits */
	unsigned base;              /* bit of subreg 0 (64 for src0, 96 for src1) */
	unsigned imm9;              /* AddrImm[9] */
};

static const struct isa_src_fields isa_src_f[2] = {
	{ 41, 43, 64, 95 },
	{ 89, 91, 96, 121 },
};

/* Offsets relative to isa_src_fields.base. */
#define SRC_SUBREG_HI 4        /* da1 subreg 4:0 */
#define SRC_REG_LO 5           /* reg nr 12:5 */
#define SRC_IA_SUBREG_LO 9     /* a0 subreg 12:9 */
#define SRC_IA_IMM_HI 8        /* AddrImm[8:0] at 8:0 */
#define SRC_ABS 13
#define SRC_NEG 14
#define SRC_ADDR_MODE 15
#define SRC_HSTRIDE_LO 16      /* 17:16 */
#define SRC_WIDTH_LO 18        /* 20:18 */
#define SRC_VSTRIDE_LO 21      /* 24:21 */

/* Vertical stride encodings 0..6 = 0,1,2,4,8,16,32 elements, 15 = VxH. */
#define EU_VSTRIDE_VXH 0xff

#endif
