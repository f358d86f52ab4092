#include "magpie_color.h"

#include <libdeflate.h>

// round(c * a / 255) and its inverse, as PixelBuffer rounds.
static inline uint8_t mp_mul255(unsigned c, unsigned a) {
  unsigned t = c * a + 128;
  return (uint8_t)((t + (t >> 8)) >> 8);
}

static inline uint8_t mp_encode(const mp_matrix_shaper *s, int64_t v) {
  // v is linear light in 2.14 fixed point times 16383: bring it to the
  // table's 0...16383 range, clipping out-of-gamut colour.
  int64_t i = (v + (1 << 13)) >> 14;
  if (i < 0) i = 0;
  if (i > MP_COLOR_OUTPUT_TABLE_SIZE - 1) i = MP_COLOR_OUTPUT_TABLE_SIZE - 1;
  return s->encode[i];
}

void mp_matrix_shaper_apply(const mp_matrix_shaper *s, uint8_t *pixels, size_t width, size_t height,
                            size_t stride, int premultiplied) {
  const int32_t(*m)[3] = s->matrix;
  for (size_t y = 0; y < height; y++) {
    uint8_t *p = pixels + y * stride;
    for (size_t x = 0; x < width; x++, p += 4) {
      unsigned a = p[3];
      unsigned r = p[0], g = p[1], b = p[2];
      int partial = premultiplied && a != 255;
      if (partial) {
        if (a == 0) continue;
        r = (r * 255 + a / 2) / a;
        g = (g * 255 + a / 2) / a;
        b = (b * 255 + a / 2) / a;
        if (r > 255) r = 255;
        if (g > 255) g = 255;
        if (b > 255) b = 255;
      }
      int64_t lr = s->linear[0][r], lg = s->linear[1][g], lb = s->linear[2][b];
      uint8_t orr = mp_encode(s, m[0][0] * lr + m[0][1] * lg + m[0][2] * lb);
      uint8_t og = mp_encode(s, m[1][0] * lr + m[1][1] * lg + m[1][2] * lb);
      uint8_t ob = mp_encode(s, m[2][0] * lr + m[2][1] * lg + m[2][2] * lb);
      if (partial) {
        orr = mp_mul255(orr, a);
        og = mp_mul255(og, a);
        ob = mp_mul255(ob, a);
      }
      p[0] = orr;
      p[1] = og;
      p[2] = ob;
    }
  }
}

int mp_color_inflate(const uint8_t *in, size_t in_size, uint8_t *out, size_t capacity, size_t *size) {
  struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
  if (d == NULL) return 2;
  enum libdeflate_result r = libdeflate_zlib_decompress(d, in, in_size, out, capacity, size);
  libdeflate_free_decompressor(d);
  if (r == LIBDEFLATE_SUCCESS) return 0;
  return r == LIBDEFLATE_INSUFFICIENT_SPACE ? 1 : 2;
}
