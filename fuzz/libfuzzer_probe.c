/* `make fuzz-check` compiles this to find out whether the compiler links
 * libFuzzer targets (clang's -fsanitize=fuzzer). */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return data && size ? 0 : 0;
}
