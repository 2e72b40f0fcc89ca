/* The render state belongs to a logical context's recorded state
 * (cs_state_render): set once, freed exactly once when the state is
 * cleared, replaced or destroyed, and each cs_state has its own (so
 * MI_SET_CONTEXT, which swaps the engine's cs_state, swaps it too). */
#include "gpu/cs/state.h"
#include "test.h"

static int freed[3];

static void free_fn(void *p)
{
	freed[*(int *)p]++;
}

int main(void)
{
	int a = 0, b = 1, c = 2;
	struct cs_state *s1 = cs_state_create(), *s2 = cs_state_create();
	CHECK(cs_state_render(s1) == NULL);
	cs_state_set_render(s1, &a, free_fn);
	cs_state_set_render(s2, &b, free_fn);
	CHECK(cs_state_render(s1) == &a);
	CHECK(cs_state_render(s2) == &b);
	/* setting the same pointer again frees nothing */
	cs_state_set_render(s1, &a, free_fn);
	CHECK_EQ(freed[0], 0);
	/* clearing a context's state frees its render state only */
	cs_state_clear(s1);
	CHECK_EQ(freed[0], 1);
	CHECK_EQ(freed[1], 0);
	CHECK(cs_state_render(s1) == NULL);
	/* replacing frees the old one; destroying frees the current one */
	cs_state_set_render(s2, &c, free_fn);
	CHECK_EQ(freed[1], 1);
	cs_state_destroy(s2);
	CHECK_EQ(freed[2], 1);
	cs_state_destroy(s1);
	CHECK_EQ(freed[0], 1);
	return test_exit();
}
