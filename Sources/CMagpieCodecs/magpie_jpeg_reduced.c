// The output half of Magpie's scaled progressive JPEG decoder: reduced
// inverse DCTs and the YCbCr to RGB conversion, with the arithmetic of
// libjpeg-turbo on x86-64 (jidctred.c's 1x1, its SSE2 2x2 and 4x4,
// jdcolor.c's tables) so that the pixels are its pixels. Written from that
// arithmetic (constants, rounding, saturation and range limiting), not
// copied.

#include "magpie_jpeg_progressive.h"

#if MP_PROG_AVAILABLE

#include <emmintrin.h>
#include <string.h>

static const int8_t kept_1[8] = {0, -1, -1, -1, -1, -1, -1, -1};
static const int8_t kept_2[8] = {0, 1, -1, 2, -1, 3, -1, 4};
static const int8_t kept_4[8] = {0, 1, 2, 3, -1, 4, 5, 6};

const int8_t *mp_prog_kept_index(int size) { return size == 1 ? kept_1 : size == 2 ? kept_2 : kept_4; }

int mp_prog_kept_count(int size) { return size == 1 ? 1 : size == 2 ? 5 : 7; }

// The 1x1 "IDCT" is libjpeg's C code on every machine (jidctred.c's
// jpeg_idct_1x1): the block's mean, in 64-bit arithmetic, then libjpeg's
// post-IDCT range limit: the value wraps modulo 1024, then clamps to 0..255
// around the centre sample 128.
static uint8_t idct_1x1(int16_t coef, int16_t quant) {
  int64_t x = ((int64_t)coef * quant + 4) >> 3;
  int v = (int)(x & 1023);
  if (v >= 512) v -= 1024;
  v += 128;
  return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

// The 2x2 and 4x4 IDCTs are what libjpeg-turbo runs on x86-64: its SSE2
// versions (jidctred-sse2), whose arithmetic differs from jidctred.c's on
// extreme coefficients (which only corrupt or made-up data carry): each
// dequantised coefficient keeps its low 16 bits, products are summed in
// 32 bits and wrap, values between passes saturate to 16 bits, and output
// samples saturate to -128..127 before the centre is added (jidctred.c
// wraps them modulo 1024 first). Written here with the same operations
// (pmullw, pmaddwd, packssdw, packsswb) on this decoder's own layout.
static inline int32_t shl32(int32_t a, int n) { return (int32_t)((uint32_t)a << n); }
// Rounds off n bits, in 32 bits as the SIMD code does (the sum wraps).
static inline int32_t descale32(int32_t x, int n) { return (int32_t)((uint32_t)x + (1u << (n - 1))) >> n; }
// A pass-2 result to a sample: saturated to 16 and then 8 bits, centred.
static inline uint8_t sample(int32_t v) { return (uint8_t)((v < -128 ? -128 : v > 127 ? 127 : v) + 128); }

// Constant vectors of 16-bit pairs, for pmaddwd: (a, b) repeated.
static inline __m128i pair(int a, int b) { return _mm_set1_epi32((int)((uint32_t)(uint16_t)a | (uint32_t)b << 16)); }
// x * 2^n for eight 16-bit values, as two vectors of four 32-bit ones.
static inline __m128i widen_lo(__m128i x, int n) { return _mm_srai_epi32(_mm_unpacklo_epi16(_mm_setzero_si128(), x), 16 - n); }
static inline __m128i widen_hi(__m128i x, int n) { return _mm_srai_epi32(_mm_unpackhi_epi16(_mm_setzero_si128(), x), 16 - n); }
static inline __m128i round_shift(__m128i x, int n) { return _mm_srai_epi32(_mm_add_epi32(x, _mm_set1_epi32(1 << (n - 1))), n); }
static inline __m128i load8(const int16_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }

// Coefficients are 5 rows of 5 (2x2) or 7 of 7 (4x4); `quant` holds the
// matching quantisers in rows of eight, zero past each row's end, so that
// eight-lane loads that run into the next row dequantise it to zero.
static void idct_2x2(const int16_t *coef, const int16_t *quant, uint8_t *out, size_t stride) {
  __m128i d0 = _mm_mullo_epi16(load8(coef), load8(quant));
  __m128i d1 = _mm_mullo_epi16(load8(coef + 5), load8(quant + 8));
  __m128i d3 = _mm_mullo_epi16(load8(coef + 10), load8(quant + 16));
  __m128i d5 = _mm_mullo_epi16(load8(coef + 15), load8(quant + 24));
  __m128i d7 = _mm_mullo_epi16(load8(coef + 20), load8(quant + 32));
  // Pass 1, a lane a column (0, 1, 3, 5, 7): rows 0 and 1 of the result.
  __m128i k13 = pair(29692, -10426), k57 = pair(6967, -5906);
  __m128i odd_lo = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(d1, d3), k13),
                                 _mm_madd_epi16(_mm_unpacklo_epi16(d5, d7), k57));
  __m128i odd_hi = _mm_add_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(d1, d3), k13),
                                 _mm_madd_epi16(_mm_unpackhi_epi16(d5, d7), k57));
  __m128i even_lo = widen_lo(d0, 15), even_hi = widen_hi(d0, 15);
  __m128i a_lo = round_shift(_mm_add_epi32(even_lo, odd_lo), 13);
  __m128i a_hi = round_shift(_mm_add_epi32(even_hi, odd_hi), 13);
  __m128i b_lo = round_shift(_mm_sub_epi32(even_lo, odd_lo), 13);
  __m128i b_hi = round_shift(_mm_sub_epi32(even_hi, odd_hi), 13);
  // Pass 2 on both rows: the odd columns saturated to 16 bits, column 0 not.
  __m128i k = _mm_setr_epi16(0, 29692, -10426, 6967, -5906, 0, 0, 0);
  __m128i ha = _mm_madd_epi16(_mm_packs_epi32(a_lo, a_hi), k);
  __m128i hb = _mm_madd_epi16(_mm_packs_epi32(b_lo, b_hi), k);
  __m128i t = _mm_add_epi32(_mm_unpacklo_epi32(ha, hb), _mm_unpackhi_epi32(ha, hb));
  __m128i odd = _mm_add_epi32(t, _mm_srli_si128(t, 8));
  __m128i even = _mm_slli_epi32(_mm_unpacklo_epi32(a_lo, b_lo), 15);
  __m128i left = round_shift(_mm_add_epi32(even, odd), 20), right = round_shift(_mm_sub_epi32(even, odd), 20);
  __m128i v = _mm_packs_epi32(_mm_unpacklo_epi32(left, right), left);
  v = _mm_xor_si128(_mm_packs_epi16(v, v), _mm_set1_epi8((char)0x80));
  uint32_t both = (uint32_t)_mm_cvtsi128_si32(v);
  uint16_t row0 = (uint16_t)both, row1 = (uint16_t)(both >> 16);
  memcpy(out, &row0, 2);
  memcpy(out + stride, &row1, 2);
}

