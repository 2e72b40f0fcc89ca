/* gtsim: the command line front end. `gtsim help` lists the subcommands. */
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "common/trace.h"

/* Every subcommand, in the order `gtsim help` lists them. */
static const struct gtsim_command *const commands[] = {
	&command_urb_config,
	&command_run,
	&command_asm,
	&command_disasm,
	&command_decode,
	&command_bench,
	&command_demo,
	&command_exec,
};
#define NUM_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: gtsim COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NUM_COMMANDS; i++)
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
	for (size_t i = 0; i < NUM_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i]->name))
			return commands[i]->run(argc - 1, argv + 1);
	fprintf(stderr, "gtsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 1;
}
