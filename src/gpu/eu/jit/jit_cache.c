/* The cache of compiled programs, keyed by their instructions' bytes, and
 * the tiering that decides when a program is compiled (jit.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/trace.h"
#include "gpu/eu/jit/jit.h"

struct exec_jit_entry {
	struct exec_jit_entry *next;     /* same bucket */
	uint64_t hash;
	size_t len;
	uint8_t *key;
	atomic_uint runs;
	atomic_ullong interpreted;       /* instructions the interpreter ran of it */
	_Atomic(exec_jit_fn) fn;
	atomic_bool failed;              /* the compiler refused it: never again */
};

#define BUCKETS 1024

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct exec_jit_entry *table[BUCKETS];
static struct exec_jit_stats stats;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
/* read without the lock by exec_jit_run; EXEC_JIT_OFF for good once the
 * code generator turns out to be missing */
static _Atomic enum exec_jit_mode mode = EXEC_JIT_TIERED;
static unsigned threshold = EXEC_JIT_DEFAULT_RUNS;
static bool by_work = true;      /* no count given: by the program's length */
static uint64_t due_work = EXEC_JIT_DEFAULT_WORK;   /* 0: runs only */
static bool corrupt;

static void read_env(void)
{
	/* LLVM is not looked for here: only on the first compile */
	const char *e = getenv("GTSIM_JIT");
	if (!e || !*e)
		return;
	if (!strcmp(e, "0")) {
		mode = EXEC_JIT_OFF;
		return;
	}
	if (!strcmp(e, "check"))
		mode = EXEC_JIT_CHECK;
	bool at_once = !strcmp(e, "always") || !strcmp(e, "check");
	threshold = at_once ? 0 : (unsigned)strtoul(e, NULL, 10);
	by_work = false;
	due_work = 0;
}

void exec_jit_configure(enum exec_jit_mode m, unsigned runs)
{
	pthread_once(&env_once, read_env);
	pthread_mutex_lock(&lock);
	/* turning it off never loads LLVM */
	mode = m != EXEC_JIT_OFF && exec_jit_available() ? m : EXEC_JIT_OFF;
	threshold = runs;
	by_work = false;
	due_work = 0;
	pthread_mutex_unlock(&lock);
}

void exec_jit_configure_work(unsigned runs, uint64_t work)
{
	exec_jit_configure(EXEC_JIT_TIERED, runs);
	pthread_mutex_lock(&lock);
	due_work = work;
	pthread_mutex_unlock(&lock);
}

void exec_jit_set_corrupt(bool on)
{
	pthread_mutex_lock(&lock);
	corrupt = on;
	pthread_mutex_unlock(&lock);
}

void exec_jit_stats(struct exec_jit_stats *out)
{
	pthread_mutex_lock(&lock);
	*out = stats;
	pthread_mutex_unlock(&lock);
}

/* FNV-1a */
static uint64_t hash_bytes(const uint8_t *b, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* The key: gen, then per instruction its byte offset and its decoded
 * form, the whole input of exec_translate (decoding zeroes the struct
 * first, so equal bytes of a kernel give equal keys; a struct built
 * otherwise may carry stray padding, which costs a miss, never a wrong
 * hit). */
static uint8_t *make_key(int gen, const struct eu_inst *insts,
			 const uint32_t *offsets, size_t count, size_t *len)
{
	size_t per = 4 + sizeof(struct eu_inst);
	uint8_t *k = malloc(4 + count * per);
	if (!k)
		return NULL;
	uint32_t g = (uint32_t)gen;
	memcpy(k, &g, 4);
	for (size_t i = 0; i < count; i++) {
		uint8_t *at = k + 4 + i * per;
		memcpy(at, &offsets[i], 4);
		memcpy(at + 4, &insts[i], sizeof(struct eu_inst));
	}
	*len = 4 + count * per;
	return k;
}

struct exec_jit_entry *exec_jit_entry(int gen, const struct eu_inst *insts,
				      const uint32_t *offsets, size_t count)
{
	pthread_once(&env_once, read_env);
	if (mode == EXEC_JIT_OFF || !count)
		return NULL;
	size_t len;
	uint8_t *key = make_key(gen, insts, offsets, count, &len);
	if (!key)
		return NULL;
	uint64_t h = hash_bytes(key, len);
	pthread_mutex_lock(&lock);
	struct exec_jit_entry **b = &table[h % BUCKETS], *e;
	for (e = *b; e; e = e->next)
		if (e->hash == h && e->len == len && !memcmp(e->key, key, len))
			break;
	if (!e && (e = calloc(1, sizeof(*e)))) {
		e->hash = h;
		e->len = len;
		e->key = key;
		key = NULL;
		e->next = *b;
		*b = e;
	}
	pthread_mutex_unlock(&lock);
	free(key);
	return e;
}

static uint64_t elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (uint64_t)(b->tv_sec - a->tv_sec) * 1000000000ull +
	       (uint64_t)(b->tv_nsec - a->tv_nsec);
}

