#include "magpie_resample.h"

#include <cpuid.h>
#include <emmintrin.h>
#include <immintrin.h>
#include <string.h>

#define MP_HALF (1 << 13)
#define MP_SHIFT 14

static int mp_avx2_cpu(void);
// -1 until first asked; then whether the AVX2 loops run.
static int mp_avx2_chosen = -1;

static int mp_has_avx2(void) {
  int chosen = __atomic_load_n(&mp_avx2_chosen, __ATOMIC_RELAXED);
  if (chosen < 0) {
    chosen = mp_avx2_cpu();
    __atomic_store_n(&mp_avx2_chosen, chosen, __ATOMIC_RELAXED);
  }
  return chosen;
}

int mp_resample_select_avx2(int wanted) {
  int previous = mp_has_avx2();
  __atomic_store_n(&mp_avx2_chosen, wanted && mp_avx2_cpu(), __ATOMIC_RELAXED);
  return previous;
}

// Whether AVX2 can run: the CPU has it and the OS saves the YMM registers.
static int mp_avx2_cpu(void) {
  unsigned a, b, c, d;
  int yes = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) yes = 1;
  }
  return yes;
}

// Alpha copied into all four bytes of each pixel, to clamp colour to it.
static inline __m128i mp_alpha4(__m128i v) {
  __m128i a = _mm_srli_epi32(v, 24);
  a = _mm_or_si128(a, _mm_slli_epi32(a, 8));
  return _mm_or_si128(a, _mm_slli_epi32(a, 16));
}

// Sixteen 14-bit sums (four pixels) to bytes, clamped.
static inline __m128i mp_pack16(__m128i s0, __m128i s1, __m128i s2, __m128i s3, int opaque) {
  __m128i lo = _mm_packs_epi32(_mm_srai_epi32(s0, MP_SHIFT), _mm_srai_epi32(s1, MP_SHIFT));
  __m128i hi = _mm_packs_epi32(_mm_srai_epi32(s2, MP_SHIFT), _mm_srai_epi32(s3, MP_SHIFT));
  __m128i v = _mm_packus_epi16(lo, hi);
  return opaque ? v : _mm_min_epu8(v, mp_alpha4(v));
}

// One pixel's four sums to its four bytes, clamped.
static inline uint32_t mp_pack4(__m128i s, int opaque) {
  __m128i v = _mm_srai_epi32(s, MP_SHIFT);
  v = _mm_packus_epi16(_mm_packs_epi32(v, v), v);
  if (!opaque) v = _mm_min_epu8(v, mp_alpha4(v));
  return (uint32_t)_mm_cvtsi128_si32(v);
}

// Entry k of `line`: pixels k and k + 1 interleaved channel by channel as
// int16s (the last entry pairs the last pixel with zeros).
static void mp_spread_pairs(const uint8_t *row, size_t width, int16_t *line) {
  const __m128i zero = _mm_setzero_si128();
  size_t k = 0;
  for (; k + 5 <= width; k += 4) {
    __m128i a = _mm_loadu_si128((const __m128i *)(row + 4 * k));
    __m128i b = _mm_loadu_si128((const __m128i *)(row + 4 * k + 4));
    __m128i lo = _mm_unpacklo_epi8(a, b), hi = _mm_unpackhi_epi8(a, b);
    __m128i *o = (__m128i *)(line + 8 * k);
    _mm_store_si128(o, _mm_unpacklo_epi8(lo, zero));
    _mm_store_si128(o + 1, _mm_unpackhi_epi8(lo, zero));
    _mm_store_si128(o + 2, _mm_unpacklo_epi8(hi, zero));
    _mm_store_si128(o + 3, _mm_unpackhi_epi8(hi, zero));
  }
  for (; k < width; k++) {
    for (int c = 0; c < 4; c++) {
      line[8 * k + 2 * c] = row[4 * k + c];
      line[8 * k + 2 * c + 1] = k + 1 < width ? row[4 * k + 4 + c] : 0;
    }
  }
}

