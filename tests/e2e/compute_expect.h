/* The result check of the compute programs of tests/e2e (vulkan, opencl):
 * a value computed on the device against the CPU's, the first 20
 * mismatches printed, all counted in failures. */
#ifndef GTSIM_E2E_COMPUTE_EXPECT_H
#define GTSIM_E2E_COMPUTE_EXPECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static int failures;

static void expect_u32(const char *what, size_t i, uint32_t got, uint32_t want)
{
	if (got == want)
		return;
	if (failures++ < 20)
		fprintf(stderr, "%s[%zu]: got 0x%08x, want 0x%08x\n", what, i, got, want);
}

#endif
