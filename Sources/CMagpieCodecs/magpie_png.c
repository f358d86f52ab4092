#include "magpie_png.h"

#include <png.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magpie_png_fast.h"
#include "magpie_pixels.h"

enum {
  // Room for libpng's longest messages ("cHRM: ..." plus a chunk name).
  MP_PNG_MESSAGE_SIZE = 256,
  // Rows handed to libpng per call: few enough for a stack array, enough to
  // keep call overhead out of the profile.
  MP_PNG_ROWS_PER_CALL = 32,
  // The only chunks libpng still buffers whole are PLTE and tRNS (at most 768
  // bytes); every other ancillary chunk is skipped unread. 1 MiB is far above
  // any legitimate need and far below what a lying length could ask for.
  MP_PNG_CHUNK_MALLOC_MAX = 1 << 20,
  // Bounds the ancillary chunks libpng would keep (none, as configured).
  MP_PNG_CHUNK_CACHE_MAX = 128,
};

// Where libpng's error callback leaves its message. It is the first member of
// the reader and writer so that the error pointer can point at either.
typedef struct mp_png_sink {
  char message[MP_PNG_MESSAGE_SIZE];
  // libpng explains a bad IHDR in warnings ("Invalid bit depth in IHDR")
  // before its error ("Invalid IHDR data"); the last one joins the message.
  char last_warning[MP_PNG_MESSAGE_SIZE];
  int truncated;
  int out_of_memory;
} mp_png_sink;

struct mp_png_reader {
  mp_png_sink sink;
  png_structp png;
  png_infop info;
  const uint8_t *data;
  size_t size;
  size_t offset;
  int header_read;
  int header_ok;
  int pixels_read;
  // Whether mp_png_reader_read_rgba may try magpie_png_fast.c first, and
  // whether it did decode the image.
  int fast_path_off;
  int used_fast_path;
};

static void mp_png_on_error(png_structp png, png_const_charp message) {
  mp_png_sink *sink = (mp_png_sink *)png_get_error_ptr(png);
  if (sink != NULL) {
    const char *text = message != NULL ? message : "unknown libpng error";
    if (strcmp(text, "Invalid IHDR data") == 0 && sink->last_warning[0] != '\0') {
      snprintf(sink->message, sizeof sink->message, "%.100s (%.150s)", text, sink->last_warning);
    } else {
      snprintf(sink->message, sizeof sink->message, "%s", text);
    }
    if (message != NULL && strstr(message, "ut of memory") != NULL) {
      sink->out_of_memory = 1;
    }
  }
  // libpng prints and aborts if an error callback returns.
  png_longjmp(png, 1);
}

static void mp_png_on_warning(png_structp png, png_const_charp message) {
  // Warnings (ancillary CRC errors, benign oddities) are not failures; keep
  // them off stderr, remembering the last one for the error message.
  mp_png_sink *sink = (mp_png_sink *)png_get_error_ptr(png);
  if (sink != NULL && message != NULL) snprintf(sink->last_warning, sizeof sink->last_warning, "%s", message);
}

static mp_png_status mp_png_failure(const mp_png_sink *sink) {
  if (sink->truncated) return MP_PNG_TRUNCATED;
  if (sink->out_of_memory) return MP_PNG_OUT_OF_MEMORY;
  return MP_PNG_CORRUPT;
}

static void mp_png_read_from_memory(png_structp png, png_bytep out, size_t count) {
  mp_png_reader *reader = (mp_png_reader *)png_get_io_ptr(png);
  if (count > reader->size - reader->offset) {
    reader->sink.truncated = 1;
    png_error(png, "the data ends before the image does");
  }
  memcpy(out, reader->data + reader->offset, count);
  reader->offset += count;
}

mp_png_reader *mp_png_reader_create(const void *data, size_t size) {
  if (data == NULL && size != 0) return NULL;
  mp_png_reader *reader = calloc(1, sizeof *reader);
  if (reader == NULL) return NULL;
  reader->data = data;
  reader->size = size;
  reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->sink, mp_png_on_error, mp_png_on_warning);
  if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
  if (reader->png == NULL || reader->info == NULL) {
    mp_png_reader_destroy(reader);
    return NULL;
  }
  return reader;
}

