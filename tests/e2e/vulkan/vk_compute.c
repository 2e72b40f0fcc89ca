/* Vulkan compute on one device (whichever the loader finds: anv on gtsim,
 * lavapipe, ...): SAXPY with push constants, a shared-memory reduction with
 * barriers, buffer and shared-memory atomics, typed image stores (R32_UINT
 * and RGBA8 UNORM), and an indirect dispatch. Every result is checked
 * against the same computation done on the CPU.
 *
 *   vk_compute            run the checks: exit 0 pass, 1 fail, 77 no device
 *   vk_compute --require  the same, but no device is a failure (1)
 *   vk_compute --bench N  SAXPY and reduction over N invocations, timed:
 *                         prints "<device>: saxpy <inv/s> reduce <inv/s>" */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

#include "e2e/compute_expect.h"

#include "atomics.spv.h"
#include "image.spv.h"
#include "indirect.spv.h"
#include "reduce.spv.h"
#include "saxpy.spv.h"

#define CHECK_VK(call)                                                              \
	do {                                                                        \
		VkResult r_ = (call);                                               \
		if (r_ != VK_SUCCESS) {                                             \
			fprintf(stderr, "%s:%d: %s: VkResult %d\n", __FILE__, __LINE__, \
				#call, r_);                                         \
			exit(1);                                                    \
		}                                                                   \
	} while (0)

struct gpu {
	VkInstance inst;
	VkPhysicalDevice phys;
	VkPhysicalDeviceMemoryProperties mem;
	VkDevice dev;
	VkQueue queue;
	uint32_t family;
	VkCommandPool pool;
	VkCommandBuffer cmd;
	VkFence fence;
	char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
};

struct buffer {
	VkBuffer buf;
	VkDeviceMemory mem;
	VkDeviceSize size;
	void *map;
};

struct image {
	VkImage img;
	VkDeviceMemory mem;
	VkImageView view;
};

/* One compute pipeline: nbuf storage buffers at bindings 0.., or nimg
 * storage images; push constants of push bytes. */
struct pipe {
	VkDescriptorSetLayout dsl;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkDescriptorPool dpool;
	VkDescriptorSet set;
	VkShaderModule module;
};

static int gpu_init(struct gpu *g)
{
	VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				  .pApplicationName = "gtsim vk_compute",
				  .apiVersion = VK_API_VERSION_1_1 };
	VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     .pApplicationInfo = &app };
	if (vkCreateInstance(&ici, NULL, &g->inst) != VK_SUCCESS)
		return -1;
	uint32_t n = 1;
	VkResult r = vkEnumeratePhysicalDevices(g->inst, &n, &g->phys);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0)
		return -1;
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(g->phys, &props);
	memcpy(g->name, props.deviceName, sizeof(g->name));
	vkGetPhysicalDeviceMemoryProperties(g->phys, &g->mem);

	VkQueueFamilyProperties qf[8];
	uint32_t nq = 8;
	vkGetPhysicalDeviceQueueFamilyProperties(g->phys, &nq, qf);
	g->family = UINT32_MAX;
	for (uint32_t i = 0; i < nq; i++)
		if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
			g->family = i;
			break;
		}
	if (g->family == UINT32_MAX)
		return -1;
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
					.queueFamilyIndex = g->family, .queueCount = 1,
					.pQueuePriorities = &prio };
	VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				   .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
	CHECK_VK(vkCreateDevice(g->phys, &dci, NULL, &g->dev));
	vkGetDeviceQueue(g->dev, g->family, 0, &g->queue);
	VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
					.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
					.queueFamilyIndex = g->family };
	CHECK_VK(vkCreateCommandPool(g->dev, &pci, NULL, &g->pool));
	VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
					    .commandPool = g->pool,
					    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
					    .commandBufferCount = 1 };
	CHECK_VK(vkAllocateCommandBuffers(g->dev, &cai, &g->cmd));
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	CHECK_VK(vkCreateFence(g->dev, &fci, NULL, &g->fence));
	return 0;
}

