/* The i915 module's parameters (params.h) as sysfs files: the text a read
 * gives ("%d\n", "Y\n"/"N\n", "%u\n" as the kernel's param_get_* print)
 * and the parsing of a write (param_set_int/bool/uint: kstrtoint with base
 * 0, strtobool's y/Y/1/n/N/0 and "on"/"off"). A parameter without write
 * permission cannot be opened for writing (kernfs: -EACCES). */
#include "kernel/params.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtsim/gtsim.h"

struct i915_params i915_params = {
	.reset = 3,
	.enable_hangcheck = true,
	.error_capture = true,
	.enable_guc = 0,
	.request_timeout_ms = 20000,
};

enum param_type { P_INT, P_BOOL, P_UINT };

struct param_desc {
	const char *name;
	enum param_type type;
	unsigned mode;
	void *value;
};

static const struct param_desc params[] = {
	{ "enable_guc", P_INT, 0400, &i915_params.enable_guc },
	{ "enable_hangcheck", P_BOOL, 0600, &i915_params.enable_hangcheck },
	{ "error_capture", P_BOOL, 0600, &i915_params.error_capture },
	{ "request_timeout_ms", P_UINT, 0600, &i915_params.request_timeout_ms },
	{ "reset", P_UINT, 0600, &i915_params.reset },
};
#define NUM_PARAMS (sizeof(params) / sizeof(params[0]))

static const struct param_desc *find(const char *name)
{
	for (size_t i = 0; name && i < NUM_PARAMS; i++)
		if (!strcmp(params[i].name, name))
			return &params[i];
	return NULL;
}

const char *gtsim_param_name(unsigned i, unsigned *mode)
{
	if (i >= NUM_PARAMS)
		return NULL;
	if (mode)
		*mode = params[i].mode;
	return params[i].name;
}

char *gtsim_param_read(const char *name)
{
	const struct param_desc *p = find(name);
	if (!p)
		return NULL;
	char buf[32];
	switch (p->type) {
	case P_INT:
		snprintf(buf, sizeof(buf), "%d\n", __atomic_load_n((int *)p->value, __ATOMIC_RELAXED));
		break;
	case P_BOOL:
		snprintf(buf, sizeof(buf), "%c\n",
			 __atomic_load_n((bool *)p->value, __ATOMIC_RELAXED) ? 'Y' : 'N');
		break;
	case P_UINT:
		snprintf(buf, sizeof(buf), "%u\n",
			 __atomic_load_n((unsigned *)p->value, __ATOMIC_RELAXED));
		break;
	}
	return strdup(buf);
}

/* kstrtobool (lib/kstrtox.c): the first character decides, "on"/"of". */
static int parse_bool(const char *s, bool *out)
{
	switch (s[0]) {
	case 'y': case 'Y': case '1': *out = true; return 0;
	case 'n': case 'N': case '0': *out = false; return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') { *out = true; return 0; }
		if (s[1] == 'f' || s[1] == 'F') { *out = false; return 0; }
		return -EINVAL;
	default: return -EINVAL;
	}
}

/* kstrtoll with base 0 and a trailing newline allowed. */
static int parse_ll(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (end == s || errno)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int gtsim_param_write(const char *name, const char *buf, size_t len)
{
	const struct param_desc *p = find(name);
	if (!p)
		return -ENOENT;
	if (!(p->mode & 0200))
		return -EACCES;
	char s[64];
	if (len >= sizeof(s))
		return -EINVAL;
	memcpy(s, buf, len);
	s[len] = 0;
	long long v;
	bool b;
	int err;
	switch (p->type) {
	case P_INT:
		if ((err = parse_ll(s, &v)))
			return err;
		if (v < INT_MIN || v > INT_MAX)
			return -ERANGE;
		__atomic_store_n((int *)p->value, (int)v, __ATOMIC_RELAXED);
		return 0;
	case P_UINT:
		/* kstrtouint: no sign but '+', -ERANGE past UINT_MAX */
		if (s[0] == '-')
			return -EINVAL;
		if ((err = parse_ll(s, &v)))
			return err;
		if (v > UINT_MAX)
			return -ERANGE;
		__atomic_store_n((unsigned *)p->value, (unsigned)v, __ATOMIC_RELAXED);
		return 0;
	case P_BOOL:
		if ((err = parse_bool(s, &b)))
			return err;
		__atomic_store_n((bool *)p->value, b, __ATOMIC_RELAXED);
		return 0;
	}
	return -EINVAL;
}
