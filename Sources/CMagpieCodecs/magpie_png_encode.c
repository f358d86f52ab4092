#include "magpie_png.h"
#include "magpie_png_fast.h"

#include <libdeflate.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

// The whole-buffer PNG writer: every row filtered into one buffer, deflated
// by libdeflate in one call, and wrapped in IHDR, IDAT and IEND by hand.
// With the filter choice in SSE2 below, a 256x256 RGBA thumbnail at level 1
// takes a third of libpng and zlib's time and comes out 5 % smaller; the
// price is holding the filtered image, so mp_png_encode_rgba only comes
// here below MP_PNG_WHOLE_LIMIT and streams through libpng above.

enum {
  // Filtered bytes (rows plus their filter bytes) up to which the whole
  // image is buffered: 64 MiB, about a 4096x4096 RGBA image. Its deflated
  // form always fits one IDAT chunk (at most 2^31 - 1 bytes).
  MP_PNG_WHOLE_LIMIT = 64 << 20,
};

int mp_png_encodes_whole(uint32_t width, uint32_t height, int drop_alpha) {
  const size_t row = (size_t)width * (drop_alpha ? 3 : 4) + 1;
  return height > 0 && row <= MP_PNG_WHOLE_LIMIT / height;
}

static void mp_put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

// Writes one chunk (length, type, data, CRC over type and data) at `out`;
// returns the bytes written. `data` may already sit at out + 8.
static size_t mp_put_chunk(uint8_t *out, const char type[4], const uint8_t *data, size_t length) {
  mp_put_be32(out, (uint32_t)length);
  memcpy(out + 4, type, 4);
  if (data != out + 8 && length > 0) memmove(out + 8, data, length);
  mp_put_be32(out + 8 + length, libdeflate_crc32(0, out + 4, length + 4));
  return length + 12;
}

// A filtered byte's weight in the spec's heuristic: its distance from zero
// read as a signed byte.
static unsigned mp_weight(uint8_t v) { return v < 128 ? v : 256u - v; }

// Filters `row` (`count` bytes, `bpp` a pixel) against `prior` (zeros for
// the first row) with each of the five filters, keeps the one whose bytes
// sum smallest as signed values (the PNG specification's recommended
// heuristic, which libpng's default uses too), and writes its type byte and
// bytes to `out`. Both rows are preceded by `bpp` zero bytes, the left
// neighbours of their first pixel; `scratch` holds 4 * count bytes.
static void mp_filter_row(const uint8_t *row, const uint8_t *prior, size_t count, unsigned bpp, uint8_t *scratch,
                          uint8_t *out) {
  uint8_t *sub = scratch, *up = scratch + count, *average = scratch + 2 * count, *paeth = scratch + 3 * count;
  uint64_t sums[5] = {0, 0, 0, 0, 0};
  size_t i = 0;
#ifdef __SSE2__
  // Sixteen bytes at a time: every filter reads only the unfiltered rows,
  // so the lanes are independent. Paeth's arithmetic runs on 16-bit lanes.
  const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
  __m128i total[5] = {zero, zero, zero, zero, zero};
  for (; i + 16 <= count; i += 16) {
    const __m128i x = _mm_loadu_si128((const __m128i *)(row + i));
    const __m128i a = _mm_loadu_si128((const __m128i *)(row + i - bpp));
    const __m128i b = _mm_loadu_si128((const __m128i *)(prior + i));
    const __m128i c = _mm_loadu_si128((const __m128i *)(prior + i - bpp));
    const __m128i mean = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
    __m128i predicted[2];
    for (int half = 0; half < 2; half++) {
      const __m128i a16 = half ? _mm_unpackhi_epi8(a, zero) : _mm_unpacklo_epi8(a, zero);
      const __m128i b16 = half ? _mm_unpackhi_epi8(b, zero) : _mm_unpacklo_epi8(b, zero);
      const __m128i c16 = half ? _mm_unpackhi_epi8(c, zero) : _mm_unpacklo_epi8(c, zero);
      const __m128i p = _mm_sub_epi16(b16, c16), q = _mm_sub_epi16(a16, c16), r = _mm_add_epi16(p, q);
      const __m128i pa = _mm_max_epi16(p, _mm_sub_epi16(zero, p));
      const __m128i pb = _mm_max_epi16(q, _mm_sub_epi16(zero, q));
      const __m128i pc = _mm_max_epi16(r, _mm_sub_epi16(zero, r));
      // a where pa <= pb and pa <= pc; else b where pb <= pc; else c.
      const __m128i take_a = _mm_andnot_si128(_mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc)),
                                              _mm_set1_epi16(-1));
      const __m128i take_b = _mm_andnot_si128(_mm_cmpgt_epi16(pb, pc), _mm_set1_epi16(-1));
      const __m128i b_or_c = _mm_or_si128(_mm_and_si128(take_b, b16), _mm_andnot_si128(take_b, c16));
      predicted[half] = _mm_or_si128(_mm_and_si128(take_a, a16), _mm_andnot_si128(take_a, b_or_c));
    }
    const __m128i filtered[5] = {x, _mm_sub_epi8(x, a), _mm_sub_epi8(x, b), _mm_sub_epi8(x, mean),
                                 _mm_sub_epi8(x, _mm_packus_epi16(predicted[0], predicted[1]))};
    for (int f = 0; f < 5; f++) {
      if (f > 0) _mm_storeu_si128((__m128i *)(scratch + (size_t)(f - 1) * count + i), filtered[f]);
      // |v| as a signed byte is min(v, 256 - v) as an unsigned one.
      const __m128i weight = _mm_min_epu8(filtered[f], _mm_sub_epi8(zero, filtered[f]));
      total[f] = _mm_add_epi64(total[f], _mm_sad_epu8(weight, zero));
    }
  }
  for (int f = 0; f < 5; f++) {
    sums[f] = (uint64_t)_mm_cvtsi128_si64(total[f]) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(total[f], total[f]));
  }
