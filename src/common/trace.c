/* Trace categories and the trace file.
 *
 * GTSIM_TRACE_FILE is bounded (issue 16: a hang storm must not fill the
 * disk): the file, shared by every process that appends to it, never
 * grows past GTSIM_TRACE_MAX bytes (TRACE_MAX_DEFAULT without it). The
 * line that would pass the limit and every later one are dropped, and
 * one marker line, written once per file by the first process to drop,
 * says so; it is padded with spaces so that the file ends exactly at the
 * bound (and every process then finds it full). Each line reaches the file as soon as it is complete (the
 * stream is line-buffered over write(2) on an O_APPEND descriptor), so a
 * process killed by a signal leaves every finished line behind. A POSIX
 * record lock on the file around the size check and the write keeps the
 * bound exact between processes (a process's threads are already one at
 * a time in the stream's lock; a record lock, unlike flock, is not shared
 * with a forked child through the inherited descriptor). */
#include "common/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t trace_mask;

static const char *const cat_names[TRACE_NUM_CATS] = {
	[TRACE_GEM] = "gem",     [TRACE_RELOC] = "reloc", [TRACE_CS] = "cs",
	[TRACE_BATCH] = "batch", [TRACE_REG] = "reg",     [TRACE_HANG] = "hang",
	[TRACE_VF] = "vf",       [TRACE_URB] = "urb",     [TRACE_VS] = "vs",
	[TRACE_PS] = "ps",       [TRACE_EU] = "eu",       [TRACE_SEND] = "send",
	[TRACE_STUB] = "stub",
	[TRACE_SHIM] = "shim",
	[TRACE_BLT] = "blt",
	[TRACE_DP] = "dp",
	[TRACE_GPGPU] = "gpgpu",
	[TRACE_GS] = "gs",
	[TRACE_TE] = "te",
	[TRACE_SO] = "so",
	[TRACE_JIT] = "jit",
};

static FILE *out;
static struct trace_file {
	int fd;
	uint64_t max;       /* the file's bound in bytes */
	bool dropping;      /* this process found the file full */
} tf = { -1, TRACE_MAX_DEFAULT, false };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

const char *trace_cat_name(enum trace_cat cat)
{
	return (unsigned)cat < TRACE_NUM_CATS ? cat_names[cat] : "?";
}

int trace_set(const char *list)
{
	uint32_t mask = 0;
	int ret = 0;
	char *copy = strdup(list ? list : "");
	char *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = 0;
		if (!strcmp(tok, "all")) {
			mask = (1u << TRACE_NUM_CATS) - 1;
			continue;
		}
		for (int i = 0; i < TRACE_NUM_CATS; i++) {
			if (!strcmp(tok, cat_names[i])) {
				mask |= 1u << i;
				found = 1;
			}
		}
		if (!found) {
			fprintf(stderr, "gtsim: unknown trace category '%s' (known:", tok);
			for (int i = 0; i < TRACE_NUM_CATS; i++)
				fprintf(stderr, " %s", cat_names[i]);
			fprintf(stderr, ", all)\n");
			ret = -1;
		}
	}
	free(copy);
	trace_mask = mask;
	return ret;
}

uint64_t trace_parse_max(const char *s)
{
	if (!s || !*s)
		return TRACE_MAX_DEFAULT;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (errno || *end || end == s || *s == '-' || v > (UINT64_MAX >> shift) ||
	    (v << shift) < TRACE_MARKER_ROOM)
		return 0;
	return (uint64_t)v << shift;
}

/* The marker: fits in TRACE_MARKER_ROOM whatever the numbers. */
static int marker(char *buf, size_t len)
{
	return snprintf(buf, len, "[trace] GTSIM_TRACE_FILE reached GTSIM_TRACE_MAX=%llu bytes: "
			"later lines dropped (pid %d)\n", (unsigned long long)tf.max, (int)getpid());
}

static bool write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		buf += w;
		n -= (size_t)w;
	}
	return true;
}

