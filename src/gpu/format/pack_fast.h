/* Render target packing specialised per common format: the same result,
 * bit for bit, as format_pack() (format_pack.c, the reference), without
 * its per-channel switch and bit-by-bit stores. A render target write
 * chooses the packer once per draw. */
#ifndef GTSIM_FORMAT_PACK_FAST_H
#define GTSIM_FORMAT_PACK_FAST_H

#include "gpu/format/format.h"

/* Packs one element: in[4] as format_pack() takes them (floats for
 * float-like formats, integers for integer ones) into dst, every bit of
 * the element written (the formats covered have no padding bits). */
typedef void (*fmt_pack_fn)(const union fmt_value in[4], void *dst);

/* The specialised packer of format number, or NULL: use format_pack(). */
fmt_pack_fn format_pack_fast(uint32_t number);

/* Packs eight elements at once, element i's channel c from dword i of
 * ch[c] (the render target write message's layout: a register per
 * channel), to dst + i * the element size: the same bits as the
 * single-element packer of the same format. */
typedef void (*fmt_pack8_fn)(const uint8_t *const ch[4], void *dst);

/* The eight-element packer of format number: non-NULL exactly where
 * format_pack_fast() is. */
fmt_pack8_fn format_pack8_fast(uint32_t number);

#endif