static uint32_t memory_type(const struct gpu *g, uint32_t bits, VkMemoryPropertyFlags want)
{
	for (uint32_t i = 0; i < g->mem.memoryTypeCount; i++)
		if ((bits & (1u << i)) && (g->mem.memoryTypes[i].propertyFlags & want) == want)
			return i;
	fprintf(stderr, "no memory type with flags 0x%x in 0x%x\n", want, bits);
	exit(1);
}

static struct buffer buffer_new(struct gpu *g, VkDeviceSize size, VkBufferUsageFlags usage)
{
	struct buffer b = { .size = size };
	VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
				   .usage = usage, .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
	CHECK_VK(vkCreateBuffer(g->dev, &bci, NULL, &b.buf));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(g->dev, b.buf, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
		.memoryTypeIndex = memory_type(g, req.memoryTypeBits,
					       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) };
	CHECK_VK(vkAllocateMemory(g->dev, &mai, NULL, &b.mem));
	CHECK_VK(vkBindBufferMemory(g->dev, b.buf, b.mem, 0));
	CHECK_VK(vkMapMemory(g->dev, b.mem, 0, size, 0, &b.map));
	return b;
}

static void buffer_free(struct gpu *g, struct buffer *b)
{
	vkUnmapMemory(g->dev, b->mem);
	vkDestroyBuffer(g->dev, b->buf, NULL);
	vkFreeMemory(g->dev, b->mem, NULL);
}

static struct image image_new(struct gpu *g, VkFormat format, uint32_t w, uint32_t h)
{
	struct image im;
	VkImageCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
		.format = format, .extent = { w, h, 1 }, .mipLevels = 1, .arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED };
	CHECK_VK(vkCreateImage(g->dev, &ici, NULL, &im.img));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(g->dev, im.img, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
		.memoryTypeIndex = memory_type(g, req.memoryTypeBits, 0) };
	CHECK_VK(vkAllocateMemory(g->dev, &mai, NULL, &im.mem));
	CHECK_VK(vkBindImageMemory(g->dev, im.img, im.mem, 0));
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = im.img,
		.viewType = VK_IMAGE_VIEW_TYPE_2D, .format = format,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
	CHECK_VK(vkCreateImageView(g->dev, &vci, NULL, &im.view));
	return im;
}

static void image_free(struct gpu *g, struct image *im)
{
	vkDestroyImageView(g->dev, im->view, NULL);
	vkDestroyImage(g->dev, im->img, NULL);
	vkFreeMemory(g->dev, im->mem, NULL);
}

static struct pipe pipe_new(struct gpu *g, const uint32_t *spv, size_t spv_size,
			    uint32_t nbuf, uint32_t nimg, uint32_t push)
{
	struct pipe p;
	VkDescriptorSetLayoutBinding b[4];
	uint32_t n = nbuf + nimg;
	VkDescriptorType type = nimg ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
				     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	for (uint32_t i = 0; i < n; i++)
		b[i] = (VkDescriptorSetLayoutBinding){ .binding = i, .descriptorType = type,
						       .descriptorCount = 1,
						       .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
	VkDescriptorSetLayoutCreateInfo dlci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = n, .pBindings = b };
	CHECK_VK(vkCreateDescriptorSetLayout(g->dev, &dlci, NULL, &p.dsl));
	VkPushConstantRange pr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push };
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
		.pSetLayouts = &p.dsl, .pushConstantRangeCount = push ? 1 : 0,
		.pPushConstantRanges = &pr };
	CHECK_VK(vkCreatePipelineLayout(g->dev, &plci, NULL, &p.layout));
	VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
					  .codeSize = spv_size, .pCode = spv };
	CHECK_VK(vkCreateShaderModule(g->dev, &smci, NULL, &p.module));
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			   .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = p.module,
			   .pName = "main" },
		.layout = p.layout };
	CHECK_VK(vkCreateComputePipelines(g->dev, VK_NULL_HANDLE, 1, &cpci, NULL, &p.pipeline));
	VkDescriptorPoolSize ps = { type, n };
	VkDescriptorPoolCreateInfo dpci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
					    .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps };
	CHECK_VK(vkCreateDescriptorPool(g->dev, &dpci, NULL, &p.dpool));
	VkDescriptorSetAllocateInfo dsai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
					     .descriptorPool = p.dpool, .descriptorSetCount = 1,
					     .pSetLayouts = &p.dsl };
	CHECK_VK(vkAllocateDescriptorSets(g->dev, &dsai, &p.set));
	return p;
}

