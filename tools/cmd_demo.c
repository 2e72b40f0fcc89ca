/* gtsim demo: the README's main job. The green and gradient squares of
 * seed 000 drawn through the whole stack: libgtdrv's draw setup
 * (drv/draw_setup.h) builds the batches (vertex buffer, elements, URB
 * partition, the VS and the FS written in GEN assembly and assembled by
 * gtsim), submits them with EXECBUFFER2
 * through the kernel model, the simulated GPU runs them (VF, VS threads,
 * clip, setup, rasterization, PS threads, render target writes) and the
 * render target becomes a PNG file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command.h"
#include "common/devinfo.h"
#include "common/trace.h"
#include "drv/draw_setup.h"
#include "drv/seed_shaders.h"
#include "gpu/eu/asm.h"
#include "gpu/eu/disasm.h"
#include "gpu/format/format.h"
#include "gpu/render/png_dump.h"

enum { R32G32B32A32_FLOAT = 0 };

struct demo {
	struct gtsim_device *dev;
	struct gtsim_file *file;
	struct gtdrv drv;
	struct gtdrv_draw_setup ds;
	uint32_t w, h;
	bool show_eu;
};

static void print_disasm(int gen, const char *title, const char *text)
{
	struct eu_asm_result res;
	if (eu_assemble(gen, text, strlen(text), title, &res))
		return;
	size_t bad;
	char *s = eu_disasm_program(gen, res.bytes, res.len, &bad);
	printf("%s:\n%s\n", title, s ? s : "(undecodable)\n");
	free(s);
	eu_asm_result_free(&res);
}

/* The square; the gradient's second element is the VertexID (VF_SGVS)
 * in an element that reads no component of the buffer. */
static int draw(struct demo *dm, bool gradient)
{
	struct gtdrv_batch b;
	int r = gtdrv_batch_init(&b, &dm->drv);
	if (r)
		return r;
	const struct gtdrv_vertex_attrib attribs[2] = {
		{ .buffer = 0, .format = R32G32B32A32_FLOAT, .size = 4 },
		{ .buffer = 0, .format = R32G32B32A32_FLOAT, .size = 0 },
	};
	r = gtdrv_draw_emit(&b, &dm->ds, &(const struct gtdrv_draw_options){
		.attribs = attribs, .nattribs = gradient ? 2 : 1, .vertex_id = gradient });
	r = r ? r : gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	if (!r)
		r = gtdrv_bo_wait(&dm->drv, &dm->ds.rt);
	return r;
}

static int render(struct demo *dm, const char *scene, const char *out)
{
	bool gradient = !strcmp(scene, "gradient");
	const char *vs = gradient ? gtdrv_gradient_vs : gtdrv_green_vs;
	int r = gtdrv_draw_setup_shaders(&dm->ds, vs, gtdrv_color_fs);
	if (r)
		return r;
	if (dm->show_eu) {
		print_disasm(dm->drv.gen, gradient ? "VS (gradient)" : "VS (green, seed 000)", vs);
		print_disasm(dm->drv.gen, "FS", gtdrv_color_fs);
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = draw(dm, gradient);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r)
		return r;
	size_t bytes = (size_t)dm->ds.pitch * dm->h;
	uint8_t *pixels = malloc(bytes), *rgba = malloc((size_t)dm->w * dm->h * 4);
	r = pixels && rgba ? gtdrv_bo_read(&dm->drv, &dm->ds.rt, 0, pixels, bytes) : -ENOMEM;
	if (!r && png_surface_to_rgba8(pixels, FMT_R8G8B8A8_UNORM, 0, dm->ds.pitch, dm->w, dm->h, rgba))
		r = -EINVAL;
	if (!r && png_write_rgba8(out, rgba, dm->w, dm->h))
		r = -EIO;
	if (!r) {
		const uint8_t *c = rgba + ((size_t)(dm->h / 2) * dm->w + dm->w / 2) * 4;
		printf("%s: %ux%u square in %.1f ms, centre pixel (%u, %u, %u, %u) -> %s\n", scene,
		       dm->w, dm->h, (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e6, c[0], c[1], c[2], c[3], out);
	}
	free(pixels);
	free(rgba);
	return r;
}

static int setup(struct demo *dm)
{
	struct gtsim_config cfg = { .sync = 1 };
	dm->dev = gtsim_device_create(&cfg);
	dm->file = dm->dev ? gtsim_open(dm->dev) : NULL;
	if (!dm->file)
		return -ENODEV;
	gtdrv_init(&dm->drv, dm->file, devinfo_from_env());
	return gtdrv_draw_setup_init(&dm->ds, &dm->drv, dm->w, dm->h);
}

static int demo_main(int argc, char **argv)
{
	struct demo dm = { .w = 256, .h = 256 };
	const char *scene = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "green") || !strcmp(a, "gradient")) {
			scene = a;
		} else if (!strcmp(a, "--size") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ux%u", &dm.w, &dm.h) != 2 || !dm.w || !dm.h ||
			    dm.w > 8192 || dm.h > 8192) {
				fprintf(stderr, "gtsim demo: bad size '%s' (WxH, up to 8192)\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strncmp(a, "--trace=", 8)) {
			/* "eu" shows the shaders' disassembly (INTEL_DEBUG=vs,fs);
			 * the other categories go to the trace */
			char cats[256] = "", *save = NULL;
			char *list = strdup(a + 8);
			for (char *c = list ? strtok_r(list, ",", &save) : NULL; c;
			     c = strtok_r(NULL, ",", &save)) {
				if (!strcmp(c, "eu")) {
					dm.show_eu = true;
					continue;
				}
				if (strlen(cats) + strlen(c) + 2 < sizeof(cats)) {
					strcat(cats, cats[0] ? "," : "");
					strcat(cats, c);
				}
			}
			free(list);
			if (cats[0] && trace_set(cats))
				return 2;
		} else {
			fprintf(stderr, "usage: gtsim demo [green|gradient] [--size WxH] "
				"[-o FILE.png] [--trace=CATS]\n");
			return 2;
		}
	}
	if (out && !scene) {
		fprintf(stderr, "gtsim demo: -o needs a scene (green or gradient)\n");
		return 2;
	}
	int r = setup(&dm);
	if (!r && (!scene || !strcmp(scene, "green")))
		r = render(&dm, "green", out ? out : "gtsim-green.png");
	if (!r && (!scene || !strcmp(scene, "gradient")))
		r = render(&dm, "gradient", out ? out : "gtsim-gradient.png");
	if (r)
		fprintf(stderr, "gtsim demo: %s\n", strerror(-r));
	if (dm.file) {
		if (dm.ds.drv)
			gtdrv_draw_setup_fini(&dm.ds);
		gtsim_close(dm.file);
	}
	if (dm.dev)
		gtsim_device_destroy(dm.dev);
	return r ? 1 : 0;
}

const struct gtsim_command command_demo = {
	.name = "demo",
	.usage = "[green|gradient] [--size WxH] [-o FILE.png] [--trace=CATS]  "
		 "draw seed 000's squares through the whole stack into PNG files",
	.run = demo_main,
};
