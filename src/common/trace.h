/* Trace categories, switched on by GTSIM_TRACE=cat1,cat2,... (or "all"),
 * in the spirit of INTEL_DEBUG. Output goes to stderr, or to the file named
 * by GTSIM_TRACE_FILE (appended, at most GTSIM_TRACE_MAX bytes, then a
 * marker line: trace.c). Each line starts with the category in brackets. */
#ifndef GTSIM_TRACE_H
#define GTSIM_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum trace_cat {
	TRACE_GEM,    /* kernel model: ioctls, objects, binding, eviction */
	TRACE_RELOC,  /* relocation processing */
	TRACE_CS,     /* command streamer: ring, HEAD/TAIL/ACTHD, batch start/end */
	TRACE_BATCH,  /* decoded commands, INTEL_DEBUG=bat style */
	TRACE_REG,    /* register reads and writes by the command streamer */
	TRACE_HANG,   /* hangcheck, resets, error states */
	TRACE_VF,     /* fetched vertices */
	TRACE_URB,    /* URB writes and VUE contents */
	TRACE_VS,     /* VS thread dispatches */
	TRACE_GS,     /* GS thread dispatches, output entries and strips */
	TRACE_PS,     /* PS thread dispatches */
	TRACE_TE,     /* tessellation: patches' factors, point and primitive counts, HS/DS threads */
	TRACE_EU,     /* executed EU instructions */
	TRACE_SEND,   /* messages to shared functions */
	TRACE_STUB,   /* unimplemented paths reached (reported once each) */
	TRACE_SHIM,   /* the device interposer */
	TRACE_BLT,    /* blits: rectangles, pitches, tiling, raster operation */
	TRACE_DP,     /* data port messages: surface, addresses, OOB lanes, atomics */
	TRACE_GPGPU,  /* compute walkers: groups, threads, masks, payload, barriers */
	TRACE_SO,     /* stream output: primitives written or dropped */
	TRACE_JIT,    /* EU code generator: LLVM loaded or not, programs compiled */
	TRACE_NUM_CATS
};

extern uint32_t trace_mask;

/* The trace file's bound without GTSIM_TRACE_MAX, and the bytes kept
 * under the bound for the marker line. */
#define TRACE_MAX_DEFAULT (256ull << 20)
#define TRACE_MARKER_ROOM 160

/* GTSIM_TRACE_MAX's value: bytes, or with a K, M or G suffix; NULL or
 * empty gives TRACE_MAX_DEFAULT; 0 when malformed or under
 * TRACE_MARKER_ROOM. */
uint64_t trace_parse_max(const char *s);

/* Parse a comma separated list of category names ("all" selects every
 * category). Returns 0, or -1 naming the unknown category on stderr. */
int trace_set(const char *list);
/* Reads GTSIM_TRACE and GTSIM_TRACE_FILE once. Safe to call repeatedly. */
void trace_init_from_env(void);
const char *trace_cat_name(enum trace_cat cat);

static inline bool trace_on(enum trace_cat cat)
{
	return (trace_mask >> cat) & 1;
}

void trace_printf(enum trace_cat cat, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The stream trace lines go to (for multi-line dumps); hold trace_lock()
 * while writing several lines that belong together. */
FILE *trace_stream(void);
void trace_lock(void);
void trace_unlock(void);

#define TRACE(cat, ...) \
	do { if (trace_on(cat)) trace_printf(cat, __VA_ARGS__); } while (0)

/* Report an unimplemented path once per call site under category "stub". */
#define TRACE_STUB_ONCE(...) \
	do { static int reported_; \
	     if (!__atomic_exchange_n(&reported_, 1, __ATOMIC_RELAXED)) \
		TRACE(TRACE_STUB, __VA_ARGS__); } while (0)

#endif