static void pipe_bind_buffers(struct gpu *g, struct pipe *p, struct buffer **bufs, uint32_t n)
{
	VkDescriptorBufferInfo bi[4];
	VkWriteDescriptorSet w[4];
	for (uint32_t i = 0; i < n; i++) {
		bi[i] = (VkDescriptorBufferInfo){ bufs[i]->buf, 0, VK_WHOLE_SIZE };
		w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
					       .dstSet = p->set, .dstBinding = i,
					       .descriptorCount = 1,
					       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
					       .pBufferInfo = &bi[i] };
	}
	vkUpdateDescriptorSets(g->dev, n, w, 0, NULL);
}

static void pipe_bind_images(struct gpu *g, struct pipe *p, struct image **ims, uint32_t n)
{
	VkDescriptorImageInfo ii[4];
	VkWriteDescriptorSet w[4];
	for (uint32_t i = 0; i < n; i++) {
		ii[i] = (VkDescriptorImageInfo){ VK_NULL_HANDLE, ims[i]->view,
						 VK_IMAGE_LAYOUT_GENERAL };
		w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
					       .dstSet = p->set, .dstBinding = i,
					       .descriptorCount = 1,
					       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
					       .pImageInfo = &ii[i] };
	}
	vkUpdateDescriptorSets(g->dev, n, w, 0, NULL);
}

static void pipe_free(struct gpu *g, struct pipe *p)
{
	vkDestroyPipeline(g->dev, p->pipeline, NULL);
	vkDestroyShaderModule(g->dev, p->module, NULL);
	vkDestroyDescriptorPool(g->dev, p->dpool, NULL);
	vkDestroyPipelineLayout(g->dev, p->layout, NULL);
	vkDestroyDescriptorSetLayout(g->dev, p->dsl, NULL);
}

static void cmd_begin(struct gpu *g, struct pipe *p, const void *push, uint32_t push_size)
{
	VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
					.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
	CHECK_VK(vkResetCommandBuffer(g->cmd, 0));
	CHECK_VK(vkBeginCommandBuffer(g->cmd, &bi));
	vkCmdBindPipeline(g->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
	vkCmdBindDescriptorSets(g->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set,
				0, NULL);
	if (push_size)
		vkCmdPushConstants(g->cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size,
				   push);
}

/* Makes the shaders' writes visible to the host, ends, submits, waits. */
static void cmd_submit(struct gpu *g)
{
	VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
						VK_ACCESS_TRANSFER_WRITE_BIT,
			       .dstAccessMask = VK_ACCESS_HOST_READ_BIT };
	vkCmdPipelineBarrier(g->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
			     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
			     0, NULL, 0, NULL);
	CHECK_VK(vkEndCommandBuffer(g->cmd));
	VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
			    .pCommandBuffers = &g->cmd };
	CHECK_VK(vkQueueSubmit(g->queue, 1, &si, g->fence));
	CHECK_VK(vkWaitForFences(g->dev, 1, &g->fence, VK_TRUE, UINT64_C(60000000000)));
	CHECK_VK(vkResetFences(g->dev, 1, &g->fence));
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Inputs: small integers and halves, so that a*x+y is exact in float
 * whether or not the compiler fuses it. */
static float saxpy_x(uint32_t i) { return (float)(i % 1000u) * 0.5f; }
static float saxpy_y(uint32_t i) { return (float)(i % 777u) * 0.25f; }
static uint32_t reduce_in(uint32_t i) { return (i * 2654435761u) >> 7; }

