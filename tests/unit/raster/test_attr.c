/* Barycentric interpolation accuracy: linear weights reproduce an affine
 * function of the window position, perspective weights reproduce
 * attributes that are affine in clip space, both against values computed
 * here from the definitions. */
#include <math.h>

#include "gpu/render/raster.h"
#include "test.h"

int main(void)
{
	struct win_vertex v[3] = {
		{ 10, 10, 0.1f, 1.0f }, { 90, 20, 0.5f, 0.25f }, { 30, 70, 0.9f, 0.5f },
	};
	struct bary_setup s;
	bary_setup(&s, &v[0], &v[1], &v[2]);

	/* at the vertices the weights are the unit vectors */
	for (int i = 0; i < 3; i++) {
		float lin[3], persp[3];
		bary_at(&s, v[i].x, v[i].y, lin, persp);
		for (int k = 0; k < 3; k++) {
			CHECK(fabsf(lin[k] - (k == i)) < 1e-6f);
			CHECK(fabsf(persp[k] - (k == i)) < 1e-6f);
		}
	}

	/* linear: f(x, y) = 3x - 2y + 5 sampled at the vertices */
	double worst_lin = 0, worst_persp = 0;
	for (int y = 12; y < 60; y += 3)
		for (int x = 12; x < 80; x += 3) {
			float lin[3], persp[3];
			bary_at(&s, x + 0.5, y + 0.5, lin, persp);
			double f = 0;
			for (int k = 0; k < 3; k++)
				f += lin[k] * (3.0 * v[k].x - 2.0 * v[k].y + 5);
			double want = 3.0 * (x + 0.5) - 2.0 * (y + 0.5) + 5;
			worst_lin = fmax(worst_lin, fabs(f - want));

			/* perspective: an attribute a = u (clip-space affine) has
			 * a/w affine in screen space; so sum(persp_k a_k) must equal
			 * (sum lin_k a_k/w_k) / (sum lin_k / w_k) */
			double a[3] = { 1, 7, -3 }, num = 0, den = 0, got = 0;
			for (int k = 0; k < 3; k++) {
				num += lin[k] * a[k] * v[k].rhw;
				den += lin[k] * v[k].rhw;
				got += persp[k] * a[k];
			}
			worst_persp = fmax(worst_persp, fabs(got - num / den));
		}
	CHECK(worst_lin < 1e-3);
	CHECK(worst_persp < 1e-5);
	return test_exit();
}