// One 4x4 pass, four lanes at once: from the eight inputs' pairs (x1, x3),
// (x5, x7) and (x2, x6) and x0 (times 2^14, in 32 bits), results 0-3.
static inline void pass_4x4(__m128i x0, __m128i p13, __m128i p57, __m128i p26, int n, __m128i r[4]) {
  __m128i t2 = _mm_madd_epi16(p26, pair(15137, -6270));
  __m128i t10 = _mm_add_epi32(x0, t2), t12 = _mm_sub_epi32(x0, t2);
  __m128i o2 = _mm_add_epi32(_mm_madd_epi16(p13, pair(20995, 7373)), _mm_madd_epi16(p57, pair(-4926, -4176)));
  __m128i o0 = _mm_add_epi32(_mm_madd_epi16(p13, pair(8697, -17799)), _mm_madd_epi16(p57, pair(11893, -1730)));
  r[0] = round_shift(_mm_add_epi32(t10, o2), n);
  r[3] = round_shift(_mm_sub_epi32(t10, o2), n);
  r[1] = round_shift(_mm_add_epi32(t12, o0), n);
  r[2] = round_shift(_mm_sub_epi32(t12, o0), n);
}

// `rows_zero`: every coefficient of rows 1-7 (all eight columns) is zero,
// when the SIMD code takes its shortcut.
static void idct_4x4(const int16_t *coef, const int16_t *quant, uint8_t *out, size_t stride, int rows_zero) {
  // Lanes: columns 0, 1, 2, 3, 5, 6, 7.
  __m128i d[7];
  for (int i = 0; i < 7; i++) d[i] = _mm_mullo_epi16(load8(coef + 7 * i), load8(quant + 8 * i));
  __m128i ws[4];
  if (rows_zero) {
    ws[0] = ws[1] = ws[2] = ws[3] = _mm_slli_epi16(d[0], 2);
  } else {
    // Rows 0-3, 5-7 are d[0]-d[3], d[4]-d[6].
    __m128i lo[4], hi[4];
    pass_4x4(widen_lo(d[0], 14), _mm_unpacklo_epi16(d[1], d[3]), _mm_unpacklo_epi16(d[4], d[6]),
             _mm_unpacklo_epi16(d[2], d[5]), 12, lo);
    pass_4x4(widen_hi(d[0], 14), _mm_unpackhi_epi16(d[1], d[3]), _mm_unpackhi_epi16(d[4], d[6]),
             _mm_unpackhi_epi16(d[2], d[5]), 12, hi);
    for (int r = 0; r < 4; r++) ws[r] = _mm_packs_epi32(lo[r], hi[r]);
  }
  // Transposed: u0 holds columns 0 and 1 (rows 0-3 each), u1 2 and 3, u2 5
  // and 6, u3 7.
  __m128i t0 = _mm_unpacklo_epi16(ws[0], ws[1]), t1 = _mm_unpacklo_epi16(ws[2], ws[3]);
  __m128i t2 = _mm_unpackhi_epi16(ws[0], ws[1]), t3 = _mm_unpackhi_epi16(ws[2], ws[3]);
  __m128i u0 = _mm_unpacklo_epi32(t0, t1), u1 = _mm_unpackhi_epi32(t0, t1);
  __m128i u2 = _mm_unpacklo_epi32(t2, t3), u3 = _mm_unpackhi_epi32(t2, t3);
  __m128i r[4];
  pass_4x4(widen_lo(u0, 14), _mm_unpackhi_epi16(u0, u1), _mm_unpacklo_epi16(u2, u3),
           _mm_unpacklo_epi16(u1, _mm_srli_si128(u2, 8)), 19, r);
  // Lanes are output rows; bytes come out a column at a time, then
  // transposed to rows.
  __m128i v = _mm_packs_epi16(_mm_packs_epi32(r[0], r[2]), _mm_packs_epi32(r[1], r[3]));
  v = _mm_unpacklo_epi8(v, _mm_srli_si128(v, 8));
  v = _mm_unpacklo_epi16(v, _mm_srli_si128(v, 8));
  v = _mm_xor_si128(v, _mm_set1_epi8((char)0x80));
  for (int i = 0; i < 4; i++) {
    uint32_t row = (uint32_t)_mm_cvtsi128_si32(v);
    memcpy(out + (size_t)i * stride, &row, 4);
    v = _mm_srli_si128(v, 4);
  }
}

