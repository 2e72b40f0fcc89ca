#version 450
// buffer atomics (add, min, max, or, xor, exchange, compare-exchange) and
// a shared-memory counter per group
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Stats {
	uint sum, mn, mx, bits, x, last, exch_zero;
	uint hist[16];
	uint slot[64];
	uint group_count[];
};
shared uint count;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint val = v[i];
	if (gl_LocalInvocationIndex == 0u)
		count = 0u;
	barrier();
	atomicAdd(sum, val);
	atomicMin(mn, val);
	atomicMax(mx, val);
	atomicOr(bits, 1u << (val % 32u));
	atomicXor(x, val);
	atomicAdd(hist[val % 16u], 1u);
	/* each slot is claimed by exactly one invocation of those i % 64 */
	atomicCompSwap(slot[i % 64u], 0u, i + 1u);
	/* exchange returns the previous value: only the first sees 0 */
	if (atomicExchange(last, i + 1u) == 0u)
		atomicAdd(exch_zero, 1u);
	atomicAdd(count, 1u + (val & 1u));
	barrier();
	if (gl_LocalInvocationIndex == 0u)
		group_count[gl_WorkGroupID.x] = count;
}
