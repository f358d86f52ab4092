#ifndef MAGPIE_COLOR_H
#define MAGPIE_COLOR_H

#include <stddef.h>
#include <stdint.h>

/// The size of mp_matrix_shaper's output table: linear light in 1/16383
/// steps, fine enough that sRGB's steep toe loses no 8-bit level.
#define MP_COLOR_OUTPUT_TABLE_SIZE 16384

/// A matrix-shaper conversion to sRGB, its tables built from an ICC
/// profile by lcms2: per-channel linearization (8-bit code to linear light,
/// 0...16383 fixed point), a 3x3 matrix to linear sRGB in 2.14 fixed
/// point, and sRGB's encoding of linear light back to 8 bits.
typedef struct {
  uint16_t linear[3][256];
  int32_t matrix[3][3];
  /// MP_COLOR_OUTPUT_TABLE_SIZE entries, shared by every shaper and
  /// outliving them.
  const uint8_t *encode;
} mp_matrix_shaper;

/// Converts `height` rows of `width` RGBA8 pixels in place through
/// `shaper`, rows `stride` bytes apart; alpha is kept. With `premultiplied`
/// non-zero the colour is divided by alpha first and multiplied back after
/// (fully transparent pixels are left alone).
void mp_matrix_shaper_apply(const mp_matrix_shaper *shaper, uint8_t *pixels, size_t width, size_t height,
                            size_t stride, int premultiplied);

/// The most bytes lcms2 may take in one allocation in the context below.
#define MP_LCMS_MAX_ALLOCATION ((size_t)64 << 20)

/// A new lcms2 context (a cmsContext) whose allocations fail past
/// MP_LCMS_MAX_ALLOCATION, so a small profile that declares a huge table
/// cannot make lcms2 take memory in proportion to what it declares; NULL
/// when out of memory.
void *mp_lcms_bounded_context(void);

/// Inflates the zlib stream `in` (an iCCP chunk's profile) into `out`,
/// which holds `capacity` bytes. 0: done, *size set; 1: `out` is too small;
/// 2: the stream is corrupt.
int mp_color_inflate(const uint8_t *in, size_t in_size, uint8_t *out, size_t capacity, size_t *size);

#endif
