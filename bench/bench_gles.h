/* A GLES 2 program of the benches' one vertex shader (attribute "pos" at
 * location 0) and a fragment shader; exits naming the bench when it does
 * not link. */
#ifndef GTSIM_BENCH_GLES_H
#define GTSIM_BENCH_GLES_H

#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>

static inline GLuint bench_program(const char *bench, const char *vs, const char *fs)
{
	GLuint p = glCreateProgram();
	const char *src[2] = { vs, fs };
	GLenum type[2] = { GL_VERTEX_SHADER, GL_FRAGMENT_SHADER };
	for (int i = 0; i < 2; i++) {
		GLuint s = glCreateShader(type[i]);
		glShaderSource(s, 1, &src[i], NULL);
		glCompileShader(s);
		glAttachShader(p, s);
	}
	glBindAttribLocation(p, 0, "pos");
	glLinkProgram(p);
	GLint ok = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "%s: shader program does not link\n", bench);
		exit(1);
	}
	return p;
}

#endif
