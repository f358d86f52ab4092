#include "magpie_pixels.h"

#include <string.h>

// Red and blue share one 32-bit multiply (each product fits in its 16-bit
// half) and the loop has no branch, so the compiler vectorizes it; in C
// because Swift's SIMD types did not vectorize this loop as well.
uint32_t mp_premultiply_rows(uint8_t *pixels, size_t width, size_t height, size_t stride) {
  uint32_t all = 0xFFFFFFFFu;
  for (size_t y = 0; y < height; y++) {
    uint8_t *row = pixels + y * stride;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (size_t i = 0; i < width; i++) {
      uint32_t px;  // R | G << 8 | B << 16 | A << 24
      memcpy(&px, row + 4 * i, 4);
      const uint32_t a = px >> 24;
      all &= px;
      uint32_t rb = (px & 0x00FF00FFu) * a + 0x00800080u;
      rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
      uint32_t g = ((px >> 8) & 0xFFu) * a + 0x80u;
      g = (g + (g >> 8)) & 0xFF00u;
      px = rb | g | (px & 0xFF000000u);
      memcpy(row + 4 * i, &px, 4);
    }
#else
    for (size_t i = 0; i < width; i++) {
      uint8_t *p = row + 4 * i;
      const uint32_t a = p[3];
      all &= (uint32_t)a << 24;
      for (int c = 0; c < 3; c++) {
        uint32_t t = p[c] * a + 128;
        p[c] = (uint8_t)((t + (t >> 8)) >> 8);
      }
    }
#endif
  }
  return all >> 24;
}
