#include "magpie_pixels.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

// One row: dst[i] = src[i] with colour times alpha, rounded; src may equal
// dst. Returns the AND of the row's alpha bytes.
static uint32_t mp_premultiply_row(const uint8_t *src, uint8_t *dst, size_t width) {
  size_t i = 0;
  uint32_t alpha = 0xFF;
#ifdef __SSE2__
  // Four pixels a step as 16-bit lanes: each colour lane times its pixel's
  // alpha, the alpha lane times 255 (which the rounding maps back to alpha).
  const __m128i zero = _mm_setzero_si128();
  const __m128i rgb_lanes = _mm_set_epi16(0, -1, -1, -1, 0, -1, -1, -1);
  const __m128i alpha_factor = _mm_set_epi16(255, 0, 0, 0, 255, 0, 0, 0);
  const __m128i half = _mm_set1_epi16(128);
  __m128i all = _mm_set1_epi8(-1);
  for (; i + 4 <= width; i += 4) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(src + 4 * i));
    all = _mm_and_si128(all, v);
    __m128i lo = _mm_unpacklo_epi8(v, zero);
    __m128i hi = _mm_unpackhi_epi8(v, zero);
    __m128i alo = _mm_shufflehi_epi16(_mm_shufflelo_epi16(lo, 0xFF), 0xFF);
    __m128i ahi = _mm_shufflehi_epi16(_mm_shufflelo_epi16(hi, 0xFF), 0xFF);
    alo = _mm_or_si128(_mm_and_si128(alo, rgb_lanes), alpha_factor);
    ahi = _mm_or_si128(_mm_and_si128(ahi, rgb_lanes), alpha_factor);
    lo = _mm_add_epi16(_mm_mullo_epi16(lo, alo), half);
    hi = _mm_add_epi16(_mm_mullo_epi16(hi, ahi), half);
    lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
    hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
    _mm_storeu_si128((__m128i *)(dst + 4 * i), _mm_packus_epi16(lo, hi));
  }
  uint8_t lanes[16];
  _mm_storeu_si128((__m128i *)lanes, all);
  alpha = (uint32_t)(lanes[3] & lanes[7] & lanes[11] & lanes[15]);
#endif
  for (; i < width; i++) {
    const uint32_t a = src[4 * i + 3];
    alpha &= a;
    for (int c = 0; c < 3; c++) {
      const uint32_t t = src[4 * i + c] * a + 128;
      dst[4 * i + c] = (uint8_t)((t + (t >> 8)) >> 8);
    }
    dst[4 * i + 3] = (uint8_t)a;
  }
  return alpha;
}

uint32_t mp_premultiply_rows(uint8_t *pixels, size_t width, size_t height, size_t stride) {
  uint32_t all = 0xFF;
  for (size_t y = 0; y < height; y++) all &= mp_premultiply_row(pixels + y * stride, pixels + y * stride, width);
  return all;
}

uint32_t mp_premultiply_copy(
    const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, size_t width, size_t height) {
  uint32_t all = 0xFF;
  for (size_t y = 0; y < height; y++) all &= mp_premultiply_row(src + y * src_stride, dst + y * dst_stride, width);
  return all;
}
