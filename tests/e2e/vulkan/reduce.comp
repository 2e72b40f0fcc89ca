#version 450
// one sum per work group of 128 invocations: a tree in shared memory,
// a barrier between the levels
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) writeonly buffer Out { uint sum[]; };
shared uint s[128];
void main()
{
	uint l = gl_LocalInvocationID.x;
	s[l] = v[gl_GlobalInvocationID.x];
	barrier();
	for (uint stride = 64u; stride > 0u; stride >>= 1) {
		if (l < stride)
			s[l] += s[l + stride];
		barrier();
	}
	if (l == 0u)
		sum[gl_WorkGroupID.x] = s[0];
}