/* The file's size now (an O_APPEND descriptor: its end). */
static uint64_t file_end(int fd, uint64_t max)
{
	off_t end = lseek(fd, 0, SEEK_END);
	return end < 0 ? max : (uint64_t)end;
}

/* The stream's write: whole lines (line buffering) or a buffer-full of a
 * longer one. Always "written": a dropped line is not an error. The size
 * check and the write under the record lock, every time: an unlocked
 * check far from the bound let a writer descheduled between its check
 * and its write pass the bound (trace-cap, 12 runs in parallel). */
static ssize_t capped_write(void *cookie, const char *buf, size_t n)
{
	struct trace_file *t = cookie;
	if (t->dropping)
		return (ssize_t)n;
	uint64_t room = t->max - TRACE_MARKER_ROOM;   /* for lines; the rest: the marker */
	struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };   /* the whole file */
	while (fcntl(t->fd, F_SETLKW, &lk) < 0 && errno == EINTR)
		;
	uint64_t size = file_end(t->fd, t->max);
	if (size + n <= room) {
		write_all(t->fd, buf, n);
	} else {
		t->dropping = true;
		if (size <= room) {   /* the first to find it full */
			/* The marker line is padded with spaces to end the file
			 * exactly at the bound, so that every later check, in any
			 * process, finds it full: otherwise a shorter line still
			 * fitted after a longer one was dropped, and its writer
			 * later added a second marker (trace-cap, under load). */
			char m[TRACE_MARKER_ROOM];
			int len = marker(m, sizeof(m));
			size_t body = ((size_t)len < sizeof(m) ? (size_t)len : sizeof(m) - 1) - 1;
			write_all(t->fd, m, body);   /* without its newline */
			static const char spaces[64] = { [0 ... 63] = ' ' };
			for (uint64_t pad = t->max - size - body - 1; pad; ) {
				size_t k = pad < sizeof(spaces) ? (size_t)pad : sizeof(spaces);
				write_all(t->fd, spaces, k);
				pad -= k;
			}
			write_all(t->fd, "\n", 1);
		}
	}
	lk.l_type = F_UNLCK;
	fcntl(t->fd, F_SETLK, &lk);
	return (ssize_t)n;
}

static int capped_close(void *cookie)
{
	struct trace_file *t = cookie;
	return close(t->fd);
}

static FILE *open_capped(const char *file, uint64_t max)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	tf = (struct trace_file){ fd, max, false };
	FILE *f = fopencookie(&tf, "a", (cookie_io_functions_t){ .write = capped_write,
								 .close = capped_close });
	if (!f) {
		close(fd);
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

static void init_env(void)
{
	const char *file = getenv("GTSIM_TRACE_FILE");
	if (file && *file) {
		uint64_t max = trace_parse_max(getenv("GTSIM_TRACE_MAX"));
		if (!max) {
			fprintf(stderr, "gtsim: GTSIM_TRACE_MAX=%s is not a size of at least %d bytes"
				" (digits, then K, M or G); using %llu\n", getenv("GTSIM_TRACE_MAX"),
				TRACE_MARKER_ROOM, (unsigned long long)TRACE_MAX_DEFAULT);
			max = TRACE_MAX_DEFAULT;
		}
		out = open_capped(file, max);
		if (!out)
			fprintf(stderr, "gtsim: cannot open GTSIM_TRACE_FILE %s\n", file);
	}
	const char *list = getenv("GTSIM_TRACE");
	if (list)
		trace_set(list);
}

void trace_init_from_env(void)
{
	pthread_once(&env_once, init_env);
}

FILE *trace_stream(void)
{
	return out ? out : stderr;
}

void trace_lock(void) { pthread_mutex_lock(&lock); }
void trace_unlock(void) { pthread_mutex_unlock(&lock); }

void trace_printf(enum trace_cat cat, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	FILE *f = trace_stream();

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	int newline = n > 0 && (size_t)n < sizeof(line) && line[n - 1] == '\n';
	pthread_mutex_lock(&lock);
	fprintf(f, "[%s] %s%s", trace_cat_name(cat), line, newline ? "" : "\n");
	pthread_mutex_unlock(&lock);
}
