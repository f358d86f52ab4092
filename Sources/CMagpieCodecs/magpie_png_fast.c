#include "magpie_png_fast.h"
#include "magpie_pixels.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MP_LITTLE_ENDIAN 1
#else
#define MP_LITTLE_ENDIAN 0
#endif

enum {
  // The most bytes one byte of deflate data can inflate to: a 258-byte match
  // coded in two bits. A stream shorter than its image's rows / this cannot
  // fill them, so its rows are never allocated.
  MP_DEFLATE_MAX_RATIO = 1032,
  // IDAT chunk type, "IDAT" big-endian.
  MP_CHUNK_IDAT = 0x49444154,
};

static unsigned mp_bytes_per_pixel(int32_t color_type) {
  switch (color_type) {
    case 0:
    case 3:
      return 1;
    case 2:
      return 3;
    case 4:
      return 2;
    case 6:
      return 4;
    default:
      return 0;
  }
}

static uint32_t mp_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

// ---------------------------------------------------------------------------
// Unfiltering. Each function reads the `count` filtered bytes at `in` and
// writes the unfiltered bytes to `out`, which is either `in` itself or a
// separate row; `prior` is the unfiltered row above (zeros for the first
// row). Nothing outside those rows is read or written: three-byte pixels are
// loaded four bytes at a time only where a fourth byte of the row follows.

uint8_t mp_png_paeth(int a, int b, int c) {
  // p = a + b - c; the neighbour nearest p wins, ties to a, then b.
  const int p = b - c;
  const int q = a - c;
  const int pa = p < 0 ? -p : p;
  const int pb = q < 0 ? -q : q;
  const int pc = p + q < 0 ? -(p + q) : p + q;
  return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Sub from byte `start` on; the bytes before it are already done.
static void mp_unfilter_sub_scalar(uint8_t *out, const uint8_t *in, size_t start, size_t count, unsigned bpp) {
  size_t i = start;
  for (; i < bpp && i < count; i++) out[i] = in[i];
  for (; i < count; i++) out[i] = (uint8_t)(in[i] + out[i - bpp]);
}

static void mp_unfilter_avg_scalar(
    uint8_t *out, const uint8_t *in, const uint8_t *restrict prior, size_t count, unsigned bpp) {
  size_t i = 0;
  if (bpp == 1) {
    // The left byte stays in a register: no store-to-load wait per byte.
    unsigned a = 0;
    for (; i < count; i++) out[i] = (uint8_t)(a = (in[i] + ((a + prior[i]) >> 1)) & 0xFF);
    return;
  }
  for (; i < bpp && i < count; i++) out[i] = (uint8_t)(in[i] + (prior[i] >> 1));
  for (; i < count; i++) out[i] = (uint8_t)(in[i] + ((out[i - bpp] + prior[i]) >> 1));
}

static void mp_unfilter_paeth_scalar(
    uint8_t *out, const uint8_t *in, const uint8_t *restrict prior, size_t count, unsigned bpp) {
  size_t i = 0;
  if (bpp == 1) {
    int a = 0;
    int c = 0;
    for (; i < count; i++) {
      const int b = prior[i];
      a = (in[i] + mp_png_paeth(a, b, c)) & 0xFF;
      out[i] = (uint8_t)a;
      c = b;
    }
    return;
  }
  // With no left neighbour a = c = 0 and Paeth predicts b.
  for (; i < bpp && i < count; i++) out[i] = (uint8_t)(in[i] + prior[i]);
  for (; i < count; i++) out[i] = (uint8_t)(in[i] + mp_png_paeth(out[i - bpp], prior[i], prior[i - bpp]));
}

static void mp_unfilter_up(uint8_t *out, const uint8_t *in, const uint8_t *restrict prior, size_t count) {
  size_t i = 0;
#ifdef __SSE2__
  for (; i + 16 <= count; i += 16) {
    const __m128i x = _mm_loadu_si128((const __m128i *)(in + i));
    const __m128i b = _mm_loadu_si128((const __m128i *)(prior + i));
    _mm_storeu_si128((__m128i *)(out + i), _mm_add_epi8(x, b));
  }
#endif
  for (; i < count; i++) out[i] = (uint8_t)(in[i] + prior[i]);
}

#ifdef __SSE2__

// Sub is a running sum per channel: each 16-byte block takes the previous
// block's last pixel into its first, then sums in log steps (pixel k gains
// pixel k - 1, then k - 2 and k - 3, ...). Three-byte pixels go 12 bytes
// (four pixels) at a time. Each block is loaded before anything at or past
// it is stored, so `out` may be `in`.
static void mp_unfilter_sub(uint8_t *out, const uint8_t *in, size_t count, unsigned bpp) {
  __m128i last = _mm_setzero_si128();
  size_t i = 0;
  switch (bpp) {
    case 1:
      for (; i + 16 <= count; i += 16) {
        __m128i v = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + i)), last);
        v = _mm_add_epi8(v, _mm_slli_si128(v, 1));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 2));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 4));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 8));
        _mm_storeu_si128((__m128i *)(out + i), v);
        last = _mm_srli_si128(v, 15);
      }
      break;
    case 2:
      for (; i + 16 <= count; i += 16) {
        __m128i v = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + i)), last);
        v = _mm_add_epi8(v, _mm_slli_si128(v, 2));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 4));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 8));
        _mm_storeu_si128((__m128i *)(out + i), v);
        last = _mm_srli_si128(v, 14);
      }
      break;
    case 3:
      // Loads 16 bytes, keeps 12: the 4 bytes past them belong to the row.
      for (; i + 16 <= count; i += 12) {
        __m128i v = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + i)), last);
        v = _mm_add_epi8(v, _mm_slli_si128(v, 3));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 6));
        _mm_storel_epi64((__m128i *)(out + i), v);
        const uint32_t tail = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(v, 8));
        memcpy(out + i + 8, &tail, 4);
        // Bytes 9-11 (pixel 3) to 0-2, zeros above.
        last = _mm_srli_si128(_mm_slli_si128(v, 4), 13);
      }
      break;
    default:
      for (; i + 16 <= count; i += 16) {
        __m128i v = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + i)), last);
        v = _mm_add_epi8(v, _mm_slli_si128(v, 4));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 8));
        _mm_storeu_si128((__m128i *)(out + i), v);
        last = _mm_srli_si128(v, 12);
      }
      break;
  }
  mp_unfilter_sub_scalar(out, in, i, count, bpp);
}