mp_png_status mp_png_reader_read_header(mp_png_reader *reader, mp_png_header *header) {
  if (reader == NULL || header == NULL || reader->header_read) return MP_PNG_INVALID_ARGUMENT;
  reader->header_read = 1;
  reader->sink.message[0] = '\0';
  png_structp png = reader->png;
  png_infop info = reader->info;
  if (setjmp(png_jmpbuf(png))) return mp_png_failure(&reader->sink);

  png_set_read_fn(png, reader, mp_png_read_from_memory);
  // The pixel budget is enforced by the Swift caller on the declared size,
  // before any pixel or row buffer exists, so it can name the size; libpng's
  // own per-side limit (1,000,000 by default) would only reject legal wide
  // strips with a vaguer message.
  png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
  png_set_chunk_malloc_max(png, MP_PNG_CHUNK_MALLOC_MAX);
  png_set_chunk_cache_max(png, MP_PNG_CHUNK_CACHE_MAX);
  // Skip (still CRC-checking) every ancillary chunk except tRNS: no colour
  // management (gAMA, iCCP, sRGB, cHRM), no text inflation, nothing kept.
  // eXIf and the APNG chunks are read by the Swift side.
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
  // Every IDAT chunk's CRC-32 is still checked, so zlib's Adler-32 over the
  // inflated rows (4% of a photo's decode time) adds little protection.
  png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);

  png_read_info(png, info);
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int bit_depth = 0;
  int color_type = 0;
  int interlace = 0;
  png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
  header->width = width;
  header->height = height;
  header->bit_depth = bit_depth;
  header->color_type = color_type;
  header->interlaced = interlace != PNG_INTERLACE_NONE;
  header->has_transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  reader->header_ok = 1;
  return MP_PNG_OK;
}

// The AND of one straight row's alpha bytes.
static uint32_t mp_png_alpha_and_row(const uint8_t *row, size_t width) {
  uint32_t all = 0xFF;
  for (size_t i = 0; i < width; i++) all &= row[4 * i + 3];
  return all;
}

// Decodes the image through magpie_png_fast.c when it is 8-bit, not
// interlaced, and has no tRNS colour key; returns 0 (libpng's turn) for any
// other image and whenever the fast path declines. PLTE and tRNS come from
// libpng, so an entry or a chunk libpng dropped is dropped here too.
static int mp_png_try_fast_path(
    mp_png_reader *reader, uint8_t *pixels, size_t capacity, size_t stride, int premultiply, int *all_opaque) {
  png_structp png = reader->png;
  png_infop info = reader->info;
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int bit_depth = 0;
  int color_type = 0;
  int interlace = 0;
  if (!png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL)) return 0;
  const int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (bit_depth != 8 || interlace != PNG_INTERLACE_NONE) return 0;
  // A colour key (gray or RGB tRNS) is rare at 8 bits; tRNS on a type with
  // alpha is invalid and libpng drops it, but leave any doubt to libpng.
  if (has_trns && color_type != PNG_COLOR_TYPE_PALETTE) return 0;
  // libpng has just read the first IDAT chunk's length and type.
  if (reader->offset < 8) return 0;

  mp_png_fast_image image;
  memset(&image, 0, sizeof image);
  image.width = width;
  image.height = height;
  image.color_type = color_type;
  image.premultiply = premultiply;
  switch (color_type) {
    case PNG_COLOR_TYPE_GRAY:
    case PNG_COLOR_TYPE_RGB:
    case PNG_COLOR_TYPE_GRAY_ALPHA:
    case PNG_COLOR_TYPE_RGB_ALPHA:
      break;
    case PNG_COLOR_TYPE_PALETTE: {
      png_colorp palette = NULL;
      int entries = 0;
      if (!png_get_PLTE(png, info, &palette, &entries) || palette == NULL) return 0;
      png_bytep alphas = NULL;
      int alpha_count = 0;
      if (has_trns && !png_get_tRNS(png, info, &alphas, &alpha_count, NULL)) return 0;
      // As png_set_expand does: an index past the palette is black, past the
      // tRNS entries opaque.
      for (int i = 0; i < 256; i++) {
        const unsigned a = alphas != NULL && i < alpha_count ? alphas[i] : 0xFF;
        const unsigned rgb[3] = {
            i < entries ? palette[i].red : 0, i < entries ? palette[i].green : 0, i < entries ? palette[i].blue : 0};
        for (int c = 0; c < 3; c++) {
          const unsigned t = rgb[c] * a + 128;
          image.palette[i][c] = premultiply ? (uint8_t)((t + (t >> 8)) >> 8) : (uint8_t)rgb[c];
        }
        image.palette[i][3] = (uint8_t)a;
      }
      break;
    }
    default:
      return 0;
  }
  return mp_png_fast_decode(
             reader->data, reader->size, reader->offset - 8, &image, pixels, capacity, stride, all_opaque) ==
         MP_PNG_FAST_DONE;
}

