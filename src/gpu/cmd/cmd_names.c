/* Look-ups by the PRM's names (cmd_names.h): for the decoder, traces and
 * tests only. */
#include "gpu/cmd/cmd_names.h"

#include <string.h>

static const struct cmd_desc *by_name(const struct cmd_desc *d, uint32_t n,
				      const char *name)
{
	for (uint32_t i = 0; name && i < n; i++)
		if (!strcmp(d[i].name, name))
			return &d[i];
	return NULL;
}

const struct cmd_desc *cmd_find_name(int gen, const char *name)
{
	const struct cmd_table *t = cmd_table(gen);
	return t ? by_name(t->cmds, t->num_cmds, name) : NULL;
}

const struct cmd_desc *cmd_struct_find(int gen, const char *name)
{
	const struct cmd_table *t = cmd_table(gen);
	return t ? by_name(t->structs, t->num_structs, name) : NULL;
}

const struct cmd_field *cmd_field_find(const struct cmd_desc *d, const char *name)
{
	for (uint32_t i = 0; i < d->num_fields; i++)
		if (!d->fields[i].in_group && !strcmp(d->fields[i].name, name))
			return &d->fields[i];
	for (uint32_t i = 0; i < d->num_fields; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

uint64_t cmd_field_get(const struct cmd_desc *d, const uint32_t *dw, const char *name)
{
	const struct cmd_field *f = cmd_field_find(d, name);
	if (!f)
		return 0;
	uint32_t len = cmd_length(d, dw[0]);
	if (!d->match && !d->mask)
		len = d->length ? d->length : (uint32_t)(f->end / 32 + 1);
	return cmd_field_value(f, dw, len, 0);
}

int cmd_field_set(const struct cmd_desc *d, uint32_t *dw, uint32_t len,
		  const char *name, uint64_t value)
{
	const struct cmd_field *f = cmd_field_find(d, name);
	return f ? cmd_field_pack(f, dw, len, 0, value) : -1;
}
