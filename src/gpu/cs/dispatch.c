/* From a command's table entry to the code that executes it. MI commands
 * are executed here in cs/; 3D and media state commands are recorded for
 * the pipeline (state.h); other units register handlers for the commands
 * they implement (cs_register_handler). */
#include "gpu/cs/cs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cs/mi.h"
#include "gpu/cs/state.h"

struct named_handler {
	const char *name;
	cs_handler fn;
};

static const struct named_handler builtin[] = {
	{ "MI_NOOP", mi_noop },
	{ "MI_ARB_CHECK", mi_noop },
	{ "MI_ARB_ON_OFF", mi_noop },
	{ "MI_SUSPEND_FLUSH", mi_noop },
	{ "MI_TOPOLOGY_FILTER", mi_noop },
	{ "MI_BATCH_BUFFER_START", cs_batch_start },
	{ "MI_BATCH_BUFFER_END", mi_batch_buffer_end },
	{ "MI_CONDITIONAL_BATCH_BUFFER_END", mi_conditional_batch_buffer_end },
	{ "MI_USER_INTERRUPT", mi_user_interrupt },
	{ "MI_REPORT_HEAD", mi_report_head },
	{ "MI_SEMAPHORE_WAIT", mi_semaphore_wait },
	{ "MI_STORE_DATA_IMM", mi_store_data_imm },
	{ "MI_STORE_DATA_INDEX", mi_store_data_index },
	{ "MI_COPY_MEM_MEM", mi_copy_mem_mem },
	{ "MI_FLUSH_DW", mi_flush_dw },
	{ "PIPE_CONTROL", mi_pipe_control },
	{ "MI_LOAD_REGISTER_IMM", mi_load_register_imm },
	{ "MI_LOAD_REGISTER_MEM", mi_load_register_mem },
	{ "MI_LOAD_REGISTER_REG", mi_load_register_reg },
	{ "MI_STORE_REGISTER_MEM", mi_store_register_mem },
	{ "MI_MATH", mi_math },
	{ "MI_PREDICATE", mi_predicate },
	{ "MI_SET_CONTEXT", mi_set_context },
};

#define MAX_REGISTERED 64
static struct named_handler registered[MAX_REGISTERED];
static int num_registered;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

int cs_register_handler(const char *name, cs_handler fn)
{
	int ret = -1;
	pthread_mutex_lock(&registry_lock);
	if (num_registered < MAX_REGISTERED) {
		registered[num_registered++] = (struct named_handler){ name, fn };
		ret = 0;
	}
	pthread_mutex_unlock(&registry_lock);
	return ret;
}

/* Per generation, handler of each command of the table (by position). */
static cs_handler *by_index[2];
static pthread_once_t by_index_once = PTHREAD_ONCE_INIT;

static void build(void)
{
	pthread_mutex_lock(&registry_lock);
	for (int g = 0; g < 2; g++) {
		const struct cmd_table *t = cmd_table(8 + g);
		cs_handler *h = calloc(t->num_cmds, sizeof(*h));
		if (!h)
			continue;
		for (uint32_t i = 0; i < t->num_cmds; i++) {
			for (size_t k = 0; k < sizeof(builtin) / sizeof(builtin[0]); k++)
				if (!strcmp(builtin[k].name, t->cmds[i].name))
					h[i] = builtin[k].fn;
			/* Registered handlers win over the built-in ones. */
			for (int k = 0; k < num_registered; k++)
				if (!strcmp(registered[k].name, t->cmds[i].name))
					h[i] = registered[k].fn;
		}
		by_index[g] = h;
	}
	pthread_mutex_unlock(&registry_lock);
}

static bool is_state_command(const struct cmd_desc *d)
{
	/* Command Type 3 (3D/media/video) */
	return (d->match >> 29) == 3;
}

/* Commands that do work in a pipeline not modelled yet. */
static bool is_pipeline_kickoff(const char *name)
{
	return !strcmp(name, "3DPRIMITIVE") || !strcmp(name, "GPGPU_WALKER") ||
	       !strncmp(name, "MEDIA_OBJECT", 12);
}

/* Report each not-executed command once (trace category stub). */
static void stub_once(struct gt_engine *e, const struct cmd_table *t,
		      const struct cmd_desc *d, const char *what)
{
	static uint8_t reported[2][1024];
	size_t i = (size_t)(d - t->cmds);
	if (i >= 1024 || t->gen < 8 || t->gen > 9)
		return;
	if (!__atomic_exchange_n(&reported[t->gen - 8][i], 1, __ATOMIC_RELAXED))
		TRACE(TRACE_STUB, "%s: %s %s", e->name, d->name, what);
}

enum cs_result cs_execute(struct gt_engine *e, const struct cmd_desc *d,
			  const uint32_t *dw, uint32_t len)
{
	int gen = e->gpu->info->gen;
	pthread_once(&by_index_once, build);
	const struct cmd_table *t = cmd_table(gen);
	cs_handler *h = t ? by_index[gen - 8] : NULL;

	if (h && d >= t->cmds && d < t->cmds + t->num_cmds && h[d - t->cmds])
		return h[d - t->cmds](e, d, dw, len);
	if (is_state_command(d)) {
		if (cs_state_record(e->state, d, dw, len))
			return cs_fault(e, "out of memory recording %s", d->name);
		if (is_pipeline_kickoff(d->name))
			stub_once(e, t, d, "decoded and recorded, not executed "
				  "(no pipeline yet)");
		return CS_NEXT;
	}
	stub_once(e, t, d, "decoded, executes as MI_NOOP (not implemented)");
	return CS_NEXT;
}
