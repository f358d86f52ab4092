#include "magpie_color.h"

#include <lcms2_plugin.h>
#include <libdeflate.h>
#include <stdlib.h>

// round(c * a / 255) and its inverse, as PixelBuffer rounds.
static inline uint8_t mp_mul255(unsigned c, unsigned a) {
  unsigned t = c * a + 128;
  return (uint8_t)((t + (t >> 8)) >> 8);
}

// Extra fraction bits the summed contributions carry below a table step.
enum { MP_FRACTION_BITS = 2 };

static inline uint8_t mp_encode(const uint8_t *encode, int32_t v) {
  // Out-of-gamut colour clips to the table's ends.
  v >>= MP_FRACTION_BITS;
  if (v < 0) v = 0;
  if (v > MP_COLOR_OUTPUT_TABLE_SIZE - 1) v = MP_COLOR_OUTPUT_TABLE_SIZE - 1;
  return encode[v];
}

void mp_matrix_shaper_apply(const mp_matrix_shaper *s, uint8_t *pixels, size_t width, size_t height,
                            size_t stride, int premultiplied) {
  // What each stored channel value adds to each output channel, in output
  // table steps: the linearization and the matrix folded into 9 small
  // tables (9 KB, in L1), so a pixel costs lookups and adds, no multiplies.
  int32_t add[3][3][256];
  for (int out = 0; out < 3; out++) {
    for (int in = 0; in < 3; in++) {
      int64_t m = s->matrix[out][in];
      for (int i = 0; i < 256; i++) {
        int64_t v = m * s->linear[in][i];
        // 2.14 matrix times 0...16383 linear, kept with MP_FRACTION_BITS more.
        add[out][in][i] = (int32_t)((v + (1 << (13 - MP_FRACTION_BITS))) >> (14 - MP_FRACTION_BITS));
      }
    }
  }
  const uint8_t *encode = s->encode;
  if (!premultiplied) {
    // The common case (every JPEG): no alpha to divide out.
    for (size_t y = 0; y < height; y++) {
      uint8_t *p = pixels + y * stride;
      for (size_t x = 0; x < width; x++, p += 4) {
        unsigned r = p[0], g = p[1], b = p[2];
        p[0] = mp_encode(encode, add[0][0][r] + add[0][1][g] + add[0][2][b]);
        p[1] = mp_encode(encode, add[1][0][r] + add[1][1][g] + add[1][2][b]);
        p[2] = mp_encode(encode, add[2][0][r] + add[2][1][g] + add[2][2][b]);
      }
    }
    return;
  }
  for (size_t y = 0; y < height; y++) {
    uint8_t *p = pixels + y * stride;
    for (size_t x = 0; x < width; x++, p += 4) {
      unsigned a = p[3];
      unsigned r = p[0], g = p[1], b = p[2];
      int partial = a != 255;
      if (partial) {
        if (a == 0) continue;
        r = (r * 255 + a / 2) / a;
        g = (g * 255 + a / 2) / a;
        b = (b * 255 + a / 2) / a;
        if (r > 255) r = 255;
        if (g > 255) g = 255;
        if (b > 255) b = 255;
      }
      uint8_t orr = mp_encode(encode, add[0][0][r] + add[0][1][g] + add[0][2][b]);
      uint8_t og = mp_encode(encode, add[1][0][r] + add[1][1][g] + add[1][2][b]);
      uint8_t ob = mp_encode(encode, add[2][0][r] + add[2][1][g] + add[2][2][b]);
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

static void *mp_lcms_malloc(cmsContext context, cmsUInt32Number size) {
  (void)context;
  return size > MP_LCMS_MAX_ALLOCATION ? NULL : malloc(size);
}

static void mp_lcms_free(cmsContext context, void *pointer) {
  (void)context;
  free(pointer);
}

static void *mp_lcms_realloc(cmsContext context, void *pointer, cmsUInt32Number size) {
  (void)context;
  return size > MP_LCMS_MAX_ALLOCATION ? NULL : realloc(pointer, size);
}

static cmsPluginMemHandler mp_lcms_memory = {
    {cmsPluginMagicNumber, 2000, cmsPluginMemHandlerSig, NULL}, mp_lcms_malloc, mp_lcms_free, mp_lcms_realloc,
    NULL, NULL, NULL};

void *mp_lcms_bounded_context(void) { return cmsCreateContext(&mp_lcms_memory, NULL); }