/* SAXPY of n elements, a = 2.5 in push constants; returns the seconds of
 * the submission. */
static double run_saxpy(struct gpu *g, uint32_t n, bool check)
{
	struct buffer x = buffer_new(g, n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct buffer y = buffer_new(g, n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t i = 0; i < n; i++) {
		((float *)x.map)[i] = saxpy_x(i);
		((float *)y.map)[i] = saxpy_y(i);
	}
	struct pipe p = pipe_new(g, spv_saxpy, sizeof(spv_saxpy), 2, 0, 8);
	pipe_bind_buffers(g, &p, (struct buffer *[]){ &x, &y }, 2);
	struct { float a; uint32_t n; } pc = { 2.5f, n };
	cmd_begin(g, &p, &pc, sizeof(pc));
	vkCmdDispatch(g->cmd, (n + 63) / 64, 1, 1);
	double t = now();
	cmd_submit(g);
	t = now() - t;
	if (check)
		for (uint32_t i = 0; i < n; i++) {
			float want = 2.5f * saxpy_x(i) + saxpy_y(i), got = ((float *)y.map)[i];
			uint32_t gb, wb;
			memcpy(&gb, &got, 4);
			memcpy(&wb, &want, 4);
			expect_u32("saxpy y", i, gb, wb);
		}
	pipe_free(g, &p);
	buffer_free(g, &x);
	buffer_free(g, &y);
	return t;
}

/* Sums of n / 128 groups of 128. */
static double run_reduce(struct gpu *g, uint32_t n, bool check)
{
	uint32_t groups = n / 128;
	struct buffer in = buffer_new(g, n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct buffer out = buffer_new(g, groups * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t i = 0; i < n; i++)
		((uint32_t *)in.map)[i] = reduce_in(i);
	memset(out.map, 0xee, groups * 4ull);
	struct pipe p = pipe_new(g, spv_reduce, sizeof(spv_reduce), 2, 0, 0);
	pipe_bind_buffers(g, &p, (struct buffer *[]){ &in, &out }, 2);
	cmd_begin(g, &p, NULL, 0);
	vkCmdDispatch(g->cmd, groups, 1, 1);
	double t = now();
	cmd_submit(g);
	t = now() - t;
	if (check)
		for (uint32_t gi = 0; gi < groups; gi++) {
			uint32_t sum = 0;
			for (uint32_t i = gi * 128; i < gi * 128 + 128; i++)
				sum += reduce_in(i);
			expect_u32("reduce sum", gi, ((uint32_t *)out.map)[gi], sum);
		}
	pipe_free(g, &p);
	buffer_free(g, &in);
	buffer_free(g, &out);
	return t;
}

/* Offsets (in dwords) of atomics.comp's Stats block. */
enum { ST_SUM, ST_MIN, ST_MAX, ST_BITS, ST_XOR, ST_LAST, ST_EXCH_ZERO, ST_HIST,
       ST_SLOT = ST_HIST + 16, ST_GROUP = ST_SLOT + 64 };

static void run_atomics(struct gpu *g)
{
	const uint32_t groups = 32, n = groups * 64;
	struct buffer in = buffer_new(g, n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct buffer st = buffer_new(g, (ST_GROUP + groups) * 4ull,
				      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	uint32_t *v = in.map, *s = st.map;
	for (uint32_t i = 0; i < n; i++)
		v[i] = (i * 7919u + 13u) % 100003u;
	memset(s, 0, (ST_GROUP + groups) * 4ull);
	s[ST_MIN] = UINT32_MAX;
	struct pipe p = pipe_new(g, spv_atomics, sizeof(spv_atomics), 2, 0, 0);
	pipe_bind_buffers(g, &p, (struct buffer *[]){ &in, &st }, 2);
	cmd_begin(g, &p, NULL, 0);
	vkCmdDispatch(g->cmd, groups, 1, 1);
	cmd_submit(g);

	uint32_t sum = 0, mn = UINT32_MAX, mx = 0, bits = 0, x = 0, hist[16] = { 0 };
	for (uint32_t i = 0; i < n; i++) {
		sum += v[i];
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
		bits |= 1u << (v[i] % 32);
		x ^= v[i];
		hist[v[i] % 16]++;
	}
	expect_u32("atomic add", 0, s[ST_SUM], sum);
	expect_u32("atomic min", 0, s[ST_MIN], mn);
	expect_u32("atomic max", 0, s[ST_MAX], mx);
	expect_u32("atomic or", 0, s[ST_BITS], bits);
	expect_u32("atomic xor", 0, s[ST_XOR], x);
	expect_u32("atomic exchange returning 0", 0, s[ST_EXCH_ZERO], 1);
	if (s[ST_LAST] == 0 || s[ST_LAST] > n)
		expect_u32("atomic exchange last", 0, s[ST_LAST], 1);
	for (uint32_t k = 0; k < 16; k++)
		expect_u32("atomic histogram", k, s[ST_HIST + k], hist[k]);
	/* compare-exchange: slot k holds i + 1 for one i with i % 64 == k */
	for (uint32_t k = 0; k < 64; k++) {
		uint32_t got = s[ST_SLOT + k];
		expect_u32("compare-exchange slot owner", k,
			   got && got <= n ? (got - 1) % 64 : UINT32_MAX, k);
	}
	for (uint32_t gi = 0; gi < groups; gi++) {
		uint32_t c = 0;
		for (uint32_t i = gi * 64; i < gi * 64 + 64; i++)
			c += 1 + (v[i] & 1);
		expect_u32("shared-memory atomic count", gi, s[ST_GROUP + gi], c);
	}
	pipe_free(g, &p);
	buffer_free(g, &in);
	buffer_free(g, &st);
}

static void layout_barrier(struct gpu *g, VkImage img, VkImageLayout from, VkImageLayout to,
			   VkAccessFlags src, VkAccessFlags dst, VkPipelineStageFlags ss,
			   VkPipelineStageFlags ds)
{
	VkImageMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
				   .srcAccessMask = src, .dstAccessMask = dst, .oldLayout = from,
				   .newLayout = to,
				   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
				   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = img,
				   .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
	vkCmdPipelineBarrier(g->cmd, ss, ds, 0, 0, NULL, 0, NULL, 1, &b);
}

/* Two 64x64 storage images written by image.comp, copied to buffers. */
static void run_image(struct gpu *g)
{
	const uint32_t w = 64, h = 64, seed = 0x5a5a0000u;
	struct image iu = image_new(g, VK_FORMAT_R32_UINT, w, h);
	struct image iff = image_new(g, VK_FORMAT_R8G8B8A8_UNORM, w, h);
	struct buffer bu = buffer_new(g, w * h * 4ull, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	struct buffer bf = buffer_new(g, w * h * 4ull, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	struct pipe p = pipe_new(g, spv_image, sizeof(spv_image), 0, 2, 4);
	pipe_bind_images(g, &p, (struct image *[]){ &iu, &iff }, 2);
	cmd_begin(g, &p, &seed, 4);
	VkImage imgs[2] = { iu.img, iff.img };
	struct buffer *bufs[2] = { &bu, &bf };
	for (int i = 0; i < 2; i++)
		layout_barrier(g, imgs[i], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0,
			       VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
			       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
	vkCmdDispatch(g->cmd, w / 8, h / 8, 1);
	for (int i = 0; i < 2; i++) {
		layout_barrier(g, imgs[i], VK_IMAGE_LAYOUT_GENERAL,
			       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
			       VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
			       VK_PIPELINE_STAGE_TRANSFER_BIT);
		VkBufferImageCopy c = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
					.imageExtent = { w, h, 1 } };
		vkCmdCopyImageToBuffer(g->cmd, imgs[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
				       bufs[i]->buf, 1, &c);
	}
	cmd_submit(g);
	const uint32_t *u = bu.map;
	const uint8_t *f = bf.map;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			expect_u32("r32ui image", y * w + x, u[y * w + x], (x * 1000 + y) ^ seed);
			/* UNORM8 conversion: round(v * 255) (Vulkan spec 3.9.2) */
			uint32_t want = (uint32_t)lrintf((float)x / 63.0f * 255.0f) |
					(uint32_t)lrintf((float)y / 63.0f * 255.0f) << 8 |
					128u << 16 | 255u << 24;
			uint32_t got;
			memcpy(&got, f + 4 * (y * w + x), 4);
			expect_u32("rgba8 image", y * w + x, got, want);
		}
	pipe_free(g, &p);
	image_free(g, &iu);
	image_free(g, &iff);
	buffer_free(g, &bu);
	buffer_free(g, &bf);
}

/* vkCmdDispatchIndirect with 5 groups read from a buffer. */
static void run_indirect(struct gpu *g)
{
	const uint32_t groups = 5, cap = 8 * 32;
	struct buffer out = buffer_new(g, cap * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct buffer args = buffer_new(g, 12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	memset(out.map, 0xcd, cap * 4ull);
	uint32_t *a = args.map;
	a[0] = groups;
	a[1] = 1;
	a[2] = 1;
	struct pipe p = pipe_new(g, spv_indirect, sizeof(spv_indirect), 1, 0, 0);
	pipe_bind_buffers(g, &p, (struct buffer *[]){ &out }, 1);
	cmd_begin(g, &p, NULL, 0);
	vkCmdDispatchIndirect(g->cmd, args.buf, 0);
	cmd_submit(g);
	const uint32_t *o = out.map;
	for (uint32_t i = 0; i < cap; i++)
		expect_u32("indirect dispatch", i, o[i],
			   i < groups * 32 ? ((i / 32 + 1) << 16 | groups << 8 | i % 32)
					   : 0xcdcdcdcdu);
	pipe_free(g, &p);
	buffer_free(g, &out);
	buffer_free(g, &args);
}

int main(int argc, char **argv)
{
	struct gpu g = { 0 };
	bool require = argc == 2 && !strcmp(argv[1], "--require");
	if (gpu_init(&g)) {
		printf("%s: no Vulkan device with a compute queue (loader, ICD or device "
		       "missing)\n", require ? "FAIL" : "SKIP");
		return require ? 1 : 77;
	}
	if (argc == 3 && !strcmp(argv[1], "--bench")) {
		uint32_t n = (uint32_t)strtoul(argv[2], NULL, 0) & ~127u;
		run_saxpy(&g, 128, false);   /* compile and warm up */
		double ts = run_saxpy(&g, n, true);
		double tr = run_reduce(&g, n, true);
		printf("%s: saxpy %.3g invocations/s, reduce %.3g invocations/s (%u invocations)%s\n",
		       g.name, n / ts, n / tr, n, failures ? " WRONG RESULTS" : "");
	} else {
		printf("device: %s\n", g.name);
		const struct { const char *name; void (*fn)(struct gpu *); } steps[] = {
			{ "atomics", run_atomics },
			{ "image", run_image },
			{ "indirect", run_indirect },
		};
		run_saxpy(&g, 10000, true);
		printf("saxpy: %s\n", failures ? "FAIL" : "ok");
		int before = failures;
		run_reduce(&g, 128 * 40, true);
		printf("reduce: %s\n", failures > before ? "FAIL" : "ok");
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			before = failures;
			steps[i].fn(&g);
			printf("%s: %s\n", steps[i].name, failures > before ? "FAIL" : "ok");
		}
	}
	vkDestroyFence(g.dev, g.fence, NULL);
	vkDestroyCommandPool(g.dev, g.pool, NULL);
	vkDestroyDevice(g.dev, NULL);
	vkDestroyInstance(g.inst, NULL);
	if (failures || argc < 3)
		printf("%s\n", failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}