// The callers pass a constant bpp (see MP_ALWAYS_INLINE) so that these
// copies compile to plain moves.
#define MP_ALWAYS_INLINE inline __attribute__((always_inline))

// One pixel of 2, 3 or 4 bytes in the low lanes. `whole` says a 4-byte load
// stays inside the row (a three-byte pixel that is not the last); the extra
// byte only ever reaches a lane that is not stored.
static MP_ALWAYS_INLINE __m128i mp_load_pixel(const uint8_t *p, unsigned bpp, int whole) {
  uint32_t v;
  if (bpp == 2) {
    uint16_t two;
    memcpy(&two, p, 2);
    v = two;
  } else if (bpp == 4 || whole) {
    memcpy(&v, p, 4);
  } else {
    v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
  }
  return _mm_cvtsi32_si128((int)v);
}

static MP_ALWAYS_INLINE void mp_store_pixel(uint8_t *p, __m128i v, unsigned bpp) {
  const uint32_t bytes = (uint32_t)_mm_cvtsi128_si32(v);
  if (bpp == 4) {
    memcpy(p, &bytes, 4);
  } else if (bpp == 3) {
    memcpy(p, &bytes, 3);
  } else {
    memcpy(p, &bytes, 2);
  }
}

// Average: x + floor((a + b) / 2), pixel by pixel since a is the pixel just
// decoded. pavgb rounds up; the low bit of a ^ b is what it added.
static MP_ALWAYS_INLINE __m128i mp_avg_pixel(__m128i a, __m128i b, __m128i x) {
  const __m128i up = _mm_avg_epu8(a, b);
  const __m128i odd = _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1));
  return _mm_add_epi8(x, _mm_sub_epi8(up, odd));
}

