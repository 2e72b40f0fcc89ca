/* placeholder, replaced by the compaction tables */
#include "gpu/eu/isa.h"
bool eu_compact(int gen, const uint64_t q[2], uint64_t *c) { (void)gen; (void)q; (void)c; return false; }
int eu_uncompact(int gen, uint64_t c, uint64_t q[2]) { (void)gen; (void)c; (void)q; return -1; }
