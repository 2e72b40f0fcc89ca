/* A fragment shader with control flow and math on Mesa's iris under
 * `gtsim run`, compared with Mesa's llvmpipe drawing the same thing: a
 * full-screen quad whose FS discards a diagonal pattern of pixels from
 * gl_FragCoord, loops over a uniform array, and uses sin, pow, sqrt,
 * normalize, mix and fract. iris compiles it to GEN code that gtsim's EUs
 * run (math through the extended math unit, flow through if/loop/discard).
 *
 * Oracle: llvmpipe (LIBGL_ALWAYS_SOFTWARE=1, in a child process that
 * never touches the GPU) renders the scene first; every channel of every
 * pixel from iris on gtsim must be within 3/255 of it (the two drivers'
 * sin/pow approximations differ in the last bits), and discarded pixels
 * (the clear colour) must match exactly in both. The parent checks that
 * it ran on iris and the child on llvmpipe. --pixels=report prints but
 * does not require the pixels. */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gl_target.h"

#define W 32
#define H 32

static const char vs_src[] =
	"attribute vec2 pos;\n"
	"varying vec2 uv;\n"
	"void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs_src[] =
	"precision highp float;\n"
	"varying vec2 uv;\n"
	"uniform vec4 k[4];\n"
	"void main() {\n"
	"  vec2 p = gl_FragCoord.xy;\n"
	"  if (mod(p.x + p.y, 5.0) < 1.0) discard;\n"
	"  float s = 0.0;\n"
	"  for (int i = 0; i < 4; i++)\n"
	"    s += sin(uv.x * k[i].x + float(i)) * k[i].y;\n"
	"  vec3 n = normalize(vec3(uv - 0.5, k[2].z));\n"
	"  float g = pow(max(uv.y, 0.01), k[3].x) * sqrt(uv.x);\n"
	"  gl_FragColor = vec4(fract(s + 4.0), mix(g, n.x * 0.5 + 0.5, k[3].y), floor(p.x) / 32.0, 1.0);\n"
	"}\n";

/* Draws the scene into px; the renderer's name into name. */
static void render(uint8_t *px, char *name, size_t size)
{
	struct gl_target t;
	if (!gl_target_open(&t, W, H))
		return;
	snprintf(name, size, "%s", (const char *)glGetString(GL_RENDERER));
	glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
	glClear(GL_COLOR_BUFFER_BIT);
	static const char *const attribs[] = { "pos", NULL };
	GLuint p = gl_program(vs_src, fs_src, attribs);
	glUseProgram(p);
	static const float k[16] = { 3.1f, 0.4f, 0, 0,  5.7f, 0.3f, 0, 0,
				     9.2f, 0.2f, 0.8f, 0,  1.7f, 0.35f, 0, 0 };
	glUniform4fv(glGetUniformLocation(p, "k"), 4, k);
	static const float quad[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	gl_target_read(&t, px);
	gl_target_close(&t);
}

struct shared {
	uint8_t px[W * H * 4];
	char name[128];
};

int main(int argc, char **argv)
{
	struct shared *ref = mmap(NULL, sizeof(*ref), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(ref != MAP_FAILED);
	if (ref == MAP_FAILED)
		return test_exit();
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
		render(ref->px, ref->name, sizeof(ref->name));
		fflush(stdout);
		_exit(test_failures ? 1 : 0);
	}
	int st = 1;
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	printf("reference: %s\n", ref->name);
	CHECK(strstr(ref->name, "llvmpipe") != NULL);

	static uint8_t px[W * H * 4];
	char name[128] = "";
	render(px, name, sizeof(name));
	printf("GL_RENDERER: %s\n", name);
	CHECK(strstr(name, "Intel") != NULL);

	int bad = 0, discarded = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *want = ref->px + 4 * (y * W + x);
			bool kept = want[3] == 255;    /* drawn pixels have alpha 1 */
			discarded += !kept;
			bad += gl_pixel_bad(x, y, px + 4 * (y * W + x), want, kept ? 3 : 0);
		}
	/* one diagonal in five: mod(x + y + 1, 5) < 1 at pixel centres */
	printf("discarded by the reference: %d\n", discarded);
	CHECK(discarded > 150 && discarded < 260);
	gl_pixels_verdict(bad, W * H, argc, argv);
	munmap(ref, sizeof(*ref));
	return test_exit();
}
