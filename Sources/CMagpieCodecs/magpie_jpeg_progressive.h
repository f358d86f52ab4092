#ifndef MAGPIE_JPEG_PROGRESSIVE_H
#define MAGPIE_JPEG_PROGRESSIVE_H

// Magpie's own decoder for scaled progressive JPEGs (internal to
// CMagpieCodecs; magpie_jpeg.c uses it).
//
// Why: a 1/4-scale thumbnail of a progressive photo spends three quarters of
// its time in libjpeg's progressive entropy decoder, which walks every
// coefficient of every block in each refinement scan and keeps all 64
// coefficients of every block. This one keeps, per block, a bit mask of the
// coefficients that are nonzero (so a refinement scan finds its runs and
// correction bits with bit operations instead of a walk) and only the
// coefficients the reduced IDCT reads.
//
// What it makes is libjpeg-turbo's output on x86-64 bit for bit: the same
// reduced IDCTs (jidctred.c's 1x1 and the SSE2 2x2 and 4x4 that
// libjpeg-turbo runs there), the same per-component IDCT scaling instead of
// upsampling, the same YCbCr to RGB arithmetic. It takes only what it can
// do exactly: 8-bit Huffman-coded progressive YCbCr or greyscale at 1/8 or
// 1/4 scale (and at 1/2 when no component needs the full 8x8 IDCT: 4:4:4,
// 4:2:2 and greyscale), when every component reaches the output size by
// IDCT scaling alone or, for 4:2:2 chroma, by libjpeg's horizontal
// doubling after it. Anything unusual in the data (a bad Huffman code, a bogus
// progression, a missing restart marker, data that ends before EOI, garbage
// between markers) makes it give up, and libjpeg decodes the image as
// before, with its own warnings and recovery.

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jpeglib.h>

/// Whether this build has the decoder: x86-64 (whose SSE2 IDCT arithmetic it
/// reproduces) against libjpeg-turbo.
#if defined(__x86_64__) && defined(LIBJPEG_TURBO_VERSION)
#define MP_PROG_AVAILABLE 1
#else
#define MP_PROG_AVAILABLE 0
#endif

/// A decoded image waiting to be turned into rows; opaque.
typedef struct mp_prog mp_prog;

/// What mp_prog_decode did.
typedef enum {
  /// The image is decoded; read its rows with mp_prog_read_rows.
  MP_PROG_DONE = 0,
  /// Not an image this decoder takes, or something in the data it leaves to
  /// libjpeg: nothing was changed, decode with libjpeg.
  MP_PROG_DECLINED = 1,
  /// The stop check asked to stop.
  MP_PROG_STOPPED = 2,
} mp_prog_result;

/// Decodes every scan of the progressive image whose header `cinfo` has
/// read (after jpeg_calc_output_dimensions), from the entropy-coded data of
/// its first scan at `data` to the EOI marker. Reads libjpeg's state but
/// changes none of it. Declines when the coefficients would take more than
/// `max_memory` bytes (0: no cap), leaving libjpeg to report it. Asks
/// `stop_check` (may be NULL) once per MCU row of every scan. `portable`
/// non-zero uses the portable bit operations even where the CPU has BMI2
/// (for tests); either way the result is the same.
mp_prog_result mp_prog_decode(j_decompress_ptr cinfo, const uint8_t *data, size_t size, size_t max_memory,
                              int (*stop_check)(void *), void *stop_context, int portable, mp_prog **out);

/// Writes up to `max_rows` RGBA rows, `stride` bytes apart, continuing
/// where the last call stopped; returns how many it wrote.
uint32_t mp_prog_read_rows(mp_prog *prog, uint8_t *rows, size_t stride, uint32_t max_rows);

/// Frees the decoded image. NULL is fine.
void mp_prog_destroy(mp_prog *prog);

/// The reduced inverse DCTs libjpeg-turbo runs on x86-64, for `size` 1, 2
/// or 4: from the coefficients `coef` kept for that size (1, 5x5 or 7x7 of
/// them, rows and columns the IDCT reads, in order; readable 16 bytes past
/// the last block) and the quantisers `quant` from mp_prog_idct_quant,
/// writes size x size samples at `out`,
/// rows `stride` apart. `nonzero` has bit k set for each nonzero AC
/// coefficient at zigzag position k (kept or not), `kept` for each AC
/// coefficient kept.
void mp_prog_idct(int size, const int16_t *coef, const int16_t *quant, uint8_t *out, size_t stride, uint64_t nonzero,
                  uint64_t kept);

/// How many quantisers mp_prog_idct_quant writes.
#define MP_PROG_IDCT_QUANT 56

/// Lays out the quantisation table `quant` (natural order) for the IDCT of
/// `size`: the quantisers of the coefficients kept, in rows of eight.
void mp_prog_idct_quant(int size, const int16_t *quant, int16_t out[MP_PROG_IDCT_QUANT]);

/// Which rows (and the same columns) of a block the reduced IDCT of `size`
/// reads: its index among those kept for each of the eight, or -1.
const int8_t *mp_prog_kept_index(int size);

/// How many rows (and columns) of coefficients the IDCT of `size` keeps.
int mp_prog_kept_count(int size);

/// libjpeg's h2v1 upsampling of `width` samples to twice as many: the
/// triangle filter (jdsample.c's h2v1_fancy_upsample, which libjpeg uses
/// for rows of more than two samples) and plain repetition.
void mp_prog_double_fancy(const uint8_t *in, uint32_t width, uint8_t *out);
void mp_prog_double_plain(const uint8_t *in, uint32_t width, uint8_t *out);

/// libjpeg's YCbCr to RGB arithmetic over one row of `width` pixels, into RGBA.
void mp_prog_ycc_to_rgba(const uint8_t *y, const uint8_t *cb, const uint8_t *cr, uint8_t *out, uint32_t width);

#endif
