#ifndef MAGPIE_TEST_JPEG_H
#define MAGPIE_TEST_JPEG_H

// Progressive JPEGs made for the tests, with libjpeg's encoder: scan scripts,
// samplings and restart intervals the cjpeg tool cannot all combine, and
// files whose coefficients are chosen directly (extreme values only a
// hostile or broken encoder writes).

#include <stddef.h>
#include <stdint.h>

/// The scan scripts mp_test_jpeg_encode can write.
typedef enum {
  /// libjpeg's own (jpeg_simple_progression), what most encoders write.
  MP_TEST_SCRIPT_STANDARD = 0,
  /// Successive approximation in depth: DC from Al 2, AC from Al 3 (luma)
  /// and 2 (chroma), each refined one bit at a time down to 0.
  MP_TEST_SCRIPT_DEEP_REFINEMENT = 1,
  /// Spectral selection alone: a DC scan per component, luma AC in four
  /// bands, chroma AC in two, no refinement.
  MP_TEST_SCRIPT_BANDS = 2,
  /// DC of luma and Cb interleaved, Cr's alone, then each component's AC
  /// first at Al 1 and refined; the chroma components in reverse order.
  MP_TEST_SCRIPT_SPLIT_DC = 3,
} mp_test_script;

/// How a test JPEG is made.
typedef struct {
  uint32_t width, height;
  /// 1 (greyscale) or 3 (YCbCr).
  int components;
  /// Luma's sampling factors (chroma's are 1).
  int h_samp, v_samp;
  mp_test_script script;
  /// Restart interval in MCUs (0: none).
  unsigned restart_interval;
  /// Arithmetic coding instead of Huffman.
  int arithmetic;
  /// libjpeg quality (1-100) for the quantisation tables, or 0 for tables of
  /// random quantisers from 1 to `max_quantizer`.
  int quality;
  int max_quantizer;
  /// With `pixels` NULL: coefficients chosen at random from `seed`; `wild`
  /// non-zero draws extreme values too.
  uint32_t seed;
  int wild;
  /// Packed RGB (or grey) rows to encode; NULL for random coefficients.
  const uint8_t *pixels;
} mp_test_jpeg;

/// Writes the JPEG `spec` describes; returns it (free with free()) and its
/// size, or NULL with the reason in `message` (at least 200 bytes).
uint8_t *mp_test_jpeg_encode(const mp_test_jpeg *spec, size_t *size, char *message);

#endif
