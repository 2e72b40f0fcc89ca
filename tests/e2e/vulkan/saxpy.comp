#version 450
// y = a * x + y, a and n from push constants
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { float a; uint n; } pc;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i < pc.n)
		y[i] = pc.a * x[i] + y[i];
}
