/* Memory fence (PRM vol. 7 "Memory Fence"; data cache 0 type 7):
 * gtsim's data port writes memory at once and in order, so every earlier
 * access is already visible; with descriptor bit 13 (Commit Enable) the
 * thread waits for the one-register response, which the fence writes
 * (zeros) once the accesses are done. */
#include <string.h>

#include "gpu/dataport/dp_priv.h"

int dp_fence(struct dp_msg *m)
{
	bool commit = (m->ctrl >> 5) & 1;
	if (dp_check_len(m, 1, commit ? 1 : 0))
		return -1;
	if (commit)
		memset(dp_response(m, 0), 0, 32);
	dp_tr(m, "%s", commit ? "commit" : "no commit");
	return 0;
}
