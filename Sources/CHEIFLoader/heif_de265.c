#include "heif_hevc_shared.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#include "magpie_lazy.h"

// An HEVC decoder plugin for libheif over libde265 that decodes one picture
// on several threads: Magpie's second choice, where libavcodec (see
// heif_avcodec.c) cannot be opened. Debian's libheif 1.15 starts libde265 with a single
// worker, so a photo decodes on one core however many are idle; libde265
// itself splits a picture's wavefront rows (x265 writes WPP by default) and
// its deblocking and SAO passes across as many workers as it is given.
// Everything else (the boxes, alpha, grids, irot/imir/clap, colour
// conversion) stays libheif's. libde265 is opened on first use, like
// libheif, and reached only through the pointers below: no de265_* symbol
// is defined here, so libheif's own plugin keeps calling the library.

#if __has_include(<libde265/de265.h>)
#include <libde265/de265.h>
#define MP_HAVE_DE265 1
#endif

#ifndef MP_DE265_SONAME
#define MP_DE265_SONAME "libde265.so.0"
#endif

#ifdef MP_HAVE_DE265

static const char *const mp_de265_names[] = {MP_DE265_SONAME, "libde265.so", NULL};
static mp_lazy_library mp_de265_library = MP_LAZY_LIBRARY(mp_de265_names);

// libde265's calls, resolved once by mp_de265_resolve.
static struct {
  __typeof__(de265_new_decoder) *new_decoder;
  __typeof__(de265_start_worker_threads) *start_worker_threads;
  __typeof__(de265_free_decoder) *free_decoder;
  __typeof__(de265_push_NAL) *push_NAL;
  __typeof__(de265_flush_data) *flush_data;
  __typeof__(de265_decode) *decode;
  __typeof__(de265_get_next_picture) *get_next_picture;
  __typeof__(de265_release_next_picture) *release_next_picture;
  __typeof__(de265_get_warning) *get_warning;
  __typeof__(de265_get_error_text) *get_error_text;
  __typeof__(de265_get_chroma_format) *get_chroma_format;
  __typeof__(de265_get_image_width) *get_image_width;
  __typeof__(de265_get_image_height) *get_image_height;
  __typeof__(de265_get_bits_per_pixel) *get_bits_per_pixel;
  __typeof__(de265_get_image_plane) *get_image_plane;
  __typeof__(de265_set_parameter_bool) *set_parameter_bool;
} mp_de265;