static void mp_row_sse2(
    const int16_t *line, uint8_t *out, size_t width, size_t pc, const intptr_t *starts, const int16_t *pairs,
    int opaque) {
  for (size_t x = 0; x < width; x++) {
    const __m128i *p = (const __m128i *)(line + 8 * starts[x]);
    const __m128i *w = (const __m128i *)(pairs + 8 * pc * x);
    __m128i acc = _mm_set1_epi32(MP_HALF);
    for (size_t j = 0; j < pc; j++) {
      acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_load_si128(p + 2 * j), _mm_loadu_si128(w + j)));
    }
    uint32_t v = mp_pack4(acc, opaque);
    memcpy(out + 4 * x, &v, 4);
  }
}

// Two output pixels at a time, one in each 128-bit lane.
__attribute__((target("avx2"))) static void mp_row_avx2(
    const int16_t *line, uint8_t *out, size_t width, size_t pc, const intptr_t *starts, const int16_t *pairs,
    int opaque) {
  size_t x = 0;
  for (; x + 2 <= width; x += 2) {
    const __m128i *p0 = (const __m128i *)(line + 8 * starts[x]);
    const __m128i *p1 = (const __m128i *)(line + 8 * starts[x + 1]);
    const int16_t *w = pairs + 8 * pc * x;
    __m256i acc = _mm256_set1_epi32(MP_HALF);
    // Output x + 1's weights lie pc groups after x's: one lane each.
    for (size_t j = 0; j < pc; j++) {
      __m256i pix = _mm256_inserti128_si256(
          _mm256_castsi128_si256(_mm_load_si128(p0 + 2 * j)), _mm_load_si128(p1 + 2 * j), 1);
      __m256i wt = _mm256_inserti128_si256(
          _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)w + j)),
          _mm_loadu_si128((const __m128i *)w + pc + j), 1);
      acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pix, wt));
    }
    uint32_t a = mp_pack4(_mm256_castsi256_si128(acc), opaque);
    uint32_t b = mp_pack4(_mm256_extracti128_si256(acc, 1), opaque);
    memcpy(out + 4 * x, &a, 4);
    memcpy(out + 4 * x + 4, &b, 4);
  }
  if (x < width) mp_row_sse2(line, out + 4 * x, width - x, pc, starts + x, pairs + 8 * pc * x, opaque);
}

void mp_resample_row(
    const uint8_t *row, size_t src_width, int16_t *line, uint8_t *out, size_t width, size_t pair_count,
    const intptr_t *starts, const int16_t *pairs, int opaque) {
  mp_spread_pairs(row, src_width, line);
  if (mp_has_avx2()) {
    mp_row_avx2(line, out, width, pair_count, starts, pairs, opaque);
  } else {
    mp_row_sse2(line, out, width, pair_count, starts, pairs, opaque);
  }
}

