#version 450
// typed writes: a 32-bit integer image and an RGBA8 UNORM image (format
// conversion in the data port), seed from a push constant
layout(local_size_x = 8, local_size_y = 8) in;
layout(push_constant) uniform PC { uint seed; } pc;
layout(r32ui, binding = 0) uniform writeonly uimage2D img_u;
layout(rgba8, binding = 1) uniform writeonly image2D img_f;
void main()
{
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	imageStore(img_u, p, uvec4((uint(p.x) * 1000u + uint(p.y)) ^ pc.seed));
	imageStore(img_f, p, vec4(float(p.x) / 63.0, float(p.y) / 63.0, 0.5, 1.0));
}