static int mp_de265_resolve(void) {
#define MP_RESOLVE(field, name)                                        \
  if ((mp_de265.field = mp_lazy_symbol(&mp_de265_library, #name)) == NULL) return 0;
  MP_RESOLVE(new_decoder, de265_new_decoder)
  MP_RESOLVE(start_worker_threads, de265_start_worker_threads)
  MP_RESOLVE(free_decoder, de265_free_decoder)
  MP_RESOLVE(push_NAL, de265_push_NAL)
  MP_RESOLVE(flush_data, de265_flush_data)
  MP_RESOLVE(decode, de265_decode)
  MP_RESOLVE(get_next_picture, de265_get_next_picture)
  MP_RESOLVE(release_next_picture, de265_release_next_picture)
  MP_RESOLVE(get_warning, de265_get_warning)
  MP_RESOLVE(get_error_text, de265_get_error_text)
  MP_RESOLVE(get_chroma_format, de265_get_chroma_format)
  MP_RESOLVE(get_image_width, de265_get_image_width)
  MP_RESOLVE(get_image_height, de265_get_image_height)
  MP_RESOLVE(get_bits_per_pixel, de265_get_bits_per_pixel)
  MP_RESOLVE(get_image_plane, de265_get_image_plane)
  MP_RESOLVE(set_parameter_bool, de265_set_parameter_bool)
#undef MP_RESOLVE
  return 1;
}

static int mp_de265_state;  // 1 ready, -1 missing
static pthread_once_t mp_de265_once = PTHREAD_ONCE_INIT;

static void mp_de265_resolve_once(void) { mp_de265_state = mp_de265_resolve() ? 1 : -1; }

// Opens libde265 the first time a decode asks (not at registration: a
// process that only reads HEIC sizes never maps it through this).
int mp_heif_de265_ready(void) {
  pthread_once(&mp_de265_once, mp_de265_resolve_once);
  return mp_de265_state == 1;
}

typedef struct {
  de265_decoder_context *context;
  int strict;
} mp_de265_decoder;

static const char *mp_de265_name(void) { return "Magpie libde265 (threaded)"; }

static void mp_de265_init_plugin(void) {}

static void mp_de265_deinit_plugin(void) {}

static int mp_de265_supports(enum heif_compression_format format) {
  // Above libheif's own libde265 plugin (100), below libavcodec's (130).
  return format == heif_compression_HEVC && mp_heif_hevc_backend_allows(mp_heif_hevc_de265) && mp_heif_de265_ready()
             ? 120
             : 0;
}

static struct heif_error mp_de265_new(void **out) {
  mp_de265_decoder *decoder = calloc(1, sizeof *decoder);
  if (decoder == NULL) return mp_heif_hevc_error(heif_error_Memory_allocation_error, "no memory for a decoder");
  decoder->context = mp_de265.new_decoder();
  if (decoder->context == NULL) {
    free(decoder);
    return mp_heif_hevc_error(heif_error_Memory_allocation_error, "libde265 could not make a decoder");
  }
  int threads = mp_heif_hevc_threads();
  if (threads > 1) mp_de265.start_worker_threads(decoder->context, threads);
  mp_heif_hevc_record(mp_heif_hevc_de265);
  *out = decoder;
  return mp_heif_hevc_ok;
}

static void mp_de265_free(void *opaque) {
  mp_de265_decoder *decoder = opaque;
  if (decoder == NULL) return;
  mp_de265.free_decoder(decoder->context);
  free(decoder);
}

static void mp_de265_set_strict(void *opaque, int flag) { ((mp_de265_decoder *)opaque)->strict = flag; }

// libheif hands over NAL units each behind a 4-byte big-endian length (the
// hvcC headers, then the image data it rewrote to 4-byte lengths).
static struct heif_error mp_de265_push(void *opaque, const void *data, size_t size) {
  mp_de265_decoder *decoder = opaque;
  const uint8_t *nal = NULL;
  uint32_t length = 0;
  const char *why = NULL;
  size_t at = 0;
  int found;
  while ((found = mp_heif_hevc_next_nal(data, size, &at, &nal, &length, &why)) > 0) {
    de265_error error = mp_de265.push_NAL(decoder->context, nal, (int)length, 0, NULL);
    if (error != DE265_OK) return mp_heif_hevc_error(heif_error_Decoder_plugin_error, mp_de265.get_error_text(error));
  }
  return found < 0 ? mp_heif_hevc_error(heif_error_Decoder_plugin_error, why) : mp_heif_hevc_ok;
}

// Copies libde265's picture into a heif_image of the same chroma layout.
static struct heif_error mp_de265_copy(const struct de265_image *picture, struct heif_image **out) {
  enum de265_chroma format = mp_de265.get_chroma_format(picture);
  enum heif_chroma chroma = format == de265_chroma_mono  ? heif_chroma_monochrome
                            : format == de265_chroma_420 ? heif_chroma_420
                            : format == de265_chroma_422 ? heif_chroma_422
                                                         : heif_chroma_444;
  enum heif_colorspace space = format == de265_chroma_mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr;
  int width = mp_de265.get_image_width(picture, 0), height = mp_de265.get_image_height(picture, 0);
  struct heif_image *image = NULL;
  struct heif_error error = heif_image_create(width, height, space, chroma, &image);
  if (error.code != heif_error_Ok) return error;
  static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
  int planes = format == de265_chroma_mono ? 1 : 3;
  for (int c = 0; c < planes; c++) {
    int w = mp_de265.get_image_width(picture, c), h = mp_de265.get_image_height(picture, c);
    int bits = mp_de265.get_bits_per_pixel(picture, c);
    if (w <= 0 || h <= 0 || bits <= 0 || bits > 16) {
      heif_image_release(image);
      return mp_heif_hevc_error(heif_error_Decoder_plugin_error, "libde265 gave a plane of no size");
    }
    error = heif_image_add_plane(image, channels[c], w, h, bits);
    if (error.code != heif_error_Ok) {
      heif_image_release(image);
      return error;
    }
    int from_stride = 0, to_stride = 0;
    const uint8_t *from = mp_de265.get_image_plane(picture, c, &from_stride);
    uint8_t *to = heif_image_get_plane(image, channels[c], &to_stride);
    size_t row = (size_t)w * (bits > 8 ? 2 : 1);
    for (int y = 0; y < h; y++) memcpy(to + (size_t)y * to_stride, from + (size_t)y * from_stride, row);
  }
  *out = image;
  return mp_heif_hevc_ok;
}

static struct heif_error mp_de265_decode_image(void *opaque, struct heif_image **out) {
  mp_de265_decoder *decoder = opaque;
  de265_error error = mp_de265.flush_data(decoder->context);
  if (error != DE265_OK) return mp_heif_hevc_error(heif_error_Decoder_plugin_error, mp_de265.get_error_text(error));
  struct heif_image *image = NULL;
  int more = 0;
  do {
    more = 0;
    error = mp_de265.decode(decoder->context, &more);
    if (error != DE265_OK) break;
    const struct de265_image *picture = mp_de265.get_next_picture(decoder->context);
    if (picture != NULL) {
      if (image != NULL) heif_image_release(image);
      image = NULL;
      struct heif_error copied = mp_de265_copy(picture, &image);
      mp_de265.release_next_picture(decoder->context);
      if (copied.code != heif_error_Ok) return copied;
    }
  } while (more);
  // Warnings (a damaged slice) make the picture wrong: refused when strict.
  de265_error warning = mp_de265.get_warning(decoder->context);
  if (warning != DE265_OK && decoder->strict) {
    if (image != NULL) heif_image_release(image);
    return mp_heif_hevc_error(heif_error_Decoder_plugin_error, mp_de265.get_error_text(warning));
  }
  while (mp_de265.get_warning(decoder->context) != DE265_OK) {
  }
  if (image == NULL) {
    const char *why = error != DE265_OK ? mp_de265.get_error_text(error) : "libde265 decoded no picture";
    return mp_heif_hevc_error(heif_error_Decoder_plugin_error, why);
  }
  *out = image;
  return mp_heif_hevc_ok;
}

static const struct heif_decoder_plugin mp_de265_plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = mp_de265_name,
    .init_plugin = mp_de265_init_plugin,
    .deinit_plugin = mp_de265_deinit_plugin,
    .does_support_format = mp_de265_supports,
    .new_decoder = mp_de265_new,
    .free_decoder = mp_de265_free,
    .push_data = mp_de265_push,
    .decode_image = mp_de265_decode_image,
    .set_strict_decoding = mp_de265_set_strict,
    .id_name = "magpie-libde265",
};

int mp_heif_register_de265_plugin(void) {
  return heif_register_decoder_plugin(&mp_de265_plugin).code == heif_error_Ok;
}

#else

int mp_heif_register_de265_plugin(void) { return 0; }

int mp_heif_de265_ready(void) { return 0; }

#endif