// Columns from byte `i` on, four pixels (16 bytes) a step, then one pixel.
static void mp_columns_sse2_from(
    const uint8_t *col, size_t stride, uint8_t *out, size_t i, size_t row_bytes, size_t taps, const int16_t *w,
    int opaque) {
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= row_bytes; i += 16) {
    __m128i s0 = _mm_set1_epi32(MP_HALF), s1 = s0, s2 = s0, s3 = s0;
    const uint8_t *r = col + i;
    for (size_t k = 0; k < taps; k += 2) {
      int last = k + 1 == taps;
      __m128i a = _mm_loadu_si128((const __m128i *)r);
      __m128i b = last ? a : _mm_loadu_si128((const __m128i *)(r + stride));
      uint16_t w0 = (uint16_t)w[k], w1 = last ? 0 : (uint16_t)w[k + 1];
      __m128i wt = _mm_set1_epi32((int)((uint32_t)w0 | ((uint32_t)w1 << 16)));
      __m128i lo = _mm_unpacklo_epi8(a, b), hi = _mm_unpackhi_epi8(a, b);
      s0 = _mm_add_epi32(s0, _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), wt));
      s1 = _mm_add_epi32(s1, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), wt));
      s2 = _mm_add_epi32(s2, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), wt));
      s3 = _mm_add_epi32(s3, _mm_madd_epi16(_mm_unpackhi_epi8(hi, zero), wt));
      r += 2 * stride;
    }
    _mm_storeu_si128((__m128i *)(out + i), mp_pack16(s0, s1, s2, s3, opaque));
  }
  for (; i + 4 <= row_bytes; i += 4) {
    __m128i s = _mm_set1_epi32(MP_HALF);
    for (size_t k = 0; k < taps; k++) {
      uint32_t p;
      memcpy(&p, col + k * stride + i, 4);
      __m128i px = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)p), zero), zero);
      s = _mm_add_epi32(s, _mm_madd_epi16(px, _mm_set1_epi32((uint16_t)w[k])));
    }
    uint32_t v = mp_pack4(s, opaque);
    memcpy(out + i, &v, 4);
  }
}

// Eight pixels (32 bytes) a step; lanes keep pixels 0-3 and 4-7 apart and
// the packs put them back in order.
__attribute__((target("avx2"))) static void mp_columns_avx2(
    const uint8_t *col, size_t stride, uint8_t *out, size_t row_bytes, size_t taps, const int16_t *w, int opaque) {
  const __m256i zero = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 32 <= row_bytes; i += 32) {
    __m256i s0 = _mm256_set1_epi32(MP_HALF), s1 = s0, s2 = s0, s3 = s0;
    const uint8_t *r = col + i;
    for (size_t k = 0; k < taps; k += 2) {
      int last = k + 1 == taps;
      __m256i a = _mm256_loadu_si256((const __m256i *)r);
      __m256i b = last ? a : _mm256_loadu_si256((const __m256i *)(r + stride));
      uint16_t w0 = (uint16_t)w[k], w1 = last ? 0 : (uint16_t)w[k + 1];
      __m256i wt = _mm256_set1_epi32((int)((uint32_t)w0 | ((uint32_t)w1 << 16)));
      __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b);
      s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), wt));
      s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), wt));
      s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), wt));
      s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), wt));
      r += 2 * stride;
    }
    __m256i p01 = _mm256_packs_epi32(_mm256_srai_epi32(s0, MP_SHIFT), _mm256_srai_epi32(s1, MP_SHIFT));
    __m256i p23 = _mm256_packs_epi32(_mm256_srai_epi32(s2, MP_SHIFT), _mm256_srai_epi32(s3, MP_SHIFT));
    __m256i v = _mm256_packus_epi16(p01, p23);
    if (!opaque) {
      __m256i alpha = _mm256_srli_epi32(v, 24);
      alpha = _mm256_or_si256(alpha, _mm256_slli_epi32(alpha, 8));
      alpha = _mm256_or_si256(alpha, _mm256_slli_epi32(alpha, 16));
      v = _mm256_min_epu8(v, alpha);
    }
    _mm256_storeu_si256((__m256i *)(out + i), v);
  }
  mp_columns_sse2_from(col, stride, out, i, row_bytes, taps, w, opaque);
}

void mp_resample_columns(
    const uint8_t *src, size_t stride, uint8_t *out, size_t row_bytes, size_t first, size_t end, size_t taps,
    const intptr_t *starts, const int16_t *weights, int opaque) {
  int avx2 = mp_has_avx2();
  for (size_t y = first; y < end; y++) {
    const uint8_t *col = src + (size_t)starts[y] * stride;
    const int16_t *w = weights + y * taps;
    if (avx2) {
      mp_columns_avx2(col, stride, out + y * row_bytes, row_bytes, taps, w, opaque);
    } else {
      mp_columns_sse2_from(col, stride, out + y * row_bytes, 0, row_bytes, taps, w, opaque);
    }
  }
}