size_t mp_png_reader_pixel_capacity(const mp_png_reader *reader) {
  if (reader == NULL || !reader->header_ok) return 0;
  const png_uint_32 width = png_get_image_width(reader->png, reader->info);
  const png_uint_32 height = png_get_image_height(reader->png, reader->info);
  const size_t packed = (size_t)width * 4;
  if (height > SIZE_MAX / packed) return 0;
  // Only an 8-bit RGBA image wants more than its pixel rows.
  if (png_get_bit_depth(reader->png, reader->info) == 8 &&
      png_get_interlace_type(reader->png, reader->info) == PNG_INTERLACE_NONE) {
    const size_t fast = mp_png_fast_capacity(width, height, png_get_color_type(reader->png, reader->info));
    if (fast > packed * height) return fast;
  }
  return packed * height;
}

mp_png_status mp_png_reader_read_rgba(
    mp_png_reader *reader, uint8_t *pixels, size_t capacity, size_t stride, int premultiply, int *all_opaque) {
  if (reader == NULL || pixels == NULL || all_opaque == NULL || !reader->header_ok || reader->pixels_read) {
    return MP_PNG_INVALID_ARGUMENT;
  }
  png_structp png = reader->png;
  png_infop info = reader->info;
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  if (stride < (size_t)width * 4 || (height - 1) > (SIZE_MAX - (size_t)width * 4) / stride ||
      capacity < stride * (height - 1) + (size_t)width * 4) {
    return MP_PNG_INVALID_ARGUMENT;
  }
  reader->pixels_read = 1;
  reader->sink.message[0] = '\0';
  if (setjmp(png_jmpbuf(png))) return mp_png_failure(&reader->sink);

  if (!reader->fast_path_off && mp_png_try_fast_path(reader, pixels, capacity, stride, premultiply, all_opaque)) {
    reader->used_fast_path = 1;
    return MP_PNG_OK;
  }

  // Only a type with alpha or a tRNS chunk can make alpha other than 255;
  // ask before the transforms below turn every type into RGBA.
  const int can_have_alpha =
      (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  // Straight RGBA8 whatever the source: palette to RGB, low bit depths to 8,
  // tRNS to an alpha channel, gray to RGB, and an opaque alpha byte where the
  // source has none.
  png_set_expand(png);
  // 16-bit samples become round(v * 255 / 65535), libpng's accurate scaling.
  // png_set_strip_16 (keep the high byte) is marginally faster but biased: it
  // maps 0xFF00 to 255 where the nearest 8-bit value is 254. Correct values
  // are worth the cost on a rare kind of file.
  png_set_scale_16(png);
  png_set_gray_to_rgb(png);
  png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  const int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)width * 4 || png_get_bit_depth(png, info) != 8) {
    png_error(png, "libpng did not produce 8-bit RGBA rows");
  }

  uint32_t alpha_and = 0xFF;
  png_bytep rows[MP_PNG_ROWS_PER_CALL];
  for (int pass = 0; pass < passes; pass++) {
    for (png_uint_32 y = 0; y < height;) {
      png_uint_32 count = height - y < MP_PNG_ROWS_PER_CALL ? height - y : MP_PNG_ROWS_PER_CALL;
      for (png_uint_32 k = 0; k < count; k++) rows[k] = pixels + (size_t)(y + k) * stride;
      png_read_rows(png, rows, NULL, count);
      // Without interlacing each row is final now: premultiply it while it
      // is still in cache.
      if (can_have_alpha && passes == 1) {
        for (png_uint_32 k = 0; k < count; k++) {
          alpha_and &= premultiply ? mp_premultiply_rows(rows[k], width, 1, 0) : mp_png_alpha_and_row(rows[k], width);
        }
      }
      y += count;
    }
  }
  if (can_have_alpha && passes > 1) {
    for (png_uint_32 y = 0; y < height; y++) {
      uint8_t *row = pixels + (size_t)y * stride;
      alpha_and &= premultiply ? mp_premultiply_rows(row, width, 1, 0) : mp_png_alpha_and_row(row, width);
    }
  }
  // Trailing chunks (after the last IDAT) are not read: like browsers, an
  // image whose pixels are all there decodes even if IEND is missing.
  *all_opaque = alpha_and == 0xFF;
  return MP_PNG_OK;
}

void mp_png_reader_set_fast_path(mp_png_reader *reader, int enabled) {
  if (reader != NULL) reader->fast_path_off = !enabled;
}

int mp_png_reader_used_fast_path(const mp_png_reader *reader) { return reader != NULL && reader->used_fast_path; }

const char *mp_png_reader_message(const mp_png_reader *reader) {
  return reader != NULL ? reader->sink.message : "no reader";
}

