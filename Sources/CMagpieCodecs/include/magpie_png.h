#ifndef MAGPIE_PNG_H
#define MAGPIE_PNG_H

// A thin, longjmp-free C API over libpng 1.6 for Swift.
//
// libpng reports errors by longjmp; every call that can longjmp happens
// inside a function in magpie_png.c that has its own setjmp, and the message
// is copied into the reader or writer so Swift can read it after the call
// returns. No callback ever calls into Swift.

#include <stddef.h>
#include <stdint.h>

/// How a call ended.
typedef enum mp_png_status {
  /// It worked.
  MP_PNG_OK = 0,
  /// The data breaks the PNG rules (bad signature, CRC, IHDR, zlib stream...).
  MP_PNG_CORRUPT = 1,
  /// The data ends before the image does.
  MP_PNG_TRUNCATED = 2,
  /// A memory allocation failed.
  MP_PNG_OUT_OF_MEMORY = 3,
  /// The caller passed something the call does not accept.
  MP_PNG_INVALID_ARGUMENT = 4,
} mp_png_status;

/// What the IHDR chunk (and a tRNS chunk before IDAT) says.
typedef struct mp_png_header {
  /// Width in pixels, 1 to 2^31-1.
  uint32_t width;
  /// Height in pixels, 1 to 2^31-1.
  uint32_t height;
  /// Bits per sample: 1, 2, 4, 8 or 16.
  int32_t bit_depth;
  /// PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
  int32_t color_type;
  /// 1 for Adam7 interlacing, 0 for none.
  int32_t interlaced;
  /// 1 when a tRNS chunk gives transparency to a colour type without alpha.
  int32_t has_transparency;
} mp_png_header;

/// Decodes one PNG held in memory. Create, read the header, check its size,
/// then read the pixels into a buffer the caller owns.
typedef struct mp_png_reader mp_png_reader;

/// A reader over `size` bytes at `data`, which must outlive it; NULL when out
/// of memory. The reader does not copy the data.
mp_png_reader *mp_png_reader_create(const void *data, size_t size);

/// Reads every chunk up to the first IDAT and fills `header`. Ancillary
/// chunks other than tRNS are skipped (no colour management, no text).
mp_png_status mp_png_reader_read_header(mp_png_reader *reader, mp_png_header *header);

/// The bytes to give mp_png_reader_read_rgba for packed rows (`stride ==
/// width * 4`): `width * 4 * height`, or `height` more for an 8-bit RGBA
/// image, which lets the fast path inflate into the pixel buffer itself. 0
/// before the header is read or when the size overflows.
size_t mp_png_reader_pixel_capacity(const mp_png_reader *reader);

/// Decodes the whole image (every Adam7 pass) into `pixels` (`capacity`
/// bytes) as 8-bit RGBA, `stride` bytes a row, `width * 4 <= stride`. With
/// `premultiply` set the colour is premultiplied by alpha; without, alpha is
/// straight, exactly as the file stores it. `*all_opaque`
/// becomes 1 when every alpha is 255. Call once, after
/// mp_png_reader_read_header succeeded. A non-interlaced 8-bit image goes
/// through the fast path (magpie_png_fast.h) when allowed, which may use the
/// bytes past the last row as workspace; any image it declines, and so any
/// failure, is libpng's, with libpng's status and message.
mp_png_status mp_png_reader_read_rgba(
    mp_png_reader *reader, uint8_t *pixels, size_t capacity, size_t stride, int premultiply, int *all_opaque);

/// Allows (the default) or forbids the fast path for common 8-bit images
/// (see magpie_png_fast.h) in mp_png_reader_read_rgba; forbidden, every image
/// goes through libpng. Call before reading the pixels.
void mp_png_reader_set_fast_path(mp_png_reader *reader, int enabled);

/// 1 when mp_png_reader_read_rgba decoded the image through the fast path.
int mp_png_reader_used_fast_path(const mp_png_reader *reader);

/// Why the last call failed, e.g. "IDAT: CRC error"; "" after success.
const char *mp_png_reader_message(const mp_png_reader *reader);

/// Frees the reader and everything libpng allocated for it. NULL is ignored.
void mp_png_reader_destroy(mp_png_reader *reader);

/// Encodes straight-alpha pixels as an 8-bit PNG in memory.
///
/// `pixels` is RGBA8, `stride` bytes a row. With `drop_alpha` set the alpha
/// bytes are skipped and an RGB PNG is written. `level` is the deflate
/// level, 0-9. On success `*out` holds `*out_size` bytes to release with
/// mp_png_free; on failure `message` (of `message_size` bytes) says why.
/// Images whose filtered rows fit 64 MiB go through mp_png_encode_whole,
/// larger ones through mp_png_encode_streamed.
mp_png_status mp_png_encode_rgba(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int drop_alpha, int level,
    uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// mp_png_encode_rgba through libpng and zlib, a few rows at a time: memory
/// stays flat whatever the image's size.
mp_png_status mp_png_encode_streamed(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int drop_alpha, int level,
    uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// mp_png_encode_rgba with every filtered row in one buffer, deflated by
/// libdeflate in one call (at level 1, a third of the streamed writer's time).
/// Rows are filtered by the PNG specification's heuristic (each row's
/// filter the one whose bytes sum smallest as signed values).
/// MP_PNG_INVALID_ARGUMENT where mp_png_encodes_whole says no.
mp_png_status mp_png_encode_whole(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                                  int drop_alpha, int level, uint8_t **out, size_t *out_size);

/// Whether mp_png_encode_whole takes a `width` x `height` image: its
/// filtered rows fit 64 MiB.
int mp_png_encodes_whole(uint32_t width, uint32_t height, int drop_alpha);

/// Releases a buffer returned by mp_png_encode_rgba.
void mp_png_free(void *buffer);

#endif