static MP_ALWAYS_INLINE void mp_unfilter_avg_wide(
    uint8_t *out, const uint8_t *in, const uint8_t *restrict prior, size_t count, unsigned bpp) {
  const size_t pixels = count / bpp;
  __m128i a = _mm_setzero_si128();
  for (size_t k = 0; k < pixels; k++) {
    // A pixel's next byte is loaded before this pixel is stored.
    const int whole = k + 1 < pixels;
    a = mp_avg_pixel(a, mp_load_pixel(prior + k * bpp, bpp, whole), mp_load_pixel(in + k * bpp, bpp, whole));
    mp_store_pixel(out + k * bpp, a, bpp);
  }
}

static MP_ALWAYS_INLINE __m128i mp_abs16(__m128i v) {
  return _mm_max_epi16(v, _mm_sub_epi16(_mm_setzero_si128(), v));
}

static MP_ALWAYS_INLINE __m128i mp_select(__m128i mask, __m128i when_set, __m128i otherwise) {
  return _mm_or_si128(_mm_and_si128(mask, when_set), _mm_andnot_si128(mask, otherwise));
}

// Paeth on one pixel in 16-bit lanes. pa = |b - c| does not depend on a, so
// only q = a - c and what follows sit on the pixel-to-pixel chain.
static MP_ALWAYS_INLINE __m128i mp_paeth_pixel(__m128i a, __m128i b, __m128i c, __m128i x) {
  const __m128i p = _mm_sub_epi16(b, c);
  const __m128i q = _mm_sub_epi16(a, c);
  const __m128i pa = mp_abs16(p);
  const __m128i pb = mp_abs16(q);
  const __m128i pc = mp_abs16(_mm_add_epi16(p, q));
  const __m128i not_a = _mm_cmpgt_epi16(pa, _mm_min_epi16(pb, pc));
  const __m128i not_b = _mm_cmpgt_epi16(pb, pc);
  const __m128i predicted = mp_select(not_a, mp_select(not_b, c, b), a);
  // Byte-wise add: the high bytes are 0 + 0, the low ones wrap mod 256.
  return _mm_add_epi8(x, predicted);
}

static MP_ALWAYS_INLINE void mp_unfilter_paeth_wide(
    uint8_t *out, const uint8_t *in, const uint8_t *restrict prior, size_t count, unsigned bpp) {
  const __m128i zero = _mm_setzero_si128();
  const size_t pixels = count / bpp;
  __m128i a = zero;
  __m128i c = zero;
  for (size_t k = 0; k < pixels; k++) {
    const int whole = k + 1 < pixels;
    const __m128i b = _mm_unpacklo_epi8(mp_load_pixel(prior + k * bpp, bpp, whole), zero);
    const __m128i x = _mm_unpacklo_epi8(mp_load_pixel(in + k * bpp, bpp, whole), zero);
    a = mp_paeth_pixel(a, b, c, x);
    mp_store_pixel(out + k * bpp, _mm_packus_epi16(a, a), bpp);
    c = b;
  }
}

#endif  // __SSE2__

// Returns 0 for a filter type PNG does not define.
static int mp_unfilter(
    uint8_t *out, const uint8_t *in, const uint8_t *restrict prior, size_t count, unsigned bpp, unsigned filter) {
  switch (filter) {
    case 0:
      if (out != in) memcpy(out, in, count);
      return 1;
    case 1:
#ifdef __SSE2__
      mp_unfilter_sub(out, in, count, bpp);
#else
      mp_unfilter_sub_scalar(out, in, 0, count, bpp);
#endif
      return 1;
    case 2:
      mp_unfilter_up(out, in, prior, count);
      return 1;
    case 3:
#ifdef __SSE2__
      // Constant pixel sizes, so each call compiles to its own loop.
      if (bpp == 3) {
        mp_unfilter_avg_wide(out, in, prior, count, 3);
        return 1;
      }
      if (bpp == 4) {
        mp_unfilter_avg_wide(out, in, prior, count, 4);
        return 1;
      }
      if (bpp == 2) {
        mp_unfilter_avg_wide(out, in, prior, count, 2);
        return 1;
      }
#endif
      mp_unfilter_avg_scalar(out, in, prior, count, bpp);
      return 1;
    case 4:
#ifdef __SSE2__
      if (bpp == 3) {
        mp_unfilter_paeth_wide(out, in, prior, count, 3);
        return 1;
      }
      if (bpp == 4) {
        mp_unfilter_paeth_wide(out, in, prior, count, 4);
        return 1;
      }
      if (bpp == 2) {
        mp_unfilter_paeth_wide(out, in, prior, count, 2);
        return 1;
      }
#endif
      mp_unfilter_paeth_scalar(out, in, prior, count, bpp);
      return 1;
    default:
      return 0;
  }
}