void mp_png_reader_destroy(mp_png_reader *reader) {
  if (reader == NULL) return;
  if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info != NULL ? &reader->info : NULL, NULL);
  free(reader);
}

typedef struct mp_png_writer {
  mp_png_sink sink;
  png_structp png;
  png_infop info;
  uint8_t *data;
  size_t size;
  size_t capacity;
} mp_png_writer;

static void mp_png_write_to_memory(png_structp png, png_bytep bytes, size_t count) {
  mp_png_writer *writer = (mp_png_writer *)png_get_io_ptr(png);
  if (count > writer->capacity - writer->size) {
    size_t needed = writer->size + count;
    if (needed < writer->size) png_error(png, "Out of memory: encoded PNG too large");
    size_t capacity = writer->capacity > 0 ? writer->capacity : 64 * 1024;
    while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
    uint8_t *grown = realloc(writer->data, capacity);
    if (grown == NULL) png_error(png, "Out of memory while growing the output");
    writer->data = grown;
    writer->capacity = capacity;
  }
  memcpy(writer->data + writer->size, bytes, count);
  writer->size += count;
}

static void mp_png_flush(png_structp png) { (void)png; }

mp_png_status mp_png_encode_rgba(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int drop_alpha, int level,
    uint8_t **out, size_t *out_size, char *message, size_t message_size) {
  if (message != NULL && message_size > 0) message[0] = '\0';
  if (width == 0 || height == 0 || !mp_png_encodes_whole(width, height, drop_alpha)) {
    return mp_png_encode_streamed(pixels, width, height, stride, drop_alpha, level, out, out_size, message,
                                  message_size);
  }
  mp_png_status status = mp_png_encode_whole(pixels, width, height, stride, drop_alpha, level, out, out_size);
  if (status == MP_PNG_INVALID_ARGUMENT && message != NULL && message_size > 0) {
    snprintf(message, message_size, "invalid encoder arguments");
  }
  return status;
}

mp_png_status mp_png_encode_streamed(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int drop_alpha, int level,
    uint8_t **out, size_t *out_size, char *message, size_t message_size) {
  if (message != NULL && message_size > 0) message[0] = '\0';
  if (pixels == NULL || out == NULL || out_size == NULL || width == 0 || height == 0 ||
      width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX || stride < (size_t)width * 4 || level < 0 || level > 9) {
    if (message != NULL && message_size > 0) snprintf(message, message_size, "invalid encoder arguments");
    return MP_PNG_INVALID_ARGUMENT;
  }
  *out = NULL;
  *out_size = 0;
  // On the heap so nothing setjmp's caller reads after a longjmp lives in a
  // register-allocated local.
  mp_png_writer *writer = calloc(1, sizeof *writer);
  if (writer == NULL) return MP_PNG_OUT_OF_MEMORY;
  writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->sink, mp_png_on_error, mp_png_on_warning);
  if (writer->png != NULL) writer->info = png_create_info_struct(writer->png);
  mp_png_status status = MP_PNG_OUT_OF_MEMORY;
  if (writer->png != NULL && writer->info != NULL) {
    if (setjmp(png_jmpbuf(writer->png))) {
      status = writer->sink.out_of_memory ? MP_PNG_OUT_OF_MEMORY : MP_PNG_CORRUPT;
      if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", writer->sink.message);
    } else {
      png_structp png = writer->png;
      png_set_write_fn(png, writer, mp_png_write_to_memory, mp_png_flush);
      png_set_IHDR(png, writer->info, width, height, 8, drop_alpha ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                   PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      png_set_compression_level(png, level);
      // Stored (level 0) data gains nothing from filtering; skip its cost.
      if (level == 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
      png_write_info(png, writer->info);
      // On write, a filler tells libpng to skip the fourth byte of each pixel.
      if (drop_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
      png_bytep rows[MP_PNG_ROWS_PER_CALL];
      for (uint32_t y = 0; y < height;) {
        uint32_t count = height - y < MP_PNG_ROWS_PER_CALL ? height - y : MP_PNG_ROWS_PER_CALL;
        // libpng takes non-const rows but only reads them when writing.
        for (uint32_t k = 0; k < count; k++) rows[k] = (png_bytep)(uintptr_t)(pixels + (size_t)(y + k) * stride);
        png_write_rows(png, rows, count);
        y += count;
      }
      png_write_end(png, NULL);
      *out = writer->data;
      *out_size = writer->size;
      writer->data = NULL;
      status = MP_PNG_OK;
    }
  }
  png_destroy_write_struct(&writer->png, &writer->info);
  free(writer->data);
  free(writer);
  return status;
}

void mp_png_free(void *buffer) { free(buffer); }
