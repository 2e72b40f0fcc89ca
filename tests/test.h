/* A very small test harness: CHECK macros that report file and line and
 * count failures; test_main() style mains return test_exit(). A test that
 * cannot run here calls test_skip() (exit code 77, reported by meson as
 * SKIP). */
#ifndef GTSIM_TEST_H
#define GTSIM_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;
static int test_checks;

/* Counted atomically: tests check from several threads (a failure lost
 * to a race would pass the test). */
static inline void test_count(int *n)
{
	__atomic_add_fetch(n, 1, __ATOMIC_RELAXED);
}

#define CHECK(cond)                                                          \
	do {                                                                 \
		test_count(&test_checks);                                    \
		if (!(cond)) {                                               \
			test_count(&test_failures);                          \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",         \
				__FILE__, __LINE__, #cond);                  \
		}                                                            \
	} while (0)

#define CHECK_EQ(a, b)                                                       \
	do {                                                                 \
		long long a_ = (long long)(a), b_ = (long long)(b);          \
		test_count(&test_checks);                                    \
		if (a_ != b_) {                                              \
			test_count(&test_failures);                          \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s "  \
				"(%lld vs %lld, 0x%llx vs 0x%llx)\n",        \
				__FILE__, __LINE__, #a, #b, a_, b_,          \
				(unsigned long long)a_, (unsigned long long)b_); \
		}                                                            \
	} while (0)

#define CHECK_STR(a, b)                                                      \
	do {                                                                 \
		const char *a_ = (a), *b_ = (b);                             \
		test_count(&test_checks);                                    \
		if (!a_ || !b_ || strcmp(a_, b_)) {                          \
			test_count(&test_failures);                          \
			fprintf(stderr, "%s:%d: CHECK_STR failed: %s == %s\n" \
				"   got: \"%s\"\n  want: \"%s\"\n",          \
				__FILE__, __LINE__, #a, #b,                  \
				a_ ? a_ : "(null)", b_ ? b_ : "(null)");     \
		}                                                            \
	} while (0)

static inline void test_skip(const char *why)
{
	printf("SKIP: %s\n", why);
	exit(77);
}

static inline int test_exit(void)
{
	printf("%d checks, %d failed\n", test_checks, test_failures);
	return test_failures ? 1 : 0;
}

#endif
