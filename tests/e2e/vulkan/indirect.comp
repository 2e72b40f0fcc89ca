#version 450
// dispatched by vkCmdDispatchIndirect: each invocation writes its group,
// the number of groups and its local index
layout(local_size_x = 32) in;
layout(std430, binding = 0) writeonly buffer Out { uint o[]; };
void main()
{
	o[gl_GlobalInvocationID.x] = (gl_WorkGroupID.x + 1u) << 16 |
		gl_NumWorkGroups.x << 8 | gl_LocalInvocationID.x;
}
