/* What every fuzz target defines: libFuzzer's entry point (called once per
 * input, with the input's bytes). The same harness links either with
 * libFuzzer (-Dfuzz=true, clang) or with replay_main.c, which runs it over
 * the files of a corpus once each (any compiler: the regression tests). */
#ifndef GTSIM_FUZZ_TARGET_H
#define GTSIM_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
