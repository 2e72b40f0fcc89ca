/* One EU instruction in decoded form (Gen8/Gen9, PRM vol. 7 "EU ISA").
 *
 * This is the contract between the ISA module (decode, encode, compaction,
 * disassembler, assembler: isa_*.c, asm_*.c) and the executor (exec_*.c).
 * Fields hold meanings, not encodings: exec_size is 1..32, regions are
 * element counts, subreg offsets are in bytes. The ISA module may add
 * fields; existing ones keep their meaning. */
#ifndef GTSIM_EU_INST_H
#define GTSIM_EU_INST_H

#include <stdbool.h>
#include <stdint.h>

enum eu_opcode {
	EU_OP_ILLEGAL = 0x00, EU_OP_MOV = 0x01, EU_OP_SEL = 0x02, EU_OP_MOVI = 0x03,
	EU_OP_NOT = 0x04, EU_OP_AND = 0x05, EU_OP_OR = 0x06, EU_OP_XOR = 0x07,
	EU_OP_SHR = 0x08, EU_OP_SHL = 0x09, EU_OP_SMOV = 0x0a, EU_OP_ASR = 0x0c,
	EU_OP_ROR = 0x0e, EU_OP_ROL = 0x0f, /* gen11+ only (opcodes.c) */
	EU_OP_CMP = 0x10, EU_OP_CMPN = 0x11, EU_OP_CSEL = 0x12,
	EU_OP_F32TO16 = 0x13, EU_OP_F16TO32 = 0x14, EU_OP_BFREV = 0x17,
	EU_OP_BFE = 0x18, EU_OP_BFI1 = 0x19, EU_OP_BFI2 = 0x1a,
	EU_OP_JMPI = 0x20, EU_OP_BRD = 0x21, EU_OP_IF = 0x22, EU_OP_BRC = 0x23,
	EU_OP_ELSE = 0x24, EU_OP_ENDIF = 0x25, EU_OP_WHILE = 0x27,
	EU_OP_BREAK = 0x28, EU_OP_CONTINUE = 0x29, EU_OP_HALT = 0x2a,
	EU_OP_CALLA = 0x2b, EU_OP_CALL = 0x2c, EU_OP_RET = 0x2d, EU_OP_GOTO = 0x2e,
	EU_OP_JOIN = 0x2f, EU_OP_WAIT = 0x30, EU_OP_SEND = 0x31, EU_OP_SENDC = 0x32,
	EU_OP_SENDS = 0x33, EU_OP_SENDSC = 0x34, EU_OP_MATH = 0x38,
	EU_OP_ADD = 0x40, EU_OP_MUL = 0x41, EU_OP_AVG = 0x42, EU_OP_FRC = 0x43,
	EU_OP_RNDU = 0x44, EU_OP_RNDD = 0x45, EU_OP_RNDE = 0x46, EU_OP_RNDZ = 0x47,
	EU_OP_MAC = 0x48, EU_OP_MACH = 0x49, EU_OP_LZD = 0x4a, EU_OP_FBH = 0x4b,
	EU_OP_FBL = 0x4c, EU_OP_CBIT = 0x4d, EU_OP_ADDC = 0x4e, EU_OP_SUBB = 0x4f,
	EU_OP_SAD2 = 0x50, EU_OP_SADA2 = 0x51, EU_OP_DP4 = 0x54, EU_OP_DPH = 0x55,
	EU_OP_DP3 = 0x56, EU_OP_DP2 = 0x57, EU_OP_LINE = 0x59, EU_OP_PLN = 0x5a,
	EU_OP_MAD = 0x5b, EU_OP_LRP = 0x5c, EU_OP_MADM = 0x5d, EU_OP_NOP = 0x7e,
};

/* Register files as encoded on gen8 (2 bits). */
enum eu_file { EU_FILE_ARF = 0, EU_FILE_GRF = 1, EU_FILE_IMM = 3 };

/* Types by meaning; the ISA module maps them to the encodings. */
enum eu_type {
	EU_TYPE_UD, EU_TYPE_D, EU_TYPE_UW, EU_TYPE_W, EU_TYPE_UB, EU_TYPE_B,
	EU_TYPE_DF, EU_TYPE_F, EU_TYPE_UQ, EU_TYPE_Q, EU_TYPE_HF,
	EU_TYPE_V, EU_TYPE_UV, EU_TYPE_VF,   /* immediate-only vector types */
	EU_TYPE_NUM
};

/* ARF register numbers (the full 8-bit register number field). */
enum eu_arf {
	EU_ARF_NULL = 0x00, EU_ARF_A0 = 0x10, EU_ARF_ACC0 = 0x20, EU_ARF_ACC1 = 0x21,
	EU_ARF_F0 = 0x30, EU_ARF_F1 = 0x31, EU_ARF_CE0 = 0x40, EU_ARF_MSG0 = 0x50,
	EU_ARF_SP = 0x60, EU_ARF_SR0 = 0x70, EU_ARF_CR0 = 0x80, EU_ARF_N0 = 0x90,
	EU_ARF_IP = 0xa0, EU_ARF_TDR0 = 0xb0, EU_ARF_TM0 = 0xc0,
};

enum eu_addr_mode { EU_ADDR_DIRECT = 0, EU_ADDR_INDIRECT = 1 };
enum eu_access_mode { EU_ALIGN1 = 0, EU_ALIGN16 = 1 };

