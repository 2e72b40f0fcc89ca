/* The generated round-trip self-test of the typed pack/unpack functions
 * (cmd_selftest.c, emitted by gen_cmds.py --selftest and compiled only into
 * tests/unit/cmd/test_cmd_roundtrip). */
#ifndef GTSIM_CMD_CMD_SELFTEST_H
#define GTSIM_CMD_CMD_SELFTEST_H

#include <stddef.h>
#include <stdint.h>

struct cmd_selftest {
	const char *name;
	const char *kind;       /* "command", "struct", "register" */
	int gen;
	/* One round with random values from *seed: 0, or -1 with the first
	 * difference in err. */
	int (*run)(uint64_t *seed, char *err, size_t errlen);
};

extern const struct cmd_selftest cmd_selftests[];
extern const unsigned cmd_num_selftests;

#endif