int mp_png_fast_unfilter_row(uint8_t *row, const uint8_t *prior, size_t count, unsigned bpp, unsigned filter) {
  if (row == NULL || prior == NULL || bpp < 1 || bpp > 4 || filter > 4) return 0;
  return mp_unfilter(row, row, prior, count, bpp, filter);
}

// ---------------------------------------------------------------------------
// Conversion of one unfiltered row to RGBA8, premultiplied or straight. Each
// returns the AND of the alpha bytes it wrote. Premultiplying rounds as the
// libpng path and PixelBuffer do: t = c * a + 128, (t + (t >> 8)) >> 8.

static inline uint32_t mp_premultiply(uint32_t c, uint32_t a) {
  const uint32_t t = c * a + 128;
  return (t + (t >> 8)) >> 8;
}

static uint32_t mp_convert_gray(const uint8_t *restrict src, uint8_t *restrict dst, size_t width) {
  for (size_t i = 0; i < width; i++) {
#if MP_LITTLE_ENDIAN
    const uint32_t v = src[i] * 0x010101u | 0xFF000000u;
    memcpy(dst + 4 * i, &v, 4);
#else
    dst[4 * i] = dst[4 * i + 1] = dst[4 * i + 2] = src[i];
    dst[4 * i + 3] = 0xFF;
#endif
  }
  return 0xFF;
}

static uint32_t mp_convert_rgb(const uint8_t *restrict src, uint8_t *restrict dst, size_t width) {
  size_t i = 0;
#if MP_LITTLE_ENDIAN
  // Four-byte loads, the fourth byte (the next pixel's red) replaced by 255.
  for (; i + 1 < width; i++) {
    uint32_t v;
    memcpy(&v, src + 3 * i, 4);
    v |= 0xFF000000u;
    memcpy(dst + 4 * i, &v, 4);
  }
#endif
  for (; i < width; i++) {
    dst[4 * i] = src[3 * i];
    dst[4 * i + 1] = src[3 * i + 1];
    dst[4 * i + 2] = src[3 * i + 2];
    dst[4 * i + 3] = 0xFF;
  }
  return 0xFF;
}

static uint32_t mp_convert_palette(
    const uint8_t *restrict src, uint8_t *restrict dst, size_t width, const uint8_t (*palette)[4]) {
  uint32_t alpha = 0xFF;
  for (size_t i = 0; i < width; i++) {
    const uint8_t *entry = palette[src[i]];
    memcpy(dst + 4 * i, entry, 4);
    alpha &= entry[3];
  }
  return alpha;
}

static uint32_t mp_convert_gray_alpha(const uint8_t *restrict src, uint8_t *restrict dst, size_t width) {
  uint32_t alpha = 0xFF;
  for (size_t i = 0; i < width; i++) {
    const uint32_t a = src[2 * i + 1];
    const uint8_t v = (uint8_t)mp_premultiply(src[2 * i], a);
    alpha &= a;
    dst[4 * i] = dst[4 * i + 1] = dst[4 * i + 2] = v;
    dst[4 * i + 3] = (uint8_t)a;
  }
  return alpha;
}

static uint32_t mp_convert_gray_alpha_straight(const uint8_t *restrict src, uint8_t *restrict dst, size_t width) {
  uint32_t alpha = 0xFF;
  for (size_t i = 0; i < width; i++) {
    const uint32_t v = src[2 * i];
    const uint32_t a = src[2 * i + 1];
    alpha &= a;
#if MP_LITTLE_ENDIAN
    const uint32_t px = v * 0x010101u | a << 24;
    memcpy(dst + 4 * i, &px, 4);
#else
    dst[4 * i] = dst[4 * i + 1] = dst[4 * i + 2] = (uint8_t)v;
    dst[4 * i + 3] = (uint8_t)a;
#endif
  }
  return alpha;
}

