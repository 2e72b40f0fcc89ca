/* Subcommands of the gtsim CLI. Each tools/cmd_*.c file registers one with
 * GTSIM_COMMAND(name, usage, function); main() in gtsim.c dispatches. */
#ifndef GTSIM_TOOLS_COMMAND_H
#define GTSIM_TOOLS_COMMAND_H

struct gtsim_command {
	const char *name;
	const char *usage;       /* one line: arguments and what it does */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

void gtsim_register_command(const struct gtsim_command *cmd);

#define GTSIM_COMMAND(cname, cusage, cfn)                                    \
	static const struct gtsim_command cmd_##cfn = { cname, cusage, cfn }; \
	__attribute__((constructor)) static void register_##cfn(void)        \
	{ gtsim_register_command(&cmd_##cfn); }

#endif
