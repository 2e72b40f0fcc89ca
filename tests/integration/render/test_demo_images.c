/* The demo's images (gtsim demo green|gradient) against images this test
 * computes itself: the green square is (0, 255, 0, 255) everywhere; the
 * gradient square's pixels are the barycentric blend of the seed's vertex
 * colours (VertexID 0 red, 1 green, 2 blue, 3 black) over the two
 * triangles of the strip, within 1/255. Also: GTSIM_DUMP_RT writes render
 * target 0 after the draw (the same green image), and --trace shows the
 * shaders' disassembly (eu) on stdout and the batch's 3DPRIMITIVE, each
 * fetched vertex (vf), each VUE row by row (urb), each VS and PS thread
 * in the trace. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

#ifdef GTSIM_HAVE_PNG
#include <png.h>

#define W 48
#define H 32

static uint8_t *read_png(const char *path, unsigned *w, unsigned *h)
{
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path))
		return NULL;
	img.format = PNG_FORMAT_RGBA;
	uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
	if (!buf || !png_image_finish_read(&img, NULL, buf, 0, NULL)) {
		free(buf);
		return NULL;
	}
	*w = img.width;
	*h = img.height;
	return buf;
}

static uint8_t *run_demo(const char *scene, unsigned *w, unsigned *h)
{
	const char *root = getenv("GTSIM_BUILD_ROOT");
	char out[256], cmd[1024];
	snprintf(out, sizeof(out), "/tmp/gtsim-demo-test-%d-%s.png", (int)getpid(), scene);
	snprintf(cmd, sizeof(cmd), "%s/tools/gtsim demo %s --size %dx%d -o %s >/dev/null",
		 root ? root : ".", scene, W, H, out);
	CHECK_EQ(system(cmd), 0);
	uint8_t *img = read_png(out, w, h);
	unlink(out);
	return img;
}

/* NDC of the pixel centre: x to the right, y up (GL), as the demo maps it */
static void expected_gradient(int x, int y, uint8_t want[4])
{
	static const double pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	static const double col[4][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 0, 0, 0 } };
	double px = (x + 0.5) / W * 2 - 1, py = 1 - (y + 0.5) / H * 2;
	/* strip triangles (0, 1, 2) and (1, 3, 2); the diagonal is x + y = 0 */
	const int tri[2][3] = { { 0, 1, 2 }, { 1, 3, 2 } };
	int t = px + py < 0 ? 0 : 1;
	const double *a = pos[tri[t][0]], *b = pos[tri[t][1]], *c = pos[tri[t][2]];
	double den = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
	double l1 = ((px - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (py - a[1])) / den;
	double l2 = ((b[0] - a[0]) * (py - a[1]) - (px - a[0]) * (b[1] - a[1])) / den;
	double l[3] = { 1 - l1 - l2, l1, l2 };
	for (int ch = 0; ch < 3; ch++) {
		double v = 0;
		for (int k = 0; k < 3; k++)
			v += l[k] * col[tri[t][k]][ch];
		want[ch] = (uint8_t)lrint(fmin(fmax(v, 0), 1) * 255);
	}
	want[3] = 255;
}

/* img (freed here) is want_w x want_h of (0, 255, 0, 255). */
static void check_green(uint8_t *img, unsigned w, unsigned h, unsigned want_w, unsigned want_h)
{
	CHECK(img != NULL);
	if (!img)
		return;
	CHECK_EQ(w, want_w);
	CHECK_EQ(h, want_h);
	int bad = 0;
	for (unsigned i = 0; i < w * h; i++)
		bad += img[4 * i] != 0 || img[4 * i + 1] != 255 || img[4 * i + 2] != 0 ||
		       img[4 * i + 3] != 255;
	CHECK_EQ(bad, 0);
	free(img);
}

/* The whole file at path (NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 20);
	size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	(void)n;
	fclose(f);
	return buf;
}

static void dump_and_traces(void)
{
	const char *root = getenv("GTSIM_BUILD_ROOT");
	char out[256], dump[256], trace[256], stdout_path[256], cmd[2048];
	int pid = (int)getpid();
	snprintf(out, sizeof(out), "/tmp/gtsim-demo-test-%d-o.png", pid);
	snprintf(dump, sizeof(dump), "/tmp/gtsim-demo-test-%d-dump.png", pid);
	snprintf(trace, sizeof(trace), "/tmp/gtsim-demo-test-%d-trace.txt", pid);
	snprintf(stdout_path, sizeof(stdout_path), "/tmp/gtsim-demo-test-%d-stdout.txt", pid);
	snprintf(cmd, sizeof(cmd), "GTSIM_DUMP_RT=%s GTSIM_TRACE_FILE=%s %s/tools/gtsim demo green "
		 "--size 8x8 -o %s --trace=batch,eu,vf,urb,vs,ps >%s", dump, trace,
		 root ? root : ".", out, stdout_path);
	CHECK_EQ(system(cmd), 0);
	unsigned w = 0, h = 0;
	uint8_t *img = read_png(dump, &w, &h);
	check_green(img, w, h, 8, 8);
	char *so = slurp(stdout_path), *tr = slurp(trace);
	CHECK(so && strstr(so, "1 SIMD8 write mlen 9 rlen 0"));  /* the seed's VS */
	CHECK(so && strstr(so, "pln(8)"));                       /* the FS */
	CHECK(tr && strstr(tr, "3DPRIMITIVE"));
	/* vertex 3 of the square at (1, 1, 0, 1) */
	CHECK(tr && strstr(tr, "[vf] vertex 3 instance 0 -> VUE") && strstr(tr, ": (1, 1, 0, 1)"));
	CHECK(tr && strstr(tr, "[urb]   row  1  DW  4- 7  (1, 1, 0, 1)"));
	CHECK(tr && strstr(tr, "[ps] thread 0: SIMD8"));
	CHECK(tr && strstr(tr, "[vs] thread 0: SIMD8, 4 vertices"));
	free(so);
	free(tr);
	unlink(out);
	unlink(dump);
	unlink(trace);
	unlink(stdout_path);
}

int main(void)
{
	unsigned w = 0, h = 0;
	uint8_t *img = run_demo("green", &w, &h);
	check_green(img, w, h, W, H);
	img = run_demo("gradient", &w, &h);
	CHECK(img != NULL);
	if (img) {
		int bad = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				uint8_t want[4];
				expected_gradient(x, y, want);
				const uint8_t *got = img + (y * W + x) * 4;
				for (int c = 0; c < 4; c++)
					if (abs(got[c] - want[c]) > 1 && bad++ < 5)
						fprintf(stderr, "pixel %d,%d ch %d: %u want %u\n",
							x, y, c, got[c], want[c]);
			}
		CHECK_EQ(bad, 0);
		free(img);
	}
	dump_and_traces();
	return test_exit();
}
#else
int main(void)
{
	test_skip("built without libpng: the demo writes no images");
}
#endif