// Straight RGBA is the stored row itself: a copy that ANDs the alpha bytes
// on the way.
static uint32_t mp_convert_rgba_straight(const uint8_t *restrict src, uint8_t *restrict dst, size_t width) {
  size_t i = 0;
  uint32_t alpha = 0xFF;
#ifdef __SSE2__
  __m128i all = _mm_set1_epi8(-1);
  for (; i + 4 <= width; i += 4) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(src + 4 * i));
    all = _mm_and_si128(all, v);
    _mm_storeu_si128((__m128i *)(dst + 4 * i), v);
  }
  uint8_t lanes[16];
  _mm_storeu_si128((__m128i *)lanes, all);
  alpha = (uint32_t)(lanes[3] & lanes[7] & lanes[11] & lanes[15]);
#endif
  for (; i < width; i++) {
    memcpy(dst + 4 * i, src + 4 * i, 4);
    alpha &= src[4 * i + 3];
  }
  return alpha;
}

// Premultiplied RGBA: the shared SSE2 conversion (magpie_pixels.c).
static uint32_t mp_convert_rgba(const uint8_t *restrict src, uint8_t *restrict dst, size_t width) {
  return mp_premultiply_copy(src, 0, dst, 0, width, 1);
}

static uint32_t mp_convert_row(
    const uint8_t *restrict src, uint8_t *restrict dst, size_t width, const mp_png_fast_image *image) {
  switch (image->color_type) {
    case 0:
      return mp_convert_gray(src, dst, width);
    case 2:
      return mp_convert_rgb(src, dst, width);
    case 3:
      return mp_convert_palette(src, dst, width, image->palette);
    case 4:
      return image->premultiply ? mp_convert_gray_alpha(src, dst, width)
                                : mp_convert_gray_alpha_straight(src, dst, width);
    default:
      return image->premultiply ? mp_convert_rgba(src, dst, width) : mp_convert_rgba_straight(src, dst, width);
  }
}

// ---------------------------------------------------------------------------

// The IDAT run that starts at `offset`: every chunk whole and its CRC right,
// its payloads concatenated in `*stream` (a pointer into `data` when there is
// one chunk, else `*owned`, which the caller frees). Returns the stream's
// length, 0 to decline.
static size_t mp_gather_idat(
    const uint8_t *data, size_t size, size_t offset, const uint8_t **stream, uint8_t **owned) {
  // First pass: chunk headers only, to size the stream and bound it.
  size_t total = 0;
  size_t chunks = 0;
  size_t end = offset;
  while (size - end >= 8 && mp_be32(data + end + 4) == MP_CHUNK_IDAT) {
    const size_t length = mp_be32(data + end);
    // A cut-off chunk is libpng's to report (or to not need).
    if (length > 0x7FFFFFFFu || size - end < 12 || size - end - 12 < length) return 0;
    total += length;
    chunks++;
    end += 12 + length;
  }
  if (chunks == 0 || total < 2) return 0;
  if (chunks > 1) {
    *owned = malloc(total);
    if (*owned == NULL) return 0;
  }
  size_t filled = 0;
  for (size_t at = offset; at < end;) {
    const size_t length = mp_be32(data + at);
    const uint8_t *body = data + at + 8;
    if (libdeflate_crc32(0, data + at + 4, length + 4) != mp_be32(body + length)) return 0;
    if (chunks == 1) {
      *stream = body;
    } else {
      memcpy(*owned + filled, body, length);
    }
    filled += length;
    at += 12 + length;
  }
  if (chunks > 1) *stream = *owned;
  return total;
}

size_t mp_png_fast_capacity(uint32_t width, uint32_t height, int32_t color_type) {
  const size_t bpp = mp_bytes_per_pixel(color_type);
  if (bpp == 0 || width == 0 || height == 0 || width > SIZE_MAX / 4 / bpp) return 0;
  const size_t row = bpp == 4 ? (size_t)width * 4 + 1 : (size_t)width * 4;
  return height > SIZE_MAX / row ? 0 : row * height;
}

