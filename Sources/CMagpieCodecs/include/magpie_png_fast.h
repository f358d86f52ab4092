#ifndef MAGPIE_PNG_FAST_H
#define MAGPIE_PNG_FAST_H

// The fast path for the common PNG: 8-bit samples, no interlacing, colour
// type 0, 2, 3, 4 or 6. libdeflate inflates every IDAT at once into the
// filtered rows; each row is then unfiltered in place (SSE2 where the
// compiler targets it) and converted straight to premultiplied RGBA8 while
// it is still in cache.
//
// The fast path never reports an error. Anything it is not sure of (a CRC
// mismatch, a zlib stream that is damaged, ends early or holds more than the
// image, a window smaller than the data, a bad filter byte) makes it
// decline, and the caller decodes the same bytes with libpng instead, so
// odd and broken files behave exactly as they always did. Like the libpng
// path, it does not check the zlib stream's Adler-32: every IDAT chunk's
// CRC-32 is checked instead.

#include <stddef.h>
#include <stdint.h>

/// How mp_png_fast_decode ended.
typedef enum mp_png_fast_result {
  /// Every pixel is decoded.
  MP_PNG_FAST_DONE = 0,
  /// The fast path does not handle this stream; decode it another way. The
  /// pixel buffer may have been partly written.
  MP_PNG_FAST_DECLINED = 1,
} mp_png_fast_result;

/// What the fast path needs to know about an image, from its IHDR, PLTE and
/// tRNS chunks as libpng validated them.
typedef struct mp_png_fast_image {
  /// Width in pixels, at least 1.
  uint32_t width;
  /// Height in pixels, at least 1.
  uint32_t height;
  /// 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA; 8 bits a sample.
  int32_t color_type;
  /// Nonzero to premultiply colour by alpha; 0 keeps alpha straight, exactly
  /// as the file stores it.
  int32_t premultiply;
  /// Colour type 3 only: every index's RGBA8 colour (premultiplied when
  /// `premultiply` is set), as bytes R, G, B, A in memory order.
  uint8_t palette[256][4];
} mp_png_fast_image;

/// The bytes a pixel buffer of packed rows (`stride == width * 4`) needs for
/// mp_png_fast_decode to inflate into it instead of allocating room for the
/// filtered rows: `width * 4 * height`, plus `height` for colour type 6
/// (whose filtered rows are a byte longer than its pixel rows). 0 for an
/// unknown colour type, an empty size or one that overflows.
size_t mp_png_fast_capacity(uint32_t width, uint32_t height, int32_t color_type);

/// Decodes the image data of a PNG held in `size` bytes at `data`, whose
/// first IDAT chunk starts (at its length field) at `idat_offset`, into
/// `pixels` (`capacity` bytes): RGBA8 (premultiplied when
/// `image->premultiply` is set, else straight), `stride >= width * 4`
/// bytes a row. `*all_opaque` becomes 1 when every alpha is 255. Reads
/// nothing outside `data[0..<size]` and writes nothing outside
/// `pixels[0..<capacity]`. With packed rows and mp_png_fast_capacity bytes
/// the filtered rows are inflated into the end of `pixels`; otherwise they
/// get their own (1 + width * channels) * height bytes, allocated only once
/// the IDAT chunks hold enough data to fill them.
mp_png_fast_result mp_png_fast_decode(
    const uint8_t *data, size_t size, size_t idat_offset, const mp_png_fast_image *image, uint8_t *pixels,
    size_t capacity, size_t stride, int *all_opaque);

/// Undoes PNG filter `filter` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) on
/// the `count` bytes of `row` in place, `bpp` (1 to 4) bytes a pixel, given
/// the unfiltered row above in `prior` (zeros for the first row). Returns 0
/// for a filter type PNG does not define, leaving the row as it was.
int mp_png_fast_unfilter_row(uint8_t *row, const uint8_t *prior, size_t count, unsigned bpp, unsigned filter);

/// The Paeth predictor of the byte whose left, upper and upper-left
/// neighbours are `a`, `b` and `c`: the one nearest a + b - c, ties to a,
/// then b. Shared by the unfilter and the encoder's filter choice.
uint8_t mp_png_paeth(int a, int b, int c);

#endif
