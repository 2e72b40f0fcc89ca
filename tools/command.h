/* Subcommands of the gtsim CLI. Each tools/cmd_*.c file defines one
 * struct gtsim_command; the table in gtsim.c lists them all (add yours
 * there and its declaration here). */
#ifndef GTSIM_TOOLS_COMMAND_H
#define GTSIM_TOOLS_COMMAND_H

struct gtsim_command {
	const char *name;
	const char *usage;       /* one line: arguments and what it does */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

extern const struct gtsim_command command_urb_config;  /* cmd_urb_config.c */
extern const struct gtsim_command command_run;         /* cmd_run.c */
extern const struct gtsim_command command_asm;         /* cmd_asm.c */
extern const struct gtsim_command command_disasm;      /* cmd_disasm.c */
extern const struct gtsim_command command_decode;      /* cmd_decode.c */
extern const struct gtsim_command command_bench;       /* cmd_bench.c */
extern const struct gtsim_command command_demo;        /* cmd_demo.c */
extern const struct gtsim_command command_exec;        /* cmd_exec.c */

#endif