mp_png_fast_result mp_png_fast_decode(
    const uint8_t *data, size_t size, size_t idat_offset, const mp_png_fast_image *image, uint8_t *pixels,
    size_t capacity, size_t stride, int *all_opaque) {
  if (data == NULL || image == NULL || pixels == NULL || all_opaque == NULL || idat_offset > size) {
    return MP_PNG_FAST_DECLINED;
  }
  const unsigned bpp = mp_bytes_per_pixel(image->color_type);
  const size_t width = image->width;
  const size_t height = image->height;
  const size_t in_place = mp_png_fast_capacity(image->width, image->height, image->color_type);
  if (bpp == 0 || in_place == 0 || stride < width * 4 || (height - 1) > (SIZE_MAX - width * 4) / stride ||
      capacity < stride * (height - 1) + width * 4) {
    return MP_PNG_FAST_DECLINED;
  }
  const size_t rowbytes = width * bpp;
  const size_t filtered_size = (rowbytes + 1) * height;

  const uint8_t *stream = NULL;
  uint8_t *owned_stream = NULL;
  uint8_t *owned_rows = NULL;
  uint8_t *scratch = NULL;
  struct libdeflate_decompressor *inflater = NULL;
  mp_png_fast_result result = MP_PNG_FAST_DECLINED;

  const size_t stream_size = mp_gather_idat(data, size, idat_offset, &stream, &owned_stream);
  if (stream_size == 0) goto done;
  // zlib header: deflate, a window of at most 32 KiB, no preset dictionary,
  // check bits right. zlib (and so libpng) honours a smaller window and fails
  // a match reaching past it; libdeflate always allows 32 KiB, so a smaller
  // window is taken only when the data fits in it.
  const unsigned cmf = stream[0];
  const unsigned flg = stream[1];
  if ((cmf & 0x0F) != 8 || (cmf >> 4) > 7 || (cmf << 8 | flg) % 31 != 0 || (flg & 0x20) != 0) goto done;
  if ((cmf >> 4) < 7 && filtered_size > ((size_t)1 << ((cmf >> 4) + 8))) goto done;
  // A stream too short to fill the rows is libpng's to report.
  if (filtered_size / MP_DEFLATE_MAX_RATIO > stream_size) goto done;

  // The filtered rows go at the end of the pixel buffer when it has room
  // (mp_png_fast_capacity bytes, rows packed): pixel row y then always ends
  // before filtered row y + 1 starts, so converting row by row never
  // overwrites rows still to read. Otherwise they get their own buffer.
  uint8_t *filtered;
  if (stride == width * 4 && capacity >= in_place) {
    filtered = pixels + (in_place - filtered_size);
  } else {
    owned_rows = malloc(filtered_size);
    filtered = owned_rows;
  }
  // Unfiltered rows alternate between two scratch rows after a zero row.
  scratch = calloc(3, rowbytes);
  inflater = libdeflate_alloc_decompressor();
  if (filtered == NULL || scratch == NULL || inflater == NULL) goto done;
  // Raw deflate after the 2-byte header: the Adler-32 after it is not read,
  // as libpng is told to ignore it.
  size_t inflated = 0;
  const enum libdeflate_result status =
      libdeflate_deflate_decompress_ex(inflater, stream + 2, stream_size - 2, filtered, filtered_size, NULL, &inflated);
  if (status != LIBDEFLATE_SUCCESS || inflated != filtered_size) goto done;

  uint32_t alpha = 0xFF;
  const uint8_t *prior = scratch;
  for (size_t y = 0; y < height; y++) {
    const uint8_t *row = filtered + y * (rowbytes + 1);
    uint8_t *unfiltered = scratch + (1 + (y & 1)) * rowbytes;
    if (!mp_unfilter(unfiltered, row + 1, prior, rowbytes, bpp, row[0])) goto done;
    alpha &= mp_convert_row(unfiltered, pixels + y * stride, width, image);
    prior = unfiltered;
  }
  *all_opaque = alpha == 0xFF;
  result = MP_PNG_FAST_DONE;

done:
  libdeflate_free_decompressor(inflater);
  free(scratch);
  free(owned_rows);
  free(owned_stream);
  return result;
}
