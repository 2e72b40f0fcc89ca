/* gtsim: the command line front end. `gtsim help` lists the subcommands. */
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "common/trace.h"

#define MAX_COMMANDS 64
static const struct gtsim_command *commands[MAX_COMMANDS];
static int num_commands;

void gtsim_register_command(const struct gtsim_command *cmd)
{
	if (num_commands < MAX_COMMANDS)
		commands[num_commands++] = cmd;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: gtsim COMMAND [ARGS]\n\ncommands:\n");
	for (int i = 0; i < num_commands; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->usage);
	fprintf(f, "\nenvironment: GTSIM_DEVICE=bdw|skl GTSIM_SYNC=1 "
		   "GTSIM_TRACE=cat,... GTSIM_TRACE_FILE=path\n");
}

int main(int argc, char **argv)
{
	trace_init_from_env();
	if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return argc < 2 ? 1 : 0;
	}
	for (int i = 0; i < num_commands; i++)
		if (!strcmp(argv[1], commands[i]->name))
			return commands[i]->run(argc - 1, argv + 1);
	fprintf(stderr, "gtsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 1;
}