#endif
  for (; i < count; i++) {
    const ptrdiff_t left = (ptrdiff_t)i - (ptrdiff_t)bpp;
    const int x = row[i], a = row[left], b = prior[i], c = prior[left];
    sub[i] = (uint8_t)(x - a);
    up[i] = (uint8_t)(x - b);
    average[i] = (uint8_t)(x - ((a + b) >> 1));
    paeth[i] = (uint8_t)(x - mp_png_paeth(a, b, c));
    sums[0] += mp_weight((uint8_t)x);
    sums[1] += mp_weight(sub[i]);
    sums[2] += mp_weight(up[i]);
    sums[3] += mp_weight(average[i]);
    sums[4] += mp_weight(paeth[i]);
  }
  unsigned best = 0;
  for (unsigned f = 1; f < 5; f++) {
    if (sums[f] < sums[best]) best = f;
  }
  out[0] = (uint8_t)best;
  memcpy(out + 1, best == 0 ? row : scratch + (size_t)(best - 1) * count, count);
}

mp_png_status mp_png_encode_whole(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                                  int drop_alpha, int level, uint8_t **out, size_t *out_size) {
  if (pixels == NULL || out == NULL || out_size == NULL || width == 0 || height == 0 || width > 0x7FFFFFFF ||
      height > 0x7FFFFFFF || stride < (size_t)width * 4 || level < 0 || level > 9) {
    return MP_PNG_INVALID_ARGUMENT;
  }
  *out = NULL;
  *out_size = 0;
  const unsigned bpp = drop_alpha ? 3 : 4;
  if (!mp_png_encodes_whole(width, height, drop_alpha)) return MP_PNG_INVALID_ARGUMENT;
  const size_t count = (size_t)width * bpp;
  const size_t filtered_size = (count + 1) * height;
  // The current and prior rows of packed pixels, each after bpp zero bytes
  // (its first pixel's left neighbour), then the four filters' rows.
  const size_t lane = count + bpp;
  uint8_t *work = calloc(1, 2 * lane + 4 * count);
  uint8_t *filtered = malloc(filtered_size);
  struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
  uint8_t *png = NULL;
  mp_png_status status = MP_PNG_OUT_OF_MEMORY;
  if (work == NULL || filtered == NULL || compressor == NULL) goto done;
  uint8_t *current = work + bpp, *prior = work + lane + bpp;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *source = pixels + (size_t)y * stride;
    if (drop_alpha) {
      for (uint32_t x = 0; x < width; x++) memcpy(current + (size_t)x * 3, source + (size_t)x * 4, 3);
    } else {
      memcpy(current, source, count);
    }
    mp_filter_row(current, prior, count, bpp, work + 2 * lane, filtered + (size_t)y * (count + 1));
    uint8_t *swap = prior;
    prior = current;
    current = swap;
  }
  const size_t bound = libdeflate_zlib_compress_bound(compressor, filtered_size);
  // Signature, IHDR (25), IDAT's framing (12), IEND (12).
  png = malloc(8 + 25 + 12 + bound + 12);
  if (png == NULL) goto done;
  // Deflated straight into the IDAT chunk's data.
  const size_t deflated = libdeflate_zlib_compress(compressor, filtered, filtered_size, png + 8 + 25 + 8, bound);
  if (deflated == 0) goto done;
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  memcpy(png, signature, 8);
  uint8_t header[13];
  mp_put_be32(header, width);
  mp_put_be32(header + 4, height);
  header[8] = 8;
  header[9] = drop_alpha ? 2 : 6;
  header[10] = header[11] = header[12] = 0;
  size_t at = 8 + mp_put_chunk(png + 8, "IHDR", header, 13);
  at += mp_put_chunk(png + at, "IDAT", png + at + 8, deflated);
  at += mp_put_chunk(png + at, "IEND", NULL, 0);
  *out = png;
  *out_size = at;
  png = NULL;
  status = MP_PNG_OK;
done:
  free(png);
  libdeflate_free_compressor(compressor);
  free(filtered);
  free(work);
  return status;
}