static unsigned compiling;   /* threads in compile(), waiting for the lock included */

unsigned exec_jit_compiling(void)
{
	return __atomic_load_n(&compiling, __ATOMIC_RELAXED);
}

static exec_jit_fn compile(struct exec_jit_entry *e, const struct exec_prog *p)
{
	__atomic_add_fetch(&compiling, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&lock);
	exec_jit_fn fn = atomic_load(&e->fn);
	if (!fn && !atomic_load(&e->failed)) {
		struct timespec t0, t1, c0, c1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		size_t inlined = 0;
		bool no_generator = false;
		fn = exec_jit_compile(p, corrupt, &inlined, &no_generator);
		if (no_generator)
			mode = EXEC_JIT_OFF;   /* traced once by the loader */
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		uint64_t ns = elapsed_ns(&t0, &t1), cpu = elapsed_ns(&c0, &c1);
		if (fn) {
			stats.programs++;
			stats.instructions += p->count;
			stats.inlined += inlined;
			stats.compile_ns += ns;
			stats.compile_cpu_ns += cpu;
			atomic_store(&e->fn, fn);
		} else {
			atomic_store(&e->failed, true);
		}
		TRACE(TRACE_JIT, "program of %zu instructions (%zu inline) %s in %.3f ms",
		      p->count, inlined, fn ? "compiled" : "not compiled", (double)ns * 1e-6);
	}
	pthread_mutex_unlock(&lock);
	__atomic_sub_fetch(&compiling, 1, __ATOMIC_RELAXED);
	return fn;
}

/* By default a program is also due once the interpreter has run
 * EXEC_JIT_DEFAULT_WORK of its instructions, however few threads ran
 * them: one GS thread of glsl-1.50-gs-max-output loops through 1024
 * EmitVertex()es, millions of instructions in a single run. */
static bool due_by_work(struct exec_jit_entry *e)
{
	return due_work && atomic_load_explicit(&e->interpreted, memory_order_relaxed) >=
		due_work;
}

bool exec_jit_interpreted(const struct exec_prog *p, uint64_t n)
{
	struct exec_jit_entry *e = p->jit;
	if (!e || mode == EXEC_JIT_OFF || atomic_load_explicit(&e->failed, memory_order_relaxed))
		return false;
	if (atomic_load_explicit(&e->fn, memory_order_acquire))
		return true;
	atomic_fetch_add_explicit(&e->interpreted, n, memory_order_relaxed);
	return due_by_work(e) && compile(e, p) != NULL;
}

void exec_jit_run(struct eu_thread *t, const struct exec_prog *p, uint64_t stop)
{
	struct exec_jit_entry *e = p->jit;
	if (mode == EXEC_JIT_OFF)
		return;
	exec_jit_fn fn = atomic_load_explicit(&e->fn, memory_order_acquire);
	if (!fn) {
		/* by default a program waits until it has run about as many
		 * instructions as compiling it costs (EXEC_JIT_DEFAULT_WORK),
		 * at least EXEC_JIT_DEFAULT_RUNS times */
		unsigned need = threshold;
		if (by_work && EXEC_JIT_DEFAULT_WORK / p->count > need)
			need = (unsigned)(EXEC_JIT_DEFAULT_WORK / p->count);
		if (atomic_load_explicit(&e->failed, memory_order_relaxed) ||
		    (atomic_fetch_add_explicit(&e->runs, 1, memory_order_relaxed) < need &&
		     !due_by_work(e)))
			return;
		if (!(fn = compile(e, p)))
			return;
	}
	if (mode == EXEC_JIT_CHECK)
		exec_jit_run_checked(t, p, fn, stop);
	else
		fn(t, p, stop, 0);
}
