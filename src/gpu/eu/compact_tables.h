/* Compaction lookup tables shared by Gen8 and Gen9 (compact_tables.c). */
#ifndef GTSIM_EU_COMPACT_TABLES_H
#define GTSIM_EU_COMPACT_TABLES_H

#include <stdint.h>

extern const uint32_t eu_cmpt_control_table[32];   /* 19 bits */
extern const uint32_t eu_cmpt_datatype_table[32];  /* 21 bits */
extern const uint16_t eu_cmpt_subreg_table[32];    /* 15 bits */
extern const uint16_t eu_cmpt_src_table[32];       /* 12 bits, src0 and src1 */
extern const uint32_t eu_cmpt_3src_control_table[4];
extern const uint64_t eu_cmpt_3src_source_table[4];

#endif