void mp_prog_idct_quant(int size, const int16_t *quant, int16_t out[MP_PROG_IDCT_QUANT]) {
  const int8_t *index = mp_prog_kept_index(size);
  memset(out, 0, sizeof(int16_t) * MP_PROG_IDCT_QUANT);
  for (int r = 0; r < 8; r++) {
    for (int c = 0; c < 8; c++) {
      if (index[r] >= 0 && index[c] >= 0) out[index[r] * 8 + index[c]] = quant[r * 8 + c];
    }
  }
}

// Zigzag positions in row 0 of a block (natural positions 0-7).
static const uint64_t row_0 =
    1ull << 0 | 1ull << 1 | 1ull << 5 | 1ull << 6 | 1ull << 14 | 1ull << 15 | 1ull << 27 | 1ull << 28;

// The one sample of a block whose IDCT comes out flat: what each size's
// arithmetic makes of the DC alone.
static uint8_t flat_sample(int size, int16_t coef, int16_t quant) {
  int16_t dc = (int16_t)(coef * quant);
  switch (size) {
    case 1:
      return idct_1x1(coef, quant);
    case 2:
      return sample(descale32(shl32(descale32(dc * 32768, 13), 15), 20));
    default:
      return sample(descale32((int16_t)(dc * 4) * 16384, 19));
  }
}