enum eu_pred {
	EU_PRED_NONE = 0, EU_PRED_NORMAL = 1,
	/* align16 */
	EU_PRED_XYZW_X = 2, EU_PRED_XYZW_Y, EU_PRED_XYZW_Z, EU_PRED_XYZW_W,
	EU_PRED_ANY4H = 6, EU_PRED_ALL4H = 7,
	/* align1 (encoded 2..15): any/all over groups of 2,4,8,16,32 channels */
	EU_PRED_ANYV = 2, EU_PRED_ALLV = 3, EU_PRED_ANY2H = 4, EU_PRED_ALL2H = 5,
	EU_PRED_ANY8H = 8, EU_PRED_ALL8H = 9, EU_PRED_ANY16H = 10,
	EU_PRED_ALL16H = 11, EU_PRED_ANY32H = 12, EU_PRED_ALL32H = 13,
};

enum eu_cond {
	EU_COND_NONE = 0, EU_COND_Z = 1, EU_COND_NZ = 2, EU_COND_G = 3,
	EU_COND_GE = 4, EU_COND_L = 5, EU_COND_LE = 6, EU_COND_O = 8, EU_COND_U = 9,
};

enum eu_math_fn {
	EU_MATH_INV = 1, EU_MATH_LOG = 2, EU_MATH_EXP = 3, EU_MATH_SQRT = 4,
	EU_MATH_RSQ = 5, EU_MATH_SIN = 6, EU_MATH_COS = 7, EU_MATH_FDIV = 9,
	EU_MATH_POW = 10, EU_MATH_INT_DIV_BOTH = 11, EU_MATH_INT_DIV_QUOTIENT = 12,
	EU_MATH_INT_DIV_REMAINDER = 13, EU_MATH_INVM = 14, EU_MATH_RSQRTM = 15,
};

/* Shared function IDs (send's SFID, PRM "Message Gateway..."). */
enum eu_sfid {
	EU_SFID_NULL = 0, EU_SFID_SAMPLER = 2, EU_SFID_GATEWAY = 3,
	EU_SFID_DP_SAMPLER = 4, EU_SFID_DP_RC = 5, EU_SFID_URB = 6,
	EU_SFID_SPAWNER = 7, EU_SFID_VME = 8, EU_SFID_DP_CC = 9,
	EU_SFID_DP_DC0 = 10, EU_SFID_PI = 11, EU_SFID_DP_DC1 = 12, EU_SFID_CRE = 13,
};

struct eu_operand {
	uint8_t file;            /* enum eu_file */
	uint8_t type;            /* enum eu_type */
	uint8_t addr_mode;       /* enum eu_addr_mode */
	uint8_t nr;              /* GRF number, or ARF number (enum eu_arf + n) */
	uint8_t subnr;           /* byte offset within the register */
	/* Region in elements: <vstride; width, hstride>. vstride 0..32,
	 * width 1..16, hstride 0..4. VSTRIDE_VXH (indirect) is vstride 0xff.
	 * A destination uses hstride only. */
	uint8_t vstride, width, hstride;
	uint8_t swizzle[4];      /* align16 source: component selects 0..3 */
	uint8_t writemask;       /* align16 destination: bits x,y,z,w */
	bool negate, abs;
	uint8_t indirect_subnr;  /* a0.N for register-indirect addressing */
	int16_t indirect_offset; /* signed byte offset added to a0.N */
	uint64_t imm;            /* immediate bits (file == EU_FILE_IMM) */
};

struct eu_inst {
	uint8_t opcode;          /* enum eu_opcode */
	uint8_t access_mode;     /* enum eu_access_mode */
	uint8_t exec_size;       /* 1, 2, 4, 8, 16, 32 */
	uint8_t group;           /* first channel: qtr/nib control, 0,4,8,...,28 */
	bool no_mask;            /* WE_all: ignore the execution mask */
	bool saturate;
	bool debug;
	bool acc_wr;             /* AccWrEn */
	bool compacted;          /* was (or is to be) encoded in 64 bits */
	bool branch_ctrl;        /* gen8 BranchCtrl on if/else/goto */
	bool eot;                /* send: end of thread */
	uint8_t pred;            /* enum eu_pred */
	bool pred_inv;
	uint8_t flag_nr, flag_subnr; /* f0.0 .. f1.1 used by pred and cond */
	uint8_t cond;            /* enum eu_cond; for math, the function */
	uint8_t math_fn;         /* enum eu_math_fn (opcode == EU_OP_MATH) */
	uint8_t dep_ctrl;        /* 0 none, 1 NoDDClr, 2 NoDDChk, 3 both */
	uint8_t thread_ctrl;     /* 0 normal, 1 atomic, 2 switch */
	uint8_t num_srcs;        /* 0..3 */
	struct eu_operand dst;
	struct eu_operand src[3];
	/* send/sendc */
	uint8_t sfid;            /* enum eu_sfid */
	uint32_t desc;           /* message descriptor (imm or from a0.0) */
	uint32_t ex_desc;        /* extended descriptor */
	bool desc_is_reg;        /* descriptor taken from a0.0 at run time */
	/* sends/sendsc (gen9): extended descriptor from a0.<ex_desc_subnr>
	 * (a dword subregister) instead of the immediate ex_desc. */
	bool ex_desc_is_reg;
	uint8_t ex_desc_subnr;
	/* branches: byte offsets relative to this instruction */
	int32_t jip, uip;
};

#endif
