#ifndef MAGPIE_RESAMPLE_H
#define MAGPIE_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/// The resampler's 8-bit kernel passes (Resampler+Convolution.swift), in
/// 14-bit fixed point: each sum starts at 1 << 13, adds pixel x weight
/// products, shifts right by 14, clamps to 0...255 and, unless `opaque`,
/// each colour channel to its pixel's alpha. SSE2 everywhere, AVX2 where
/// the processor has it (chosen once, at run time); both give the same
/// bytes.

/// Resamples one row of `src_width` premultiplied RGBA8 pixels to `width`
/// pixels. `line` is scratch of `src_width * 16` bytes, 16-byte aligned;
/// `starts[x]` is output pixel x's first source pixel and `pairs` holds,
/// for each output pixel, `pair_count` groups of eight int16s `(w0, w1)`
/// four times (ResamplingWeights.pairs).
void mp_resample_row(
    const uint8_t *row, size_t src_width, int16_t *line, uint8_t *out, size_t width, size_t pair_count,
    const intptr_t *starts, const int16_t *pairs, int opaque);

/// Resamples output rows `first..<end` of a column pass: output row y sums
/// `taps` source rows from `src + starts[y] * stride`, with the int16
/// weights `weights + y * taps`; `row_bytes` bytes a row.
void mp_resample_columns(
    const uint8_t *src, size_t stride, uint8_t *out, size_t row_bytes, size_t first, size_t end, size_t taps,
    const intptr_t *starts, const int16_t *weights, int opaque);

/// Runs the AVX2 loops when `wanted` and the processor has AVX2, else the
/// SSE2 ones (for tests that compare the two); returns whether AVX2 ran
/// before.
int mp_resample_select_avx2(int wanted);

#endif
