#include "common/trace.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

uint32_t trace_mask;

static const char *const cat_names[TRACE_NUM_CATS] = {
	[TRACE_GEM] = "gem",     [TRACE_RELOC] = "reloc", [TRACE_CS] = "cs",
	[TRACE_BATCH] = "batch", [TRACE_REG] = "reg",     [TRACE_HANG] = "hang",
	[TRACE_VF] = "vf",       [TRACE_URB] = "urb",     [TRACE_VS] = "vs",
	[TRACE_PS] = "ps",       [TRACE_EU] = "eu",       [TRACE_SEND] = "send",
	[TRACE_STUB] = "stub",
	[TRACE_SHIM] = "shim",
	[TRACE_BLT] = "blt",
	[TRACE_DP] = "dp",
	[TRACE_GPGPU] = "gpgpu",
	[TRACE_GS] = "gs",
	[TRACE_TE] = "te",
	[TRACE_SO] = "so",
	[TRACE_JIT] = "jit",
};

static FILE *out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

const char *trace_cat_name(enum trace_cat cat)
{
	return (unsigned)cat < TRACE_NUM_CATS ? cat_names[cat] : "?";
}

int trace_set(const char *list)
{
	uint32_t mask = 0;
	int ret = 0;
	char *copy = strdup(list ? list : "");
	char *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = 0;
		if (!strcmp(tok, "all")) {
			mask = (1u << TRACE_NUM_CATS) - 1;
			continue;
		}
		for (int i = 0; i < TRACE_NUM_CATS; i++) {
			if (!strcmp(tok, cat_names[i])) {
				mask |= 1u << i;
				found = 1;
			}
		}
		if (!found) {
			fprintf(stderr, "gtsim: unknown trace category '%s' (known:", tok);
			for (int i = 0; i < TRACE_NUM_CATS; i++)
				fprintf(stderr, " %s", cat_names[i]);
			fprintf(stderr, ", all)\n");
			ret = -1;
		}
	}
	free(copy);
	trace_mask = mask;
	return ret;
}

static void init_env(void)
{
	const char *file = getenv("GTSIM_TRACE_FILE");
	if (file && *file) {
		out = fopen(file, "a");
		if (!out)
			fprintf(stderr, "gtsim: cannot open GTSIM_TRACE_FILE %s\n", file);
	}
	const char *list = getenv("GTSIM_TRACE");
	if (list)
		trace_set(list);
}

void trace_init_from_env(void)
{
	pthread_once(&env_once, init_env);
}

FILE *trace_stream(void)
{
	return out ? out : stderr;
}

void trace_lock(void) { pthread_mutex_lock(&lock); }
void trace_unlock(void) { pthread_mutex_unlock(&lock); }

void trace_printf(enum trace_cat cat, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	FILE *f = trace_stream();

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	int newline = n > 0 && (size_t)n < sizeof(line) && line[n - 1] == '\n';
	pthread_mutex_lock(&lock);
	fprintf(f, "[%s] %s%s", trace_cat_name(cat), line, newline ? "" : "\n");
	pthread_mutex_unlock(&lock);
}
