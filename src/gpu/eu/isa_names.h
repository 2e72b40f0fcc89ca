/* Names shared by the disassembler and the assembler (Mesa's spellings). */
#ifndef GTSIM_EU_ISA_NAMES_H
#define GTSIM_EU_ISA_NAMES_H

extern const char *const eu_math_fn_names[16];
extern const char *const eu_sampler_msg_names[32];
extern const char *const eu_gateway_msg_names[8];
extern const char *const eu_urb_opcode_names[16];

#endif