void mp_prog_idct(int size, const int16_t *coef, const int16_t *quant, uint8_t *out, size_t stride, uint64_t nonzero,
                  uint64_t kept) {
  // Flat when no coefficient the IDCT reads is nonzero; for the 4x4, only
  // when the SIMD code's shortcut (rows 1-7 all zero) applies as well.
  uint64_t matters = size == 4 ? kept | ~row_0 : kept;
  if (size == 1 || (nonzero & matters & ~1ull) == 0) {
    uint8_t v = flat_sample(size, coef[0], quant[0]);
    for (int r = 0; r < size; r++) memset(out + (size_t)r * stride, v, (size_t)size);
    return;
  }
  if (size == 2) {
    idct_2x2(coef, quant, out, stride);
  } else {
    idct_4x4(coef, quant, out, stride, (nonzero & ~row_0) == 0);
  }
}

void mp_prog_double_fancy(const uint8_t *in, uint32_t width, uint8_t *out) {
  // Each output sample is 3/4 of its nearer input and 1/4 of the farther,
  // rounding alternately down and up; the ends repeat the edge sample.
  out[0] = in[0];
  out[1] = (uint8_t)((in[0] * 3 + in[1] + 2) >> 2);
  for (uint32_t i = 1; i + 1 < width; i++) {
    int near = in[i] * 3;
    out[2 * i] = (uint8_t)((near + in[i - 1] + 1) >> 2);
    out[2 * i + 1] = (uint8_t)((near + in[i + 1] + 2) >> 2);
  }
  out[2 * width - 2] = (uint8_t)((in[width - 1] * 3 + in[width - 2] + 1) >> 2);
  out[2 * width - 1] = in[width - 1];
}

void mp_prog_double_plain(const uint8_t *in, uint32_t width, uint8_t *out) {
  for (uint32_t i = 0; i < width; i++) out[2 * i] = out[2 * i + 1] = in[i];
}

static inline uint8_t clamp255(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

void mp_prog_ycc_to_rgba(const uint8_t *y, const uint8_t *cb, const uint8_t *cr, uint8_t *out, uint32_t width) {
  // jdcolor.c's tables, computed inline: 16 fractional bits, rounded to
  // nearest (for green, once over the sum of both terms).
  enum { HALF = 1 << 15 };
  for (uint32_t i = 0; i < width; i++) {
    int l = y[i], b = cb[i] - 128, r = cr[i] - 128;
    out[4 * i + 0] = clamp255(l + ((91881 * r + HALF) >> 16));
    out[4 * i + 1] = clamp255(l + ((-22554 * b + HALF - 46802 * r) >> 16));
    out[4 * i + 2] = clamp255(l + ((116130 * b + HALF) >> 16));
    out[4 * i + 3] = 255;
  }
}

#endif
