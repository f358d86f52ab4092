#ifndef MAGPIE_PIXELS_H
#define MAGPIE_PIXELS_H

#include <stddef.h>
#include <stdint.h>

/// Premultiplies `height` rows of `width` straight RGBA8 pixels in place,
/// rows `stride` bytes apart: each colour channel becomes round(c * a / 255)
/// (t = c * a + 128, (t + (t >> 8)) >> 8, as PixelBuffer and the PNG decoder
/// round). Returns the AND of every alpha byte, so 255 means all opaque.
uint32_t mp_premultiply_rows(uint8_t *pixels, size_t width, size_t height, size_t stride);

/// The same, from `src` (rows `src_stride` bytes apart) into `dst` (rows
/// `dst_stride` apart) in one pass, instead of copying and then
/// premultiplying in place.
uint32_t mp_premultiply_copy(
    const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, size_t width, size_t height);

#endif
